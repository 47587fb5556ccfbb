// Mirror remotes: the first fetch of a migration, pull-mirror syncs and push mirrors (`git clone --mirror` and
// `git remote update --prune` / `git push --mirror` as git does them, on a repository we initialized).
import { runGitResult, GitCommandError } from './run.ts';
import { forgetGitCache } from './cache.ts';
import { listRefs } from './listRefs.ts';

/** The remote every mirror fetches from (git clone --mirror names it so). */
const ORIGIN = 'origin';
const ZERO_SHA = '0000000000000000000000000000000000000000';

/** How git authenticates to the remote: an `Authorization` header value, passed in the environment, never in a URL or argv. */
export interface RemoteOptions {
  authorization?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A ref that a fetch created, moved or deleted (zero ids for the missing side). */
export interface RemoteRefChange {
  ref: string;
  oldSha: string;
  newSha: string;
}

/** git's environment for a remote command: the header through GIT_CONFIG_* (not visible in ps), no redirects. */
function remoteEnv(opts: RemoteOptions): Record<string, string> {
  const pairs: Array<[string, string]> = [['http.followRedirects', 'false']];
  if (opts.authorization) pairs.push(['http.extraHeader', `Authorization: ${opts.authorization}`]);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

async function run(gitDir: string, args: string[], opts: RemoteOptions = {}): Promise<string> {
  const r = await runGitResult(gitDir, args, {
    env: remoteEnv(opts),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (r.code !== 0) throw new GitCommandError(args, r.code, r.stderr);
  return r.stdout.toString('utf8');
}

/** Sets the mirror remote `origin` (fetch refspec `+refs/*:refs/*`, as `git clone --mirror`) to `url` (no credentials in it). */
export async function setMirrorRemote(gitDir: string, url: string): Promise<void> {
  const existing = await runGitResult(gitDir, ['remote', 'get-url', ORIGIN]);
  if (existing.code === 0) await run(gitDir, ['remote', 'set-url', ORIGIN, url]);
  else await run(gitDir, ['remote', 'add', '--mirror=fetch', ORIGIN, url]);
}

/** Whether the repository has the mirror remote (a mirror's wiki has one when its source had a wiki). */
export async function hasMirrorRemote(gitDir: string): Promise<boolean> {
  return (await runGitResult(gitDir, ['remote', 'get-url', ORIGIN]).catch(() => null))?.code === 0;
}

/** Removes the remote (a migration that does not mirror keeps no link to its source). */
export async function removeMirrorRemote(gitDir: string): Promise<void> {
  await runGitResult(gitDir, ['remote', 'remove', ORIGIN]);
}

/** The branches and tags of a repository: ref → object id (what a mirror sync compares before and after). */
export async function readBranchAndTagRefs(gitDir: string): Promise<Record<string, string>> {
  const refs = await listRefs(gitDir, 'refs/');
  return Object.fromEntries(
    refs.filter((r) => r.ref.startsWith('refs/heads/') || r.ref.startsWith('refs/tags/')).map((r) => [r.ref, r.sha]),
  );
}

/** The refs created, moved or deleted between two readings (zero ids for the missing side), sorted by name. */
export function diffRefs(before: Record<string, string>, after: Record<string, string>): RemoteRefChange[] {
  const changes: RemoteRefChange[] = [];
  for (const [ref, sha] of Object.entries(after)) {
    const old = before[ref];
    if (old !== sha) changes.push({ ref, oldSha: old ?? ZERO_SHA, newSha: sha });
  }
  for (const [ref, sha] of Object.entries(before)) if (!(ref in after)) changes.push({ ref, oldSha: sha, newSha: ZERO_SHA });
  return changes.sort((a, b) => a.ref.localeCompare(b.ref));
}

/**
 * `git fetch --tags [--prune] origin` into the mirror (every ref of the source, `refs/pull/*` included).
 * @throws GitCommandError with git's stderr
 */
export async function fetchMirror(gitDir: string, prune: boolean, opts: RemoteOptions = {}): Promise<void> {
  await run(gitDir, ['fetch', '--quiet', '--tags', ...(prune ? ['--prune'] : []), '--no-auto-gc', ORIGIN], opts);
  forgetGitCache(gitDir);
}

/** The branch the remote's HEAD points at, or null (an empty remote, or one that does not say). */
export async function remoteHeadBranch(gitDir: string, opts: RemoteOptions = {}): Promise<string | null> {
  const out = await run(gitDir, ['ls-remote', '--symref', ORIGIN, 'HEAD'], opts);
  const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out);
  return m?.[1] ?? null;
}

/**
 * `git push --mirror <url>`: the remote gets every branch and tag of the repository, and loses the ones it
 * does not have.
 * @throws GitCommandError with git's stderr
 */
export async function pushMirror(gitDir: string, url: string, opts: RemoteOptions = {}): Promise<void> {
  await run(gitDir, ['push', '--quiet', '--mirror', url], opts);
}

/** Whether `url` answers as a git remote (`git ls-remote`, run from `gitDir`). */
export async function remoteAnswers(gitDir: string, url: string, opts: RemoteOptions = {}): Promise<boolean> {
  try {
    await run(gitDir, ['ls-remote', '--quiet', url, 'HEAD'], opts);
    return true;
  } catch {
    return false;
  }
}
