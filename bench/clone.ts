// Clone speed through Forgegraph's smart HTTP versus `git clone --no-local` from the bare directory.
// Builds a ~5,000-commit repository with `git fast-import`, pushes it through the server (recording the push),
// then clones it both ways, alternating, and prints medians and the ratio.
// Usage: npx tsx bench/clone.ts [runs=10] [commits=5000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { initRepository } from '../src/git/initRepository.ts';
import { hooksDir } from '../src/git/installHooks.ts';
import { repoPath } from '../src/git/repoPath.ts';
import { createBenchUser } from './benchUser.ts';

const runs = Number(process.argv[2] ?? 10);
const commits = Number(process.argv[3] ?? 5000);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-clone-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };

function git(args: string[], opts: { cwd?: string; input?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: opts.cwd ?? tmp,
      env,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} failed: ${err}`))));
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** A fast-import stream: `n` commits on main touching ~200 files in 20 directories, a dev branch and a few tags. */
function fastImportStream(n: number): string {
  const out: string[] = [];
  let mark = 0;
  for (let i = 1; i <= n; i++) {
    const file = `dir${i % 20}/file${i % 200}.txt`;
    const body = `${file} revision ${i}\n${'line of text that changes a little '.repeat(3)}${i}\n`.repeat(1 + (i % 7));
    out.push(`blob\nmark :${++mark}\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    const msg = `commit ${i}\n`;
    out.push(
      `commit refs/heads/main\nmark :${++mark}\ncommitter Bench <bench@example.com> ${1_700_000_000 + i * 60} +0000\ndata ${msg.length}\n${msg}M 100644 :${mark - 1} ${file}\n\n`,
    );
    if (i % 1000 === 0) out.push(`reset refs/tags/v${i / 1000}\nfrom :${mark}\n\n`);
    if (i === n - 100) out.push(`reset refs/heads/dev\nfrom :${mark}\n\n`);
  }
  return out.join('');
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.server.address() as AddressInfo).port;
  try {
    const owner = await createBenchUser(app);
    await app.deps.db.repository.create({
      data: { ownerId: owner.id, ownerName: owner.name, name: 'big', lowerName: 'big', units: { create: [{ type: 'CODE' }] } },
    });
    const served = repoPath(config.repositoriesDir, 'bench', 'big');
    await initRepository({ gitdir: served, defaultBranch: 'main', objectFormat: 'sha1', hooksDir: hooksDir(dataDir) });

    let t0 = performance.now();
    const source = path.join(tmp, 'source.git');
    await git(['init', '-q', '--bare', source]);
    await git(['fast-import', '--quiet'], { cwd: source, input: fastImportStream(commits) });
    await git(['repack', '-adq'], { cwd: source });
    console.log(`generated ${commits} commits with fast-import in ${(performance.now() - t0).toFixed(0)} ms`);
    t0 = performance.now();
    await git(['push', '-q', '--mirror', `http://bench:bench-password-1@127.0.0.1:${port}/bench/big.git`], { cwd: source });
    await app.deps.notifier.drain();
    console.log(`pushed through the server in ${(performance.now() - t0).toFixed(0)} ms`);

    const http: number[] = [];
    const local: number[] = [];
    const clone = async (from: string, into: number[], extra: string[]) => {
      const dest = path.join(tmp, `clone-${Math.random().toString(36).slice(2)}`);
      const start = performance.now();
      await git(['clone', '-q', '--bare', ...extra, from, dest]);
      into.push(performance.now() - start);
      rmSync(dest, { recursive: true, force: true });
    };
    await clone(`http://127.0.0.1:${port}/bench/big.git`, [], []); // warm-up (page cache)
    for (let i = 0; i < runs; i++) {
      await clone(`http://127.0.0.1:${port}/bench/big.git`, http, []);
      await clone(served, local, ['--no-local']);
    }
    const h = median(http);
    const l = median(local);
    console.log(`bare clone, ${runs} runs each, alternating (median, min–max):`);
    console.log(`  forgegraph smart HTTP   ${h.toFixed(0)} ms (${Math.min(...http).toFixed(0)}–${Math.max(...http).toFixed(0)})`);
    console.log(`  git clone --no-local    ${l.toFixed(0)} ms (${Math.min(...local).toFixed(0)}–${Math.max(...local).toFixed(0)})`);
    console.log(`  ratio http / --no-local ${(h / l).toFixed(2)}x`);
    // Each request spawns git; fork() cost grows with the server's RSS (3 requests per protocol-v2 clone).
    console.log(`  server RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
