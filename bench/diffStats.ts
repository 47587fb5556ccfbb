// Pull request git layer on a head branch that changes 1,000 files against its base: diffStats (the three-dot
// numstat + raw diff), the merge check (merge-tree), commit listing, the streamed .diff, and each merge style.
// It also times the alternative to our work-tree-less rebase (a temporary `clone --shared` + `git rebase`, as
// Gitea does) on the same commits and checks both give the same tree, and the fork fetch (fetchIntoRef of the
// head into a base repository that lacks its objects).
// Usage: npx tsx bench/diffStats.ts [runs=9] [headCommits=20] [files=1000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareCommits, diffStats } from '../src/git/compare.ts';
import { createMerge, type MergeStyle } from '../src/git/createMerge.ts';
import { fetchIntoRef } from '../src/git/fetchIntoRef.ts';
import type { GitIdentity } from '../src/git/identity.ts';
import { checkMergeable } from '../src/git/mergeTree.ts';
import { diffStream } from '../src/git/patch.ts';

const runs = Number(process.argv[2] ?? 9);
const headCommits = Number(process.argv[3] ?? 20);
const changed = Number(process.argv[4] ?? 1000);
const total = changed * 2; // files in the base tree
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-diff-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
const who: GitIdentity = { name: 'Bench Merger', email: 'merger@example.com', when: new Date('2024-01-01T00:00:00Z') };

function git(args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: opts.cwd ?? tmp,
      env: { ...env, ...opts.env },
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args[0]} failed: ${err}`))));
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

const content = (i: number, rev: number) =>
  Array.from({ length: 20 }, (_, l) => `file ${i} line ${l}${l === 3 || l === 15 ? ` rev ${rev}` : ''}\n`).join('') +
  (rev ? `added in rev ${rev}\n` : '');
const file = (i: number) => `dir${i % 50}/sub${i % 7}/file ${i}.txt`;

/** A fast-import stream: base with `total` files; `pr` changes files 0..changed-1 over `headCommits` commits; main then changes `changed/10` other files. */
function fastImportStream(): string {
  const out: string[] = [];
  const commit = (ref: string, mark: number, from: number | null, t: number, msg: string, files: number[], rev: number) => {
    out.push(
      `commit ${ref}\nmark :${mark}\nauthor Author ${mark} <a${mark}@example.com> ${t} +0000\ncommitter Author ${mark} <a${mark}@example.com> ${t} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`,
    );
    if (from !== null) out.push(`from :${from}\n`);
    for (const i of files) {
      const body = content(i, rev);
      out.push(`M 100644 inline ${file(i)}\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    }
    out.push('\n');
  };
  commit(
    'refs/heads/main',
    1,
    null,
    1_700_000_000,
    'base\n',
    Array.from({ length: total }, (_, i) => i),
    0,
  );
  const per = Math.ceil(changed / headCommits);
  for (let c = 0; c < headCommits; c++) {
    const files = Array.from({ length: per }, (_, k) => c * per + k).filter((i) => i < changed);
    commit('refs/heads/pr', 2 + c, c === 0 ? 1 : 1 + c, 1_700_000_100 + c * 60, `pr commit ${c + 1}\n`, files, 1);
  }
  commit(
    'refs/heads/main',
    2 + headCommits,
    1,
    1_700_090_000,
    'main moves on\n',
    Array.from({ length: Math.ceil(changed / 10) }, (_, k) => changed + k),
    2,
  );
  return out.join('');
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Times `fn` (after an untimed warm-up for the page cache); `setup` runs untimed before each call. */
async function time<T>(label: string, fn: () => Promise<T>, setup?: () => Promise<void>): Promise<T> {
  const ms: number[] = [];
  await setup?.();
  let last = await fn();
  for (let i = 0; i < runs; i++) {
    await setup?.();
    const t0 = performance.now();
    last = await fn();
    ms.push(performance.now() - t0);
  }
  console.log(
    `  ${label.padEnd(44)} ${median(ms).toFixed(1).padStart(7)} ms  (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)})`,
  );
  return last;
}

/** Gitea's way: a temporary clone sharing objects (alternates), `git rebase` in its work tree, objects fetched back. */
async function rebaseInTemporaryClone(bare: string, base: string, head: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmp, 'rebase-'));
  try {
    await git(['clone', '-q', '--shared', '--no-checkout', bare, dir]);
    await git(['checkout', '-q', '-B', 'pr', head], { cwd: dir });
    await git(['rebase', '-q', base], { cwd: dir, env: { GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email } });
    const tip = (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    await git(['--git-dir', bare, 'fetch', '-q', '--no-write-fetch-head', dir, tip]);
    return tip;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  try {
    const bare = path.join(tmp, 'repo.git');
    const t0 = performance.now();
    await git(['init', '-q', '--bare', bare]);
    await git(['fast-import', '--quiet'], { cwd: bare, input: fastImportStream() });
    await git(['repack', '-adq'], { cwd: bare });
    const base = (await git(['--git-dir', bare, 'rev-parse', 'main'])).trim();
    const head = (await git(['--git-dir', bare, 'rev-parse', 'pr'])).trim();
    console.log(
      `built a ${total}-file base and a ${headCommits}-commit head changing ${changed} files in ${(performance.now() - t0).toFixed(0)} ms (git ${(await git(['--version'])).trim().replace('git version ', '')})`,
    );

    console.log(`median of ${runs} runs (min–max):`);
    const stats = await time('diffStats (merge-base + diff --raw --numstat)', () => diffStats(bare, base, head));
    const check = await time('checkMergeable (merge-tree --write-tree)', () => checkMergeable(bare, base, head));
    const commits = await time('compareCommits (rev-list --count + log)', () => compareCommits(bare, base, head));
    let bytes = 0;
    await time('diffStream, read to the end', async () => {
      bytes = 0;
      for await (const chunk of await diffStream(bare, base, head)) bytes += (chunk as Buffer).length;
    });
    console.log(
      `  → ${stats.changedFiles} files, +${stats.additions} −${stats.deletions}; merge check ${check.status}; ${commits.total} commits; .diff ${(bytes / 2 ** 20).toFixed(2)} MiB`,
    );

    const tips = new Map<MergeStyle, string>();
    for (const style of ['merge', 'squash', 'rebase', 'rebase-merge'] as const) {
      const r = await time(`createMerge ${style}`, () =>
        createMerge(bare, { style, base, head, author: who, committer: who, message: `bench ${style}\n` }),
      );
      if (r.status !== 'merged') throw new Error(`${style}: ${r.status}`);
      tips.set(style, r.sha);
    }
    const other = await time(`rebase in a temporary clone (git rebase)`, () => rebaseInTemporaryClone(bare, base, head));
    const tree = (rev: string) => git(['--git-dir', bare, 'rev-parse', `${rev}^{tree}`]);
    const same = (await tree(other)) === (await tree(tips.get('rebase') ?? ''));
    console.log(`  → both rebases give the same final tree: ${same}`);
    const target = path.join(tmp, 'target.git');
    const freshTarget = async () => {
      rmSync(target, { recursive: true, force: true });
      await git(['clone', '-q', '--bare', '--no-local', '--single-branch', '--branch', 'main', bare, target]);
    };
    await time('fetchIntoRef from a fork (head objects absent)', () => fetchIntoRef(target, bare, head, 'refs/pull/1/head'), freshTarget);
    await time('fetchIntoRef, objects already there', () => fetchIntoRef(target, bare, head, 'refs/pull/1/head'));
    console.log(`  RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
    if (!same) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
