// The cost of the read policies' SQL (services/*/visibility.ts) on GraphQL lists, on the embedded default (SQLite):
// p50 latency of list queries as a member of an organization whose teams grant per-unit access, against a world of
// 40 repositories (half private) and 300 issues. CPU time per query (server and client share the process) is the
// steadier figure on a busy machine. Run it on two commits to compare.
// Usage: npx tsx bench/readPolicy.ts [runs=200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as userService from '../src/services/user/user.ts';

const runs = Number(process.argv[2] ?? 200);
const REPOS = 40;
const ISSUES_PER_REPO = 15;
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-policy-'));
const basic = (user: string) => `Basic ${Buffer.from(`${user}:bench-password-1`).toString('base64')}`;

const QUERIES: Record<string, string> = {
  'organization.repositories(first: 50)': '{ organization(login: "borg") { repositories(first: 50) { totalCount nodes { name } } } }',
  'repository.issues(first: 50)': '{ repository(owner: "borg", name: "r1") { issues(first: 50) { totalCount nodes { number title } } } }',
  'organization.labels { issueCount }': '{ organization(login: "borg") { labels(first: 10) { nodes { name issueCount } } } }',
  'organization.teams { members repositories }':
    '{ organization(login: "borg") { teams(first: 10) { nodes { name members(first: 10) { totalCount } repositories(first: 50) { totalCount } } } } }',
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${path.join(tmp, 'bench.db')}`,
    SECRET_KEY: 'bench',
    LOG_LEVEL: 'warn',
  });
  await deployMigrations({ provider: 'sqlite', url: config.databaseUrl });
  const app = await buildApp(config);
  await app.server.ready();
  const sys = createSystemContext(app.deps);
  const call = async (user: string, method: string, url: string, body?: unknown) => {
    const res = await app.server.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers: { authorization: basic(user), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? (res.json() as Record<string, unknown>) : {};
  };
  try {
    for (const name of ['bowner', 'bmember']) {
      await userService.createUser(sys, {
        username: name,
        email: `${name}@example.com`,
        password: 'bench-password-1',
        mustChangePassword: false,
      });
    }
    await call('bowner', 'POST', '/orgs', { username: 'borg', visibility: 'public' });
    const label = await call('bowner', 'POST', '/orgs/borg/labels', { name: 'triage', color: '#aabbcc' });
    const teams: number[] = [];
    for (const [name, units] of [
      ['coders', { 'repo.code': 'write' }],
      ['triage', { 'repo.issues': 'read', 'repo.pulls': 'read' }],
    ] as const) {
      const team = await call('bowner', 'POST', '/orgs/borg/teams', { name, units_map: units, includes_all_repositories: false });
      teams.push(team.id as number);
      await call('bowner', 'PUT', `/teams/${String(team.id)}/members/bmember`);
    }
    for (let r = 1; r <= REPOS; r++) {
      await call('bowner', 'POST', '/orgs/borg/repos', { name: `r${r}`, private: r % 2 === 0 });
      if (r % 4 === 0) await call('bowner', 'PUT', `/teams/${teams[r % 8 === 0 ? 1 : 0]}/repos/borg/r${r}`);
      if (r <= 20) {
        for (let i = 1; i <= ISSUES_PER_REPO; i++) {
          await call('bowner', 'POST', `/repos/borg/r${r}/issues`, { title: `issue ${i}`, labels: i % 3 === 0 ? [label.id] : [] });
        }
      }
    }
    console.log(`world: ${REPOS} repositories (half private), ${20 * ISSUES_PER_REPO} issues; viewer: a member of two per-unit teams`);
    for (const [name, query] of Object.entries(QUERIES)) {
      const times: number[] = [];
      let cpu = process.cpuUsage();
      for (let i = 0; i < runs + 10; i++) {
        if (i === 10) cpu = process.cpuUsage();
        const start = performance.now();
        const res = await app.server.inject({
          method: 'POST',
          url: '/api/graphql',
          headers: { authorization: basic('bmember'), 'content-type': 'application/json' },
          payload: JSON.stringify({ query }),
        });
        if (i >= 10) times.push(performance.now() - start);
        if (res.statusCode !== 200 || (res.json() as { errors?: unknown }).errors) throw new Error(`${name}: ${res.body}`);
      }
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000 / runs;
      console.log(`${name.padEnd(48)} p50 ${median(times).toFixed(2)} ms, CPU ${cpuMs.toFixed(2)} ms per query (${runs} runs)`);
    }
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
