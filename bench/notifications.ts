// Notification fan-out cost: a comment on an issue of a public repository with N watchers (default 1,000).
// Prints, for the comment request itself and for the fan-out job the worker runs afterwards: wall time and SQL
// statements, on a first comment (every thread new: one insert), a second one (every thread updated), and with
// all threads read (updated back to unread). The statement count must not grow with N: run with two sizes.
// Usage: npx tsx bench/notifications.ts [sqlite|postgresql] [watchers=1000]
//   PostgreSQL: a scratch database is created on BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations, type DbProvider } from '../src/db/migrate/engine.ts';
import { createServiceContext, createSystemContext } from '../src/services/context.ts';
import * as commentService from '../src/services/issue/comment.ts';
import * as issueService from '../src/services/issue/create.ts';
import * as repoService from '../src/services/repo/create.ts';
import * as userService from '../src/services/user/user.ts';

const provider = (process.argv[2] ?? 'sqlite') as DbProvider;
const watchers = Number(process.argv[3] ?? 1000);
const dir = mkdtempSync(path.join(tmpdir(), 'fg-bench-notif-'));

async function scratchUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  if (provider === 'sqlite') return { url: `file:${path.join(dir, 'bench.db')}`, drop: async () => undefined };
  const server = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `fg_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function main(): Promise<void> {
  const scratch = await scratchUrl();
  await deployMigrations({ provider, url: scratch.url });
  const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: scratch.url, SECRET_KEY: 'bench', ROOT_URL: 'http://localhost:3000/' });
  let statements = 0;
  const app = await buildApp(config, { onQuery: () => void statements++ });
  try {
    const sys = createSystemContext(app.deps);
    const mk = (username: string) =>
      userService.createUser(sys, { username, email: `${username}@example.com`, password: 'bench-password-1', mustChangePassword: false });
    const owner = await mk('owner');
    const poster = await mk('poster');
    const commenter = await mk('commenter');
    const { repo } = await repoService.createRepo(createServiceContext(app.deps, owner), { kind: 'viewer' }, { name: 'busy' });
    const db = app.deps.db;
    const seedStart = performance.now();
    await db.user.createMany({
      data: Array.from({ length: watchers }, (_, i) => ({
        name: `w${i}`,
        lowerName: `w${i}`,
        email: `w${i}@example.com`,
      })),
    });
    const ids = await db.user.findMany({ where: { lowerName: { startsWith: 'w' } }, select: { id: true } });
    await db.watch.createMany({ data: ids.map((u) => ({ userId: u.id, repoId: repo.id, mode: 'NORMAL' as const })) });
    await db.repository.update({ where: { id: repo.id }, data: { numWatches: { increment: ids.length } } });
    const ref = { owner: 'owner', repo: 'busy' };
    console.log(`${provider}: ${ids.length} watchers seeded in ${(performance.now() - seedStart).toFixed(0)} ms`);
    let issueId = 0;
    let index = 0;

    /** Runs `action` (one request's service call), then the jobs it left; prints time and statements of each. */
    async function measure(label: string, action: () => Promise<void>): Promise<void> {
      statements = 0;
      const t0 = performance.now();
      await action();
      const request = { ms: performance.now() - t0, sql: statements };
      await app.deps.notifier.drain();
      statements = 0;
      const t1 = performance.now();
      await app.jobs.drain();
      const job = { ms: performance.now() - t1, sql: statements };
      const threads = await db.notification.count({ where: { issueId } });
      console.log(
        `  ${label.padEnd(38)} request ${request.ms.toFixed(1).padStart(7)} ms ${String(request.sql).padStart(3)} SQL | ` +
          `fan-out job ${job.ms.toFixed(1).padStart(7)} ms ${String(job.sql).padStart(3)} SQL | ${threads} threads`,
      );
    }
    const comment = (label: string) => () =>
      commentService.createComment(createServiceContext(app.deps, commenter), ref, index, label).then(() => undefined);
    await measure('new issue (every thread inserted)', async () => {
      const view = await issueService.createIssue(createServiceContext(app.deps, poster), ref, { title: 'hot issue', body: 'x' });
      issueId = view.issue.id;
      index = view.issue.index;
    });
    await measure('comment (threads unread: touched)', comment('one'));
    await db.notification.updateMany({ data: { status: 'READ' } });
    await measure('comment (threads read → unread)', comment('two'));
    await measure('comment again (threads unread)', comment('three'));
  } finally {
    await app.close();
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
