// Commit reads through the API (Gitea routers/api/v1/repo/commits.go, compare.go): history, one commit, a comparison, diffs.
import type { Readable } from 'node:stream';
import type { Models } from '../../db/client.ts';
import { ConflictError, InvalidArgumentError, NotFoundError, ValidationError } from '../../errors.ts';
import { compareCommits, MAX_COMPARE_LIMIT } from '../../git/compare.ts';
import { logCommits } from '../../git/logCommits.ts';
import { commitPatchStream } from '../../git/patch.ts';
import { readCommit } from '../../git/readCommit.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import type { ListOptions } from '../paging.ts';
import { commitViews, type CommitView } from './commitView.ts';
import { requireCodeRead } from './gitRead.ts';

/** Query of GET /commits. */
export interface ListCommitsInput {
  sha?: string;
  path?: string;
  not?: string;
  since?: string;
  until?: string;
  files: boolean;
  /** Whether signatures are verified (Gitea's `verification`). */
  verification?: boolean;
  page: ListOptions;
}

/** A page of commits and the repository they are in. */
export interface CommitsPage {
  repo: Models.Repository;
  commits: CommitView[];
  total: number;
}

function parseTime(value: string | undefined, name: string): Date | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) {
    throw new ValidationError(`parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse`, { param: name });
  }
  return d;
}

/** A branch, tag or commit the viewer named, as a commit id. @throws NotFoundError */
async function commitOf(gitDir: string, rev: string): Promise<string> {
  const resolved = await resolveRef(gitDir, rev);
  if (!resolved) throw new NotFoundError(`object does not exist [id: ${rev}, rel_path: ]`, { rev });
  return resolved.commit;
}

/**
 * GET /repos/{o}/{r}/commits (Gitea GetAllCommits): the history of `sha` (the default branch when empty),
 * limited to `path` and the time window, without what `not` reaches, newest first, one page. An empty
 * repository is 409; a path no commit touched is 404.
 * @throws NotFoundError, ConflictError, ValidationError
 */
export async function listCommits(cx: ServiceContext, ref: RepoRef, input: ListCommitsInput): Promise<CommitsPage> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  if (access.repo.isEmpty) throw new ConflictError('Git Repository is empty.');
  const since = parseTime(input.since, 'since');
  const until = parseTime(input.until, 'until');
  const head = await commitOf(access.gitDir, input.sha || access.repo.defaultBranch);
  const not = input.not ? [await commitOf(access.gitDir, input.not)] : [];
  const { total, commits } = await logCommits(access.gitDir, {
    head,
    not,
    ...(input.path ? { path: input.path } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    skip: (input.page.page - 1) * input.page.pageSize,
    limit: input.page.pageSize,
  });
  if (input.path && total === 0) throw new NotFoundError('not found', { path: input.path });
  return { repo: access.repo, total, commits: await commitViews(cx, access.gitDir, commits, input.files, input.verification ?? false) };
}

/**
 * GET /repos/{o}/{r}/git/commits/{sha} (Gitea GetSingleCommit): one commit by id, branch or tag.
 * @throws NotFoundError
 */
export async function getCommit(
  cx: ServiceContext,
  ref: RepoRef,
  sha: string,
  files: boolean,
  verification = false,
): Promise<{ repo: Models.Repository; commit: CommitView }> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  if (access.repo.isEmpty) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`);
  const c = await readCommit(access.gitDir, await commitOf(access.gitDir, sha));
  const [view] = await commitViews(cx, access.gitDir, [c], files, verification);
  if (!view) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`);
  return { repo: access.repo, commit: view };
}

/**
 * GET /repos/{o}/{r}/compare/{base}...{head} (Gitea CompareDiff): the commits of head not in base, newest first.
 * @throws NotFoundError, InvalidArgumentError
 */
export async function compare(
  cx: ServiceContext,
  ref: RepoRef,
  basehead: string,
  files: boolean,
  verification = false,
): Promise<CommitsPage> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  const m = /^(.+?)\.\.\.?(.+)$/.exec(basehead);
  if (!m?.[1] || !m[2]) throw new InvalidArgumentError('invalid base...head', { basehead });
  if (access.repo.isEmpty) throw new NotFoundError('Git Repository is empty.');
  const base = await commitOf(access.gitDir, m[1]);
  const head = await commitOf(access.gitDir, m[2]);
  const { total, commits } = await compareCommits(access.gitDir, base, head, { limit: MAX_COMPARE_LIMIT });
  return { repo: access.repo, total, commits: await commitViews(cx, access.gitDir, commits, files, verification) };
}

/**
 * GET /repos/{o}/{r}/git/commits/{sha}.{diff|patch} (Gitea DownloadCommitDiffOrPatch), streamed from git.
 * @throws NotFoundError
 */
export async function commitPatch(cx: ServiceContext, ref: RepoRef, sha: string, kind: 'diff' | 'patch'): Promise<Readable> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  if (access.repo.isEmpty) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`);
  return commitPatchStream(access.gitDir, await commitOf(access.gitDir, sha), kind);
}
