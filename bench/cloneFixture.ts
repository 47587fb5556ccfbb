// What the clone benches share: a git runner in a scratch directory, a large repository pushed through the server
// (generated with `git fast-import`), timed bare clones, and medians.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { App } from '../src/app.ts';
import { initRepository } from '../src/git/initRepository.ts';
import { hooksDir } from '../src/git/installHooks.ts';
import { repoPath } from '../src/git/repoPath.ts';
import { BENCH_PASSWORD, createBenchUser } from './benchUser.ts';

/** Runs git in a scratch directory `tmp` (its HOME too), with extra variables. */
export function gitIn(tmp: string) {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  return (args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}): Promise<void> =>
    new Promise((resolve, reject) => {
      const child = spawn('git', args, {
        cwd: opts.cwd ?? tmp,
        env: { ...env, ...opts.env },
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

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** `median ms (min–max)`. */
export const spread = (xs: number[]): string => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

/**
 * Creates the bench user and its repository `bench/big`, and pushes `commits` generated commits into it over smart
 * HTTP (the server records the push). Returns the bare directory the server serves.
 */
export async function pushBigRepository(app: App, httpPort: number, tmp: string, commits: number): Promise<string> {
  const git = gitIn(tmp);
  const owner = await createBenchUser(app);
  await app.deps.db.repository.create({
    data: { ownerId: owner.id, ownerName: owner.name, name: 'big', lowerName: 'big', units: { create: [{ type: 'CODE' }] } },
  });
  const served = repoPath(app.deps.config.repositoriesDir, 'bench', 'big');
  await initRepository({ gitdir: served, defaultBranch: 'main', objectFormat: 'sha1', hooksDir: hooksDir(app.deps.config.dataDir) });

  let t0 = performance.now();
  const source = path.join(tmp, 'source.git');
  await git(['init', '-q', '--bare', source]);
  await git(['fast-import', '--quiet'], { cwd: source, input: fastImportStream(commits) });
  await git(['repack', '-adq'], { cwd: source });
  console.log(`generated ${commits} commits with fast-import in ${(performance.now() - t0).toFixed(0)} ms`);
  t0 = performance.now();
  await git(['push', '-q', '--mirror', `http://bench:${BENCH_PASSWORD}@127.0.0.1:${httpPort}/bench/big.git`], { cwd: source });
  await app.deps.notifier.drain();
  console.log(`pushed through the server in ${(performance.now() - t0).toFixed(0)} ms`);
  return served;
}

/** Times one bare clone of `from` into a fresh directory (removed afterwards) and adds it to `into`. */
export async function timedClone(
  tmp: string,
  from: string,
  into: number[],
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<void> {
  const dest = path.join(tmp, `clone-${Math.random().toString(36).slice(2)}`);
  const start = performance.now();
  await gitIn(tmp)(['clone', '-q', '--bare', ...extra, from, dest], { env });
  into.push(performance.now() - start);
  rmSync(dest, { recursive: true, force: true });
}
