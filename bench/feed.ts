// Activity feeds: statements and p50 latency of a feed page (REST and GraphQL), and the cost of the per-watcher
// fan-out of one event (Gitea NotifyWatchers materializes a row per watcher) for public and private repositories.
// Usage: npx tsx bench/feed.ts [watchers=1000] [runs=200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createServiceContext, createSystemContext } from '../src/services/context.ts';
import * as commentService from '../src/services/issue/comment.ts';
import * as repoService from '../src/services/repo/create.ts';
import * as userService from '../src/services/user/user.ts';

const watchers = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 200);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-feed-'));
const PASSWORD = 'password123!';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const url = `file:${path.join(tmp, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: tmp, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://localhost:3000/' });
  let statements = 0;
  const app = await buildApp(config, { onQuery: () => statements++ });
  await app.server.ready();
  const system = createSystemContext(app.deps);
  const alice = await userService.createUser(system, {
    username: 'alice',
    email: 'alice@example.com',
    password: PASSWORD,
    mustChangePassword: false,
  });
  const auth = { authorization: `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}` };
  const cx = createServiceContext(app.deps, alice, { method: 'password', scope: null, tokenId: null, sudoerId: null });
  for (const [name, isPrivate] of [
    ['pub', false],
    ['secret', true],
  ] as const) {
    await repoService.createRepo(cx, { kind: 'viewer' }, { name, private: isPrivate, autoInit: false });
  }
  for (let i = 0; i < 100; i++) {
    await app.server.inject({
      method: 'POST',
      url: `/api/v1/repos/alice/${i % 2 ? 'pub' : 'secret'}/issues`,
      headers: auth,
      payload: { title: `issue ${i}` },
    });
  }
  await app.deps.notifier.drain();

  const page = async (url: string, init: { method?: 'GET' | 'POST'; payload?: unknown } = {}) => {
    const times: number[] = [];
    let perRequest = 0;
    for (let i = 0; i < runs + 20; i++) {
      statements = 0;
      const t0 = performance.now();
      const res = await app.server.inject({
        method: init.method ?? 'GET',
        url,
        headers: auth,
        ...(init.payload ? { payload: init.payload as object } : {}),
      });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
      if (i >= 20) times.push(performance.now() - t0);
      perRequest = statements;
    }
    return { p50: median(times), statements: perRequest };
  };
  const rest = await page('/api/v1/users/alice/activities/feeds?limit=50');
  const gql = await page('/api/graphql', {
    method: 'POST',
    payload: {
      query:
        '{ user(login: "alice") { activity(first: 50) { totalCount nodes { opType content createdAt actor { login } repository { nameWithOwner } } } } }',
    },
  });
  console.log(`feed page of 50 (REST /users/alice/activities/feeds): ${rest.statements} statements, p50 ${rest.p50.toFixed(2)} ms`);
  console.log(`feed page of 50 (GraphQL User.activity(first: 50)): ${gql.statements} statements, p50 ${gql.p50.toFixed(2)} ms`);

  // Fan-out: `watchers` users watch both repositories; one comment in each.
  const ids: number[] = [];
  for (let i = 0; i < watchers; i++) {
    const u = await app.deps.db.user.create({ data: { name: `w${i}`, lowerName: `w${i}`, email: `w${i}@example.com`, passwordHash: '' } });
    ids.push(u.id);
  }
  const repos = await app.deps.db.repository.findMany({ where: { ownerId: alice.id } });
  for (const r of repos) await app.deps.db.watch.createMany({ data: ids.map((userId) => ({ userId, repoId: r.id })) });
  for (const r of repos) {
    statements = 0;
    const t0 = performance.now();
    await commentService.createComment(cx, { owner: 'alice', repo: r.name }, 1, 'a comment for every watcher');
    await app.deps.notifier.drain();
    const ms = performance.now() - t0;
    const rows = await app.deps.db.action.count({ where: { repoId: r.id, opType: 'COMMENT_ISSUE' } });
    console.log(
      `comment in ${r.isPrivate ? 'a private' : 'a public'} repository with ${watchers} watchers: ${rows} feed rows, ${statements} statements, ${ms.toFixed(0)} ms`,
    );
  }
  await app.close();
  rmSync(tmp, { recursive: true, force: true });
}

await main();
