// File writes and archives on a repository with 10,000 files (issue #21's figures):
// - the time to create a commit through the API (POST …/contents/{path}: checks, a temporary index read from the
//   parent tree, blob, write-tree, commit-tree, the compare-and-swap and the push bookkeeping), and PUT of an existing file;
// - the same commit with several files (POST …/contents, 10 files);
// - archive throughput (GET …/archive/main.zip and .tar.gz with an empty cache: `git archive` to the cache file, then streamed).
// Usage: npx tsx bench/contents.ts [runs=9] [files=10000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { repoPath } from '../src/git/repoPath.ts';
import { BENCH_AUTH, createBenchUser } from './benchUser.ts';

const runs = Number(process.argv[2] ?? 9);
const total = Number(process.argv[3] ?? 10_000);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-contents-'));
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

/** One commit on main with `total` files of ~1 KiB in 50×7 directories (fast-import). */
function history(mainTip: string): string {
  const out = [
    `commit refs/heads/main\nauthor Bench <bench@example.com> 1700000000 +0000\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 5\nbase\nfrom ${mainTip}\n`,
  ];
  for (let i = 0; i < total; i++) {
    const body = Array.from({ length: 16 }, (_, l) => `file ${i} line ${l} ${'x'.repeat(48)}\n`).join('');
    out.push(`M 100644 inline dir${i % 50}/sub${i % 7}/file-${i}.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`);
  }
  out.push('\n');
  return out.join('');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function time(label: string, n: number, fn: (i: number) => Promise<number | void>): Promise<number[]> {
  await fn(-1); // warm-up
  const times: number[] = [];
  const extra: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fn(i);
    times.push(performance.now() - t0);
    if (typeof r === 'number') extra.push(r);
  }
  console.log(
    `${label.padEnd(62)} median ${median(times).toFixed(1).padStart(8)} ms  (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}, n=${n})`,
  );
  return times.map((t, i) => (extra[i] ?? 0) / (t / 1000));
}

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  try {
    await createBenchUser(app);
    const headers = BENCH_AUTH;
    const request = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, status = 200) => {
      const res = await app.server.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };
    await request('POST', '/api/v1/user/repos', { name: 'big', auto_init: true, default_branch: 'main' }, 201);
    const gitDir = repoPath(config.repositoriesDir, 'bench', 'big');
    await git(gitDir, ['fast-import', '--quiet'], history((await git(gitDir, ['rev-parse', 'refs/heads/main'])).trim()));
    await git(gitDir, ['gc', '--quiet']);
    const api = '/api/v1/repos/bench/big';
    console.log(
      `repository: ${(await git(gitDir, ['ls-tree', '-r', '--name-only', 'main'])).split('\n').filter(Boolean).length} files on main`,
    );

    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await time('POST /contents/{path} (create a file: one commit)', runs, (i) =>
      request('POST', `${api}/contents/new/file-${i + 1}.txt`, { content: b64(`new file ${i}\n`) }, 201).then(() => undefined),
    );
    let sha = '';
    await time('PUT /contents/{path} (update a file: one commit)', runs, async (i) => {
      const res = await request('PUT', `${api}/contents/dir1/sub1/file-1.txt`, {
        content: b64(`rev ${i}\n`),
        sha: sha || JSON.parse((await request('GET', `${api}/contents/dir1/sub1/file-1.txt`)).body).sha,
      });
      sha = (JSON.parse(res.body) as { content: { sha: string } }).content.sha;
    });
    await time('POST /contents (10 files in one commit)', runs, (i) =>
      request(
        'POST',
        `${api}/contents`,
        { files: Array.from({ length: 10 }, (_, k) => ({ operation: 'create', path: `batch${i + 1}/f${k}.txt`, content: b64(`${k}\n`) })) },
        201,
      ).then(() => undefined),
    );

    const contentBytes = (await git(gitDir, ['ls-tree', '-r', '-l', 'main']))
      .split('\n')
      .filter(Boolean)
      .reduce((sum, line) => sum + (Number(line.split(/\s+/)[3]) || 0), 0);
    for (const format of ['zip', 'tar.gz']) {
      const rates = await time(`GET /archive/main.${format} (no cache: git archive + stream)`, Math.min(runs, 5), async () => {
        rmSync(path.join(dataDir, 'repo-archive'), { recursive: true, force: true });
        const res = await request('GET', `${api}/archive/main.${format}`);
        return res.rawPayload.length;
      });
      const size = (await request('GET', `${api}/archive/main.${format}`)).rawPayload.length;
      const ratio = contentBytes / size;
      console.log(
        `  ${format}: ${(size / 1048576).toFixed(1)} MiB archive of ${(contentBytes / 1048576).toFixed(1)} MiB of files; median ${(median(rates) / 1048576).toFixed(1)} MB/s of archive, ${((median(rates) * ratio) / 1048576).toFixed(1)} MB/s of files`,
      );
      await time(`GET /archive/main.${format} (cached file, streamed)`, Math.min(runs, 5), async () => {
        await request('GET', `${api}/archive/main.${format}`);
      });
    }
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
