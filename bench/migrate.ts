// Time to migrate (service=gitea, every item) a repository with N commits, I issues of C comments each and R
// releases from a second Forgegraph instance over real HTTP, and to sync a pull mirror of it.
// Usage: npx tsx bench/migrate.ts [commits=5000] [issues=500] [comments=10] [releases=50]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { repoPath } from '../src/git/repoPath.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as repoService from '../src/services/repo/create.ts';
import * as userService from '../src/services/user/user.ts';

const [commits, issues, comments, releases] = [5000, 500, 10, 50].map((d, i) => Number(process.argv[i + 2] ?? d)) as [
  number,
  number,
  number,
  number,
];
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-migrate-'));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

async function start(name: string, port: number, env: Record<string, string> = {}): Promise<App> {
  const dataDir = path.join(tmp, name);
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      SECRET_KEY: 'bench',
      ROOT_URL: `http://127.0.0.1:${port}/`,
      LOG_LEVEL: 'warn',
      ...env,
    }),
  );
  await app.server.listen({ port, host: '127.0.0.1' });
  return app;
}

/** N commits on main (one file changed each) and R lightweight tags, written with git fast-import. */
function fastImport(gitDir: string): void {
  const lines: string[] = [];
  for (let i = 1; i <= commits; i++) {
    const body = `line ${i}\n`;
    const msg = `commit ${i}\n`;
    lines.push(
      'commit refs/heads/main',
      `mark :${i}`,
      `committer Bench <bench@example.com> ${1_700_000_000 + i} +0000`,
      `data ${Buffer.byteLength(msg)}`,
      msg,
    );
    if (i > 1) lines.push(`from :${i - 1}`);
    lines.push(`M 100644 inline file${i % 100}.txt`, `data ${Buffer.byteLength(body)}`, body);
  }
  for (let r = 1; r <= releases; r++) lines.push(`reset refs/tags/v${r}`, `from :${Math.ceil((r * commits) / releases)}`, '');
  const res = spawnSync('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { input: lines.join('\n') });
  if (res.status !== 0) throw new Error(res.stderr.toString());
}

async function main(): Promise<void> {
  const [srcPort, dstPort] = [await freePort(), await freePort()];
  const source = await start('source', srcPort);
  const target = await start('target', dstPort, { MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
  try {
    const sys = createSystemContext(source.deps);
    const alice = await userService.createUser(sys, {
      username: 'alice',
      email: 'a@example.com',
      password: 'bench-password-1',
      mustChangePassword: false,
    });
    await userService.createUser(createSystemContext(target.deps), {
      username: 'bob',
      email: 'b@example.com',
      password: 'bench-password-1',
      mustChangePassword: false,
    });
    const { repo } = await repoService.createRepo({ ...sys, viewer: alice }, { kind: 'viewer' }, { name: 'big' });
    let t0 = performance.now();
    fastImport(repoPath(source.deps.config.repositoriesDir, 'alice', 'big'));
    const db = source.deps.db;
    await db.repository.update({ where: { id: repo.id }, data: { isEmpty: false, defaultBranch: 'main' } });
    for (let i = 1; i <= issues; i++) {
      const issue = await db.issue.create({
        data: { repoId: repo.id, index: i, posterId: alice.id, title: `Issue ${i}`, content: `Body ${i}`, numComments: comments },
      });
      await db.comment.createMany({
        data: Array.from({ length: comments }, (_, c) => ({ issueId: issue.id, posterId: alice.id, content: `Comment ${c} on ${i}` })),
      });
    }
    await db.issueIndex.upsert({ where: { repoId: repo.id }, create: { repoId: repo.id, maxIndex: issues }, update: { maxIndex: issues } });
    await db.repository.update({ where: { id: repo.id }, data: { numIssues: issues } });
    await db.release.createMany({
      data: Array.from({ length: releases }, (_, r) => ({
        repoId: repo.id,
        publisherId: alice.id,
        tagName: `v${r + 1}`,
        lowerTagName: `v${r + 1}`,
        title: `Release ${r + 1}`,
        note: 'notes',
      })),
    });
    console.log(
      `source ready in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${commits} commits, ${issues} issues × ${comments} comments, ${releases} releases`,
    );

    const auth = { authorization: `Basic ${Buffer.from('bob:bench-password-1').toString('base64')}`, 'content-type': 'application/json' };
    const migrate = async (body: Record<string, unknown>) => {
      const start = performance.now();
      const res = await fetch(`http://127.0.0.1:${dstPort}/api/v1/repos/migrate`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
      return (performance.now() - start) / 1000;
    };
    const plain = await migrate({ clone_addr: `http://127.0.0.1:${srcPort}/alice/big.git`, repo_name: 'plain' });
    console.log(`service=git (git data only):                ${plain.toFixed(2)} s`);
    t0 = performance.now();
    const full = await migrate({
      clone_addr: `http://127.0.0.1:${srcPort}/alice/big`,
      repo_name: 'full',
      service: 'gitea',
      auth_username: 'alice',
      auth_password: 'bench-password-1',
      issues: true,
      labels: true,
      milestones: true,
      releases: true,
      pull_requests: true,
    });
    console.log(`service=gitea (git + issues, comments, releases): ${full.toFixed(2)} s`);
    const mirror = await migrate({ clone_addr: `http://127.0.0.1:${srcPort}/alice/big.git`, repo_name: 'mirror', mirror: true });
    console.log(`mirror:true (git data):                     ${mirror.toFixed(2)} s`);
    const check = await target.deps.db.comment.count({ where: { issue: { repo: { name: 'full' } } } });
    console.log(`migrated comments: ${check}`);
  } finally {
    await source.close();
    await target.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
