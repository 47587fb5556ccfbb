import { commitPairFact } from './commitPairFacts.ts';
import { InvalidArgumentError, NotFoundError } from '../errors.ts';
import { LOG_FORMAT, parseCommitRecords, type CommitInfo } from './commitInfo.ts';
import { assertRevision } from './revision.ts';
import { GitCommandError, runGit, runGitOrNotFound } from './run.ts';

/**
 * The best common ancestor of two commits (`git merge-base`), or null when their histories are unrelated.
 * With several equally good ones (criss-cross merges) git's first choice is returned.
 * @throws InvalidArgumentError for a malformed revision; NotFoundError when one does not name a commit
 */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  assertRevision(a);
  assertRevision(b);
  return commitPairFact('merge-base', gitDir, a, b, async () => {
    try {
      return (await runGit(gitDir, ['merge-base', '--end-of-options', a, b])).toString('utf8').trim() || null;
    } catch (err) {
      if (err instanceof GitCommandError && err.exitCode === 1) return null;
      if (err instanceof GitCommandError && err.exitCode === 128)
        throw new NotFoundError(`commit does not exist [${a}, ${b}]`, { stderr: err.stderr.trim() });
      throw err;
    }
  });
}

/**
 * Whether commit `a` is an ancestor of commit `b` (a commit is its own ancestor). Used to detect a pull request
 * merged by a push outside the API (autodetect_manual_merge: the head became an ancestor of the base).
 * @throws InvalidArgumentError; NotFoundError when one does not name a commit
 */
export async function isAncestor(gitDir: string, a: string, b: string): Promise<boolean> {
  assertRevision(a);
  assertRevision(b);
  try {
    await runGit(gitDir, ['merge-base', '--is-ancestor', '--end-of-options', a, b]);
    return true;
  } catch (err) {
    if (err instanceof GitCommandError && err.exitCode === 1) return false;
    if (err instanceof GitCommandError && err.exitCode === 128)
      throw new NotFoundError(`commit does not exist [${a}, ${b}]`, { stderr: err.stderr.trim() });
    throw err;
  }
}

/** A commit of a comparison: what the API shows of it, its tree and its parents. */
export interface CompareCommit extends CommitInfo {
  tree: string;
  parents: string[];
}

/** How many commits one `compareCommits` call returns at most (GitHub's compare stops at 250 too). */
export const DEFAULT_COMPARE_LIMIT = 250;
/** The hard cap on `limit`. */
export const MAX_COMPARE_LIMIT = 10_000;

/** A window of the commits in head but not in base, and how many there are in all. */
export interface CommitComparison {
  /** Every commit in `base..head`, uncapped (`git rev-list --count`). */
  total: number;
  /** The window `[skip, skip + limit)` of them, newest first as `git log` (and Gitea's pull request commit list) orders them. */
  commits: CompareCommit[];
}

/**
 * The commits in `head` not in `base` (`git log base..head`), newest first like Gitea's GetCompareInfo; merge
 * commits included. Returns at most `limit` of them (default 250, clamped to 1–10,000) after skipping `skip`,
 * with the uncapped `total`, so a caller pages through long histories without reading them all.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function compareCommits(
  gitDir: string,
  base: string,
  head: string,
  opts: { skip?: number; limit?: number } = {},
): Promise<CommitComparison> {
  assertRevision(base);
  assertRevision(head);
  const skip = Math.max(0, Math.floor(opts.skip ?? 0));
  const limit = Math.min(MAX_COMPARE_LIMIT, Math.max(1, Math.floor(opts.limit ?? DEFAULT_COMPARE_LIMIT)));
  const range = ['--end-of-options', `${base}..${head}`, '--'];
  const what = `commit does not exist [${base}, ${head}]`;
  // One more commit than the page: when git has no more, the count is known without a second command.
  const log = await runGitOrNotFound(
    gitDir,
    ['log', `--skip=${skip}`, `--max-count=${limit + 1}`, `--format=%T %P%x00${LOG_FORMAT}`, ...range],
    what,
  );
  // parseCommitRecords reads the leading field (its `ref`) as "tree parent…" here.
  const listed = parseCommitRecords(log.toString('utf8'), true).map(({ ref, commit }) => {
    const [tree = '', ...parents] = ref.trim().split(' ');
    return { ...commit, tree, parents };
  });
  const commits = listed.slice(0, limit);
  if (listed.length <= limit && (skip === 0 || listed.length > 0)) return { total: skip + listed.length, commits };
  const count = await runGitOrNotFound(gitDir, ['rev-list', '--count', ...range], what);
  return { total: Number.parseInt(count.toString('utf8').trim(), 10) || 0, commits };
}

/**
 * How many commits `head` has that `base` has not (ahead) and the reverse (behind), in one
 * `git rev-list --left-right --count` (Gitea GetDivergingCommits).
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function countDivergence(gitDir: string, base: string, head: string): Promise<{ ahead: number; behind: number }> {
  assertRevision(base);
  assertRevision(head);
  const out = await runGitOrNotFound(
    gitDir,
    ['rev-list', '--left-right', '--count', '--end-of-options', `${base}...${head}`, '--'],
    `commit does not exist [${base}, ${head}]`,
  );
  const [behind = '0', ahead = '0'] = out.toString('utf8').trim().split(/\s+/);
  return { ahead: Number.parseInt(ahead, 10) || 0, behind: Number.parseInt(behind, 10) || 0 };
}

/**
 * The ids of the commits reachable from `head` and from none of `exclude`, newest first, at most `limit`
 * (`git rev-list head ^exclude…`).
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function commitsExcluding(gitDir: string, head: string, exclude: readonly string[], limit: number): Promise<string[]> {
  for (const rev of [head, ...exclude]) assertRevision(rev);
  const out = await runGitOrNotFound(
    gitDir,
    ['rev-list', `--max-count=${limit}`, '--end-of-options', head, ...exclude.map((rev) => `^${rev}`), '--'],
    `commit does not exist [${[head, ...exclude].join(', ')}]`,
  );
  return out.toString('utf8').split('\n').filter(Boolean);
}

/** How a file changed (git's raw status letters A, M, D, R, C; a type change counts as modified). */
export type DiffFileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied';

/** One changed file of a diff. */
export interface DiffFile {
  /** The path after the change (for a deleted file, the path it had). */
  filename: string;
  /** The path before a rename or copy; null otherwise. */
  previousFilename: string | null;
  status: DiffFileStatus;
  /** Lines added and removed; 0 for binary files. */
  additions: number;
  deletions: number;
  changes: number;
  binary: boolean;
  /** Modes and blob ids before and after (`000000` and all zeros on the side where the file does not exist). */
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
}

/** The totals and per-file figures of a pull request's diff. */
export interface DiffStats {
  /** The merge base the diff starts from, or null for unrelated histories (then the diff starts at base, as in Gitea). */
  mergeBase: string | null;
  additions: number;
  deletions: number;
  changedFiles: number;
  /** In git's order (by path). */
  files: DiffFile[];
}

const STATUS: Record<string, DiffFileStatus> = { A: 'added', M: 'modified', T: 'modified', D: 'deleted', R: 'renamed', C: 'copied' };

/**
 * Parses `git diff --raw --numstat -z` output: every raw record (`:modes shas status\0path\0[path\0]`), then
 * every numstat record (`add\tdel\tpath\0`, or `add\tdel\t\0from\0to\0` for renames and copies) in the same
 * order. NUL separation keeps paths with spaces, tabs, newlines and any bytes intact.
 */
export function parseRawNumstat(out: string): DiffFile[] {
  const tokens = out.split('\0');
  let i = 0;
  const files: DiffFile[] = [];
  while (i < tokens.length && (tokens[i] ?? '').startsWith(':')) {
    const [oldMode = '', newMode = '', oldSha = '', newSha = '', code = ''] = (tokens[i++] ?? '').slice(1).split(' ');
    const letter = code.charAt(0);
    const status = STATUS[letter];
    if (!status) throw new Error(`unexpected diff status ${code}`);
    const from = tokens[i++] ?? '';
    const to = letter === 'R' || letter === 'C' ? (tokens[i++] ?? '') : from;
    files.push({
      filename: to,
      previousFilename: to === from && status !== 'copied' ? null : from,
      status,
      additions: 0,
      deletions: 0,
      changes: 0,
      binary: false,
      oldMode,
      newMode,
      oldSha,
      newSha,
    });
  }
  for (const file of files) {
    const token = tokens[i++] ?? '';
    const m = /^(-|\d+)\t(-|\d+)\t/.exec(token);
    if (!m) throw new Error(`unexpected numstat record ${JSON.stringify(token)}`);
    if (token.length === m[0].length) i += 2; // rename or copy: the two paths follow as their own fields
    file.binary = m[1] === '-';
    file.additions = file.binary ? 0 : Number(m[1]);
    file.deletions = file.binary ? 0 : Number(m[2]);
    file.changes = file.additions + file.deletions;
  }
  return files;
}

/**
 * The changes a pull request brings: `head` against its merge base with `base` (Gitea's three-dot diff), with
 * rename detection (`-M`, as Gitea). Totals and per-file additions, deletions and status, from one `git diff`.
 * Depends only on the two commits, so callers may cache it by (base sha, head sha).
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function diffStats(gitDir: string, base: string, head: string): Promise<DiffStats> {
  const mb = await mergeBase(gitDir, base, head);
  const out = await runGitOrNotFound(
    gitDir,
    [
      'diff',
      '--raw',
      '--numstat',
      '-z',
      '-M',
      '--no-abbrev',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--end-of-options',
      mb ?? base,
      head,
      '--',
    ],
    `commit does not exist [${base}, ${head}]`,
  );
  const files = parseRawNumstat(out.toString('utf8'));
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    additions += f.additions;
    deletions += f.deletions;
  }
  return { mergeBase: mb, additions, deletions, changedFiles: files.length, files };
}

/**
 * The files each of `shas` changed against its first parent (a root commit against the empty tree), with
 * rename detection, in one `git diff-tree --stdin`: Gitea's per-commit `files` and `stats` of commit lists.
 * Merge commits show no files (as `git log` without `-m`). Commits are given by full id.
 * @throws InvalidArgumentError; NotFoundError when a commit is missing
 */
export async function commitFileStats(gitDir: string, shas: readonly string[]): Promise<Map<string, DiffFile[]>> {
  const out = new Map<string, DiffFile[]>();
  if (!shas.length) return out;
  for (const sha of shas) {
    if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) throw new InvalidArgumentError('commit must be a full object id', { sha });
    out.set(sha, []);
  }
  const raw = await runGitOrNotFound(
    gitDir,
    [
      'diff-tree',
      '--stdin',
      '-r',
      '-z',
      '--raw',
      '--numstat',
      '-M',
      '--root',
      '--no-abbrev',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
    ],
    'commit does not exist',
    {
      input: shas.map((s) => `${s}\n`).join(''),
    },
  );
  // Per commit: its id, then the raw records (":…"), then as many numstat records (renames take two more tokens).
  const tokens = raw.toString('utf8').split('\0');
  let i = 0;
  while (i < tokens.length) {
    const sha = tokens[i++] ?? '';
    if (!out.has(sha)) continue;
    const start = i;
    let records = 0;
    while ((tokens[i] ?? '').startsWith(':')) {
      const letter = (tokens[i] ?? '').split(' ')[4]?.charAt(0) ?? '';
      i += letter === 'R' || letter === 'C' ? 3 : 2;
      records++;
    }
    for (let n = 0; n < records; n++) i += /^(-|\d+)\t(-|\d+)\t$/.test(tokens[i] ?? '') ? 3 : 1;
    out.set(sha, records ? parseRawNumstat(tokens.slice(start, i).join('\0')) : []);
  }
  return out;
}
