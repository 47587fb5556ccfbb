import { runGit } from './run.ts';

/** One commit as Gitea's feed stores it (repository.PushCommit). */
export interface PushCommit {
  Sha1: string;
  Message: string;
  AuthorEmail: string;
  AuthorName: string;
  CommitterEmail: string;
  CommitterName: string;
  Timestamp: string;
}

interface PushCommits {
  commits: PushCommit[];
  total: number;
}

const ZERO = /^0+$/;

/**
 * One ref update is read by the activity feed, the push webhook and commit references, each in its own job and
 * usually within moments of each other: the commits are read once (up to READ of them) and kept briefly.
 */
const READ = 100;
const KEEP_MS = 30_000;
const KEEP_MAX = 256;
const kept = new Map<string, { until: number; read: Promise<PushCommits> }>();

/**
 * The newest commits a ref update brought (at most `max`), newest first, and how many there were:
 * `old..new`, or for a new ref the commits not reachable from any other branch. `env` points git at objects not yet
 * in the repository (a push's quarantine, quarantineEnv), for a read made before the push lands and kept for after.
 */
export async function listPushCommits(
  gitDir: string,
  ref: string,
  oldSha: string,
  newSha: string,
  max = 5,
  env: Record<string, string> = {},
): Promise<PushCommits> {
  if (max > READ) return readPushCommits(gitDir, ref, oldSha, newSha, max, env);
  const key = `${gitDir}\0${ref}\0${oldSha}\0${newSha}`;
  const now = Date.now();
  let entry = kept.get(key);
  if (!entry || entry.until < now) {
    kept.delete(key);
    makeRoom(now);
    const read = readPushCommits(gitDir, ref, oldSha, newSha, READ, env);
    entry = { until: now + KEEP_MS, read };
    kept.set(key, entry);
    read.catch(() => {
      if (kept.get(key)?.read === read) kept.delete(key);
    });
  }
  const { commits, total } = await entry.read;
  return { commits: commits.slice(0, max), total };
}

/**
 * Drops expired lists and, when KEEP_MAX are kept, the oldest: the map holds them in the order they were read, so the
 * lists a push has just read ahead stay for its bookkeeping however many other pushes came before.
 */
function makeRoom(now: number): void {
  for (const [key, entry] of kept) {
    if (kept.size < KEEP_MAX && entry.until >= now) return;
    kept.delete(key);
  }
}

/** Branch updates of one push whose commit lists are read ahead (readPushCommitLists). */
const READ_AHEAD = 8;

/**
 * Reads and keeps the commit lists of a push's branch updates (deletions and tags have none) for the bookkeeping that
 * follows it: started before the refs move, while the push waits for its lock and records its job, so the bookkeeping
 * finds them read. One `git log` at a time, for the first READ_AHEAD branches: a push of many (a mirror, `--all`) has
 * the others read by its bookkeeping. Never rejects: a failed read is read again by the bookkeeping.
 */
export async function readPushCommitLists(
  gitDir: string,
  updates: readonly { ref: string; oldSha: string; newSha: string }[],
  env: Record<string, string> = {},
): Promise<void> {
  const branches = updates.filter((u) => u.ref.startsWith('refs/heads/') && !ZERO.test(u.newSha)).slice(0, READ_AHEAD);
  for (const u of branches) await listPushCommits(gitDir, u.ref, u.oldSha, u.newSha, 1, env).catch(() => undefined);
}

/**
 * The newest commit of a ref update's kept list (listPushCommits read it within KEEP_MS, a push's pre-receive does),
 * when it is the update's new head; undefined when nothing is kept or the head brought no commit of its own.
 */
export async function keptPushHead(gitDir: string, ref: string, oldSha: string, newSha: string): Promise<PushCommit | undefined> {
  const entry = kept.get(`${gitDir}\0${ref}\0${oldSha}\0${newSha}`);
  if (!entry || entry.until < Date.now()) return undefined;
  const head = (await entry.read.catch(() => undefined))?.commits[0];
  return head?.Sha1 === newSha ? head : undefined;
}

/** One `git log` for up to max + 1 commits; the count is asked for only when there are more than max. */
async function readPushCommits(
  gitDir: string,
  ref: string,
  oldSha: string,
  newSha: string,
  max: number,
  env: Record<string, string>,
): Promise<PushCommits> {
  // `--exclude` before `--branches` takes the branch name without refs/heads/ (git rev-list --exclude).
  const range = ZERO.test(oldSha)
    ? [newSha, '--not', `--exclude=${ref.replace(/^refs\/heads\//, '')}`, '--branches']
    : [`${oldSha}..${newSha}`];
  const logOut = await run(
    gitDir,
    ['log', `--max-count=${max + 1}`, '--format=%H%x00%an%x00%ae%x00%cn%x00%ce%x00%cI%x00%B%x1e', ...range],
    env,
  );
  const commits = logOut
    .split('\x1e')
    .map((s) => s.replace(/^\n/, ''))
    .filter(Boolean)
    .map((rec) => {
      const [sha = '', an = '', ae = '', cn = '', ce = '', ts = '', msg = ''] = rec.split('\0');
      return {
        Sha1: sha,
        Message: msg.replace(/\n+$/, '\n'),
        AuthorEmail: ae,
        AuthorName: an,
        CommitterEmail: ce,
        CommitterName: cn,
        Timestamp: ts,
      };
    });
  if (commits.length <= max) return { commits, total: commits.length };
  const countOut = await run(gitDir, ['rev-list', '--count', ...range], env);
  return { commits: commits.slice(0, max), total: Number.parseInt(countOut.trim(), 10) || max };
}

async function run(gitDir: string, args: string[], env: Record<string, string>): Promise<string> {
  return (await runGit(gitDir, args, { env })).toString('utf8');
}
