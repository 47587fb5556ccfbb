// Pull request diff stats through the services (not just the git layer), on a head branch that changes 1,000
// files (20 commits) against a base of 2,000 files that has moved on:
// - createPullRequest (head/base checks, merge base, divergence, numstat, trial merge, rows, refs/pull/N/head);
// - getPullRequest with the cache fresh (no git diff: branch tips read, cached stats used);
// - getPullRequest with the cache stale (the read recomputes and stores the stats);
// - the refresh after a push to the head (refs/pull/N/head, content-change check, PULL_PUSH, recompute);
// - GET …/files (1,000 files, one page of 50) and …/commits through the REST routes.
// Usage: npx tsx bench/pullStats.ts [runs=9] [files=1000] [headCommits=20]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { repoPath } from '../src/git/repoPath.ts';
import { createServiceContext, createSystemContext } from '../src/services/context.ts';
import { createPullRequest } from '../src/services/pull/create.ts';
import { getPullRequest } from '../src/services/pull/pull.ts';
import { refreshPullsAfterPush } from '../src/services/pull/refresh.ts';
import { BENCH_AUTH, createBenchUser } from './benchUser.ts';

const runs = Number(process.argv[2] ?? 9);
const changed = Number(process.argv[3] ?? 1000);
const headCommits = Number(process.argv[4] ?? 20);
const total = changed * 2;
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-pull-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };

function git(gitDir: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args[0] ?? ''} failed: ${err}`))));
    if (input !== undefined) child.stdin?.end(input);
  });
}

const content = (i: number, rev: number) =>
  Array.from({ length: 20 }, (_, l) => `file ${i} line ${l}${l === 3 || l === 15 ? ` rev ${rev}` : ''}\n`).join('') +
  (rev ? `added in rev ${rev}\n` : '');
const file = (i: number) => `dir${i % 50}/sub${i % 7}/file ${i}.txt`;

/** main gets `total` files; `pr` changes files 0..changed-1 over `headCommits` commits; main then changes changed/10 others. */
function history(mainTip: string): string {
  const out: string[] = [];
  const commit = (ref: string, mark: number, from: string, t: number, msg: string, files: number[], rev: number) => {
    out.push(
      `commit ${ref}\nmark :${mark}\nauthor Bench <bench@example.com> ${t} +0000\ncommitter Bench <bench@example.com> ${t} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}from ${from}\n`,
    );
    for (const i of files) {
      const body = content(i, rev);
      out.push(`M 100644 inline ${file(i)}\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    }
    out.push('\n');
  };
  commit(
    'refs/heads/main',
    1,
    mainTip,
    1_700_000_000,
    'base\n',
    Array.from({ length: total }, (_, i) => i),
    0,
  );
  const per = Math.ceil(changed / headCommits);
  for (let c = 0; c < headCommits; c++) {
    const files = Array.from({ length: per }, (_, k) => c * per + k).filter((i) => i < changed);
    commit('refs/heads/pr', 2 + c, `:${1 + c}`, 1_700_000_100 + c * 60, `pr commit ${c + 1}\n`, files, 1);
  }
  commit(
    'refs/heads/main',
    2 + headCommits,
    ':1',
    1_700_090_000,
    'main moves on\n',
    Array.from({ length: Math.ceil(changed / 10) }, (_, k) => changed + k),
    2,
  );
  return out.join('');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function time(label: string, n: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  await fn(-1); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  console.log(
    `${label.padEnd(58)} median ${median(times).toFixed(1).padStart(8)} ms  (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}, n=${n})`,
  );
}

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  try {
    const sys = createSystemContext(app.deps);
    const owner = await createBenchUser(app);
    const auth = BENCH_AUTH;
    const created = await app.server.inject({
      method: 'POST',
      url: '/api/v1/user/repos',
      headers: auth,
      payload: { name: 'big', auto_init: true, default_branch: 'main' },
    });
    if (created.statusCode !== 201) throw new Error(`repository: ${created.body}`);
    const gitDir = repoPath(config.repositoriesDir, 'bench', 'big');
    await git(gitDir, ['fast-import', '--quiet'], history((await git(gitDir, ['rev-parse', 'refs/heads/main'])).trim()));
    const cx = () => createServiceContext(app.deps, owner, { method: 'password', scope: null, tokenId: null, sudoerId: null });
    const ref = { owner: 'bench', repo: 'big' };
    console.log(
      `head changes ${changed} files in ${headCommits} commits; base tree ${total + 1} files and moved on (${Math.ceil(changed / 10)} files)`,
    );

    // Each run opens a new pull request from its own branch at the same commit (the open-one-per-target rule).
    const prTip = (await git(gitDir, ['rev-parse', 'refs/heads/pr'])).trim();
    for (let i = -1; i < runs; i++) await git(gitDir, ['update-ref', `refs/heads/pr${i + 1}`, prTip]);
    let index = 0;
    await time('createPullRequest (service)', runs, async (i) => {
      const view = await createPullRequest(cx(), ref, { head: `pr${i + 1}`, base: 'main', title: `bench ${i}` });
      if (view.pull.changedFiles !== changed) throw new Error(`changedFiles ${String(view.pull.changedFiles)}`);
      index = view.pull.index;
    });
    await time('getPullRequest, cached stats (service)', runs, () => getPullRequest(cx(), ref, index));
    await time('getPullRequest, stale stats recomputed (service)', runs, async () => {
      await app.deps.db.pullRequest.updateMany({ where: { index }, data: { statsHeadSha: '' } });
      const view = await getPullRequest(cx(), ref, index);
      if (view.pull.changedFiles !== changed || !view.pull.statsHeadSha) throw new Error('not recomputed');
    });
    await time('GET /pulls/{index} (REST, cached)', runs, async () => {
      const res = await app.server.inject({ method: 'GET', url: `/api/v1/repos/bench/big/pulls/${index}`, headers: auth });
      if (res.statusCode !== 200) throw new Error(res.body);
    });
    await time('GET /pulls/{index}/files?limit=50 (REST, 1,000-file diff)', runs, async () => {
      const res = await app.server.inject({ method: 'GET', url: `/api/v1/repos/bench/big/pulls/${index}/files?limit=50`, headers: auth });
      if (res.statusCode !== 200 || res.headers['x-total-count'] !== String(changed)) throw new Error(res.body.slice(0, 200));
    });
    await time('GET /pulls/{index}/commits (REST, files and stats)', runs, async () => {
      const res = await app.server.inject({ method: 'GET', url: `/api/v1/repos/bench/big/pulls/${index}/commits`, headers: auth });
      if (res.statusCode !== 200) throw new Error(res.body.slice(0, 200));
    });
    // A push to the head of the last pull request: one more commit on its branch, then the subscriber's work.
    const branch = `pr${runs}`;
    const repo = await app.deps.db.repository.findUniqueOrThrow({ where: { id: created.json<{ id: number }>().id } });
    await time('refresh after a head push (refreshPullsAfterPush)', runs, async (i) => {
      const old = (await git(gitDir, ['rev-parse', `refs/heads/${branch}`])).trim();
      const stream = `commit refs/heads/${branch}\ncommitter Bench <bench@example.com> ${1_700_100_000 + i + 1} +0000\ndata 5\npush\nfrom ${old}\nM 100644 inline extra-${i + 1}.txt\ndata 2\nx\n\n`;
      await git(gitDir, ['fast-import', '--quiet'], stream);
      const next = (await git(gitDir, ['rev-parse', `refs/heads/${branch}`])).trim();
      const updates = [{ ref: `refs/heads/${branch}`, oldSha: old, newSha: next }];
      await refreshPullsAfterPush(sys, { repoId: repo.id, repo, pusherId: owner.id, pusher: owner, updates });
    });
    await app.deps.notifier.drain();
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
