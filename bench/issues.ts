// Issue read paths against hand-made baselines, in one run on the embedded default (SQLite):
//  1. requests per second of GET /api/v1/repos/{o}/{r}/issues/{index} versus a bare Fastify route returning the
//     same JSON bytes (autocannon in a child process, so the load generator does not share the server's event loop);
//  2. p50 latency of the issue-5 GraphQL query versus a bare Fastify route that builds the same JSON with
//     hand-written SQL (better-sqlite3 prepared statements on the same database file).
// Usage: npx tsx bench/issues.ts [seconds=8] [graphqlRuns=300]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import type { Models } from '../src/db/client.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as userService from '../src/services/user/user.ts';

const seconds = Number(process.argv[2] ?? 8);
const graphqlRuns = Number(process.argv[3] ?? 300);
const ISSUES = 60;
const COMMENTS_PER_ISSUE = 12;
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-issues-'));

const QUERY = `query Bench($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    issues(first: 50) {
      nodes {
        number title state
        author { login }
        labels(first: 10) { nodes { name color } }
        assignees(first: 10) { nodes { login } }
        comments(first: 10) { nodes { body author { login } } }
        reactionGroups { content reactors { totalCount } }
      }
    }
  }
}`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** Runs autocannon as a child process and returns its mean requests per second. */
function autocannon(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<number> {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', '10', '-d', String(seconds), '-m', init.method ?? 'GET'];
  for (const [k, v] of Object.entries(init.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (init.body) args.push('-b', init.body);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const result = JSON.parse(out) as { requests: { average: number }; non2xx: number; errors: number };
      if (result.non2xx || result.errors) return reject(new Error(`autocannon saw ${result.non2xx} non-2xx and ${result.errors} errors`));
      resolve(result.requests.average);
    });
  });
}

/** p50 of `runs` sequential POSTs (after 20 warm-up requests), in milliseconds. */
async function p50(url: string, body: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < graphqlRuns + 20; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    if (i >= 20) times.push(performance.now() - t0);
  }
  return median(times);
}

/** Seeds one public repository: issues with labels, assignees, comments and reactions. */
async function seed(app: Awaited<ReturnType<typeof buildApp>>): Promise<void> {
  const db = app.deps.db;
  const sys = createSystemContext(app.deps);
  const users: Models.User[] = [];
  for (const name of ['bench', 'ann', 'bob', 'cyd', 'dee']) {
    users.push(
      await userService.createUser(sys, {
        username: name,
        email: `${name}@example.com`,
        password: 'bench-password-1',
        mustChangePassword: false,
      }),
    );
  }
  const owner = users[0]!;
  const repo = await db.repository.create({
    data: {
      ownerId: owner.id,
      ownerName: owner.name,
      name: 'tracker',
      lowerName: 'tracker',
      isEmpty: true,
      units: { create: [{ type: 'CODE' }, { type: 'ISSUES' }, { type: 'PULL_REQUESTS' }] },
    },
  });
  const labels = [];
  for (const [i, name] of ['bug', 'feature', 'docs', 'kind/ui', 'kind/api'].entries()) {
    labels.push(await db.label.create({ data: { repoId: repo.id, name, color: `00${i}0aa`, exclusive: name.startsWith('kind/') } }));
  }
  for (let n = 1; n <= ISSUES; n++) {
    const issue = await db.issue.create({
      data: {
        repoId: repo.id,
        index: n,
        posterId: users[n % users.length]!.id,
        title: `Issue number ${n}`,
        content: `Body of issue ${n}`,
        numComments: COMMENTS_PER_ISSUE,
      },
    });
    await db.issueLabel.createMany({ data: [labels[n % 3]!, labels[3 + (n % 2)]!].map((l) => ({ issueId: issue.id, labelId: l.id })) });
    await db.issueAssignee.createMany({
      data: [users[1 + (n % 4)]!, users[(n + 2) % 5]!]
        .filter((u, i, a) => a.indexOf(u) === i)
        .map((u) => ({ issueId: issue.id, assigneeId: u.id })),
    });
    await db.comment.createMany({
      data: Array.from({ length: COMMENTS_PER_ISSUE }, (_, c) => ({
        type: 'COMMENT' as const,
        issueId: issue.id,
        posterId: users[c % users.length]!.id,
        content: `comment ${c} on ${n}`,
      })),
    });
    await db.reaction.createMany({
      data: users.flatMap((u, i) => (i <= n % 5 ? [{ type: i % 2 ? 'heart' : '+1', issueId: issue.id, userId: u.id }] : [])),
    });
  }
  await db.issueIndex.create({ data: { repoId: repo.id, maxIndex: ISSUES } });
  await db.repository.update({ where: { id: repo.id }, data: { numIssues: ISSUES } });
}

/** GitHub's ReactionContent names for Gitea's reaction types, in display order (every group is listed, as GitHub). */
const CONTENT: Record<string, string> = {
  '+1': 'THUMBS_UP',
  '-1': 'THUMBS_DOWN',
  laugh: 'LAUGH',
  hooray: 'HOORAY',
  confused: 'CONFUSED',
  heart: 'HEART',
  rocket: 'ROCKET',
  eyes: 'EYES',
};

/** The GraphQL query's JSON built with hand-written SQL: one statement per relation, grouped in memory. */
function handWritten(file: string): (owner: string, name: string) => unknown {
  const sql = new Database(file, { readonly: true });
  const repoStmt = sql.prepare('SELECT id FROM "Repository" WHERE "ownerName" = ? AND "name" = ?');
  const issuesStmt = sql.prepare(
    `SELECT i.id, i."index" AS number, i.title, i."isClosed" AS closed, u.name AS author FROM "Issue" i
     LEFT JOIN "User" u ON u.id = i."posterId" WHERE i."repoId" = ? AND i."isPull" = 0 ORDER BY i."index" DESC LIMIT 50`,
  );
  const labelsStmt = sql.prepare(
    `SELECT il."issueId" AS issueId, l.name, l.color FROM "IssueLabel" il JOIN "Label" l ON l.id = il."labelId"
     WHERE il."issueId" IN (SELECT value FROM json_each(?)) ORDER BY il.id`,
  );
  const assigneesStmt = sql.prepare(
    `SELECT a."issueId" AS issueId, u.name AS login FROM "IssueAssignee" a JOIN "User" u ON u.id = a."assigneeId"
     WHERE a."issueId" IN (SELECT value FROM json_each(?)) ORDER BY a.id`,
  );
  const commentsStmt = sql.prepare(
    `SELECT issueId, body, login FROM (
       SELECT c."issueId" AS issueId, c.content AS body, u.name AS login,
              ROW_NUMBER() OVER (PARTITION BY c."issueId" ORDER BY c.id) AS rn
       FROM "Comment" c LEFT JOIN "User" u ON u.id = c."posterId"
       WHERE c."issueId" IN (SELECT value FROM json_each(?)) AND c.type = 'COMMENT'
     ) WHERE rn <= 10 ORDER BY issueId, rn`,
  );
  const reactionsStmt = sql.prepare(
    `SELECT "issueId" AS issueId, type, COUNT(*) AS n, MIN(id) AS first FROM "Reaction"
     WHERE "issueId" IN (SELECT value FROM json_each(?)) AND "commentId" = 0 GROUP BY "issueId", type ORDER BY first`,
  );
  const group = <T extends { issueId: number }>(rows: T[]): Map<number, T[]> => {
    const m = new Map<number, T[]>();
    for (const r of rows) m.set(r.issueId, [...(m.get(r.issueId) ?? []), r]);
    return m;
  };
  return (owner, name) => {
    const repo = repoStmt.get(owner, name) as { id: number } | undefined;
    if (!repo) return { data: { repository: null } };
    const issues = issuesStmt.all(repo.id) as { id: number; number: number; title: string; closed: number; author: string | null }[];
    const ids = JSON.stringify(issues.map((i) => i.id));
    const labels = group(labelsStmt.all(ids) as { issueId: number; name: string; color: string }[]);
    const assignees = group(assigneesStmt.all(ids) as { issueId: number; login: string }[]);
    const comments = group(commentsStmt.all(ids) as { issueId: number; body: string; login: string | null }[]);
    const reactions = group(reactionsStmt.all(ids) as { issueId: number; type: string; n: number }[]);
    return {
      data: {
        repository: {
          issues: {
            nodes: issues.map((i) => ({
              number: i.number,
              title: i.title,
              state: i.closed ? 'CLOSED' : 'OPEN',
              author: i.author === null ? null : { login: i.author },
              labels: { nodes: (labels.get(i.id) ?? []).map((l) => ({ name: l.name, color: l.color })) },
              assignees: { nodes: (assignees.get(i.id) ?? []).map((a) => ({ login: a.login })) },
              comments: {
                nodes: (comments.get(i.id) ?? []).map((c) => ({ body: c.body, author: c.login === null ? null : { login: c.login } })),
              },
              reactionGroups: Object.entries(CONTENT).map(([type, content]) => ({
                content,
                reactors: { totalCount: (reactions.get(i.id) ?? []).find((r) => r.type === type)?.n ?? 0 },
              })),
            })),
          },
        },
      },
    };
  };
}

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const file = path.join(dataDir, 'forgegraph.db');
  const url = `file:${file}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const bare = Fastify();
  try {
    await seed(app);
    const issuePath = '/api/v1/repos/bench/tracker/issues/7';
    const issueJson = await (await fetch(base + issuePath)).text();
    const graphqlBody = JSON.stringify({ query: QUERY, variables: { owner: 'bench', name: 'tracker' } });
    const gqlResponse = await (
      await fetch(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: graphqlBody })
    ).json();
    const build = handWritten(file);
    const sqlResponse = build('bench', 'tracker');
    if (JSON.stringify(gqlResponse) !== JSON.stringify(sqlResponse)) {
      throw new Error(
        `hand-written SQL and GraphQL disagree:\n${JSON.stringify(gqlResponse).slice(0, 600)}\n${JSON.stringify(sqlResponse).slice(0, 600)}`,
      );
    }
    bare.get(issuePath, (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(issueJson));
    bare.post('/graphql-sql', (req, reply) => {
      const { variables } = req.body as { variables: { owner: string; name: string } };
      return reply.send(build(variables.owner, variables.name));
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;

    console.log(
      `seeded ${ISSUES} issues × (2 labels, 1–2 assignees, ${COMMENTS_PER_ISSUE} comments, 1–5 reactions); GET body ${issueJson.length} bytes`,
    );
    const ours = await autocannon(base + issuePath);
    const baseline = await autocannon(bareBase + issuePath);
    console.log(`GET ${issuePath} (autocannon -c 10 -d ${seconds}):`);
    console.log(`  forgegraph            ${ours.toFixed(0)} req/s`);
    console.log(`  bare Fastify (same JSON) ${baseline.toFixed(0)} req/s`);
    console.log(`  ratio forgegraph / bare ${(ours / baseline).toFixed(3)}`);

    const gql = await p50(`${base}/api/graphql`, graphqlBody);
    const hand = await p50(`${bareBase}/graphql-sql`, graphqlBody);
    console.log(
      `GraphQL issues(first: 50){author labels assignees comments(first: 10){author} reactionGroups}, ${graphqlRuns} sequential requests:`,
    );
    console.log(`  forgegraph GraphQL p50     ${gql.toFixed(2)} ms`);
    console.log(`  hand-written SQL p50       ${hand.toFixed(2)} ms`);
    console.log(`  ratio GraphQL / SQL        ${(gql / hand).toFixed(2)}x`);
  } finally {
    await bare.close();
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
