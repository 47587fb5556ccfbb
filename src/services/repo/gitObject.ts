import DataLoader from 'dataloader';
import type { Models } from '../../db/client.ts';
import type { CommitInfo } from '../../git/commitInfo.ts';
import { describeObject } from '../../git/describeObject.ts';
import { logCommits } from '../../git/logCommits.ts';
import { readCommit } from '../../git/readCommit.ts';
import { readObject } from '../../git/readObject.ts';
import { readTreePath, type TreeEntry } from '../../git/readTreePath.ts';
import { repoPath } from '../../git/repoPath.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import { MAX_BLOB_SIZE } from './gitRead.ts';
import { repoReadWhere } from './visibility.ts';

/** A git object as the graph shows it (GitHub's GitObject: Commit, Tree, Blob). */
export type GitObjectView =
  | { type: 'commit'; oid: string; commit: CommitInfo & { tree: string; parents: string[] }; repo: GitRepoKey }
  | { type: 'tree'; oid: string; entries: TreeEntry[]; repo: GitRepoKey }
  | { type: 'blob'; oid: string; byteSize: number; content: Buffer | null; repo: GitRepoKey }
  | { type: 'tag'; oid: string; repo: GitRepoKey };

/** The repository a git object is read from. */
export type GitRepoKey = Pick<Models.Repository, 'id' | 'ownerName' | 'name' | 'isEmpty'>;

interface Key {
  repo: GitRepoKey;
  expression: string;
}

async function load(cx: ServiceContext, { repo, expression }: Key): Promise<GitObjectView | null> {
  if (repo.isEmpty || !canRead(await cx.loaders.repoPermission.load(repo.id), 'CODE')) return null;
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const header = await describeObject(gitDir, expression);
  if (!header) return null;
  switch (header.type) {
    case 'commit':
      return { type: 'commit', oid: header.sha, commit: await readCommit(gitDir, header.sha), repo };
    case 'tree': {
      const found = await readTreePath(gitDir, header.sha, '');
      return { type: 'tree', oid: header.sha, entries: found?.children ?? [], repo };
    }
    case 'blob':
      return {
        type: 'blob',
        oid: header.sha,
        byteSize: header.size,
        content: header.size <= MAX_BLOB_SIZE ? (await readObject(gitDir, header.sha)).content : null,
        repo,
      };
    case 'tag':
      return { type: 'tag', oid: header.sha, repo };
  }
}

/**
 * A per-request loader of git objects by (repository, revision expression): each distinct pair is read once
 * per request however many fields ask, and only when the viewer can read the repository's code.
 */
export function gitObjectLoader(cx: ServiceContext): DataLoader<Key, GitObjectView | null, string> {
  return new DataLoader((keys: readonly Key[]) => Promise.all(keys.map((k) => load(cx, k).catch(() => null))), {
    cacheKeyFn: (k) => `${k.repo.id}\0${k.expression}`,
  });
}

/** A git object named by its repository and full object id (the key of its global id). */
export interface GitObjectKey {
  repoId: number;
  oid: string;
}

const FULL_OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Git objects by (repository id, full object id), for node(id:): one query for the repositories (through the
 * repository read policy with the code unit), then the request's object loader; null for an unreadable repository,
 * an object it does not have, or a key that is not a full lower-case object id (never a revision expression).
 */
export async function gitObjectsByKey(
  cx: ServiceContext,
  keys: readonly GitObjectKey[],
  loader: DataLoader<Key, GitObjectView | null, string>,
): Promise<(GitObjectView | null)[]> {
  const ids = [...new Set(keys.filter((k) => FULL_OID.test(k.oid)).map((k) => k.repoId))];
  const repos = ids.length
    ? await cx.db.repository.findMany({
        where: { id: { in: ids }, AND: [repoReadWhere(cx, ['CODE'])] },
        select: { id: true, ownerName: true, name: true, isEmpty: true },
      })
    : [];
  const byId = new Map(repos.map((r) => [r.id, r]));
  return Promise.all(
    keys.map((k) => {
      const repo = FULL_OID.test(k.oid) ? byId.get(k.repoId) : undefined;
      return repo ? loader.load({ repo, expression: k.oid }) : null;
    }),
  );
}

/** Which commits of a history: touching `path`, in `[since, until]`, by an author with one of `authorEmails` or the user `authorId`'s addresses. */
export interface HistoryFilter {
  path?: string;
  since?: Date;
  until?: Date;
  authorEmails?: readonly string[];
  authorId?: number;
}

/**
 * A commit's history (GitHub Commit.history): the commits reachable from `oid`, newest first, kept by `filter`,
 * one window, with the total; empty when the viewer cannot read the code. An author given by user id matches that
 * user's activated e-mail addresses (none: no commit).
 * @throws InvalidArgumentError
 */
export async function commitHistory(
  cx: ServiceContext,
  repo: GitRepoKey,
  oid: string,
  opts: HistoryFilter & { skip: number; limit: number },
): Promise<{ total: number; commits: Array<Extract<GitObjectView, { type: 'commit' }>> }> {
  if (repo.isEmpty || !canRead(await cx.loaders.repoPermission.load(repo.id), 'CODE')) return { total: 0, commits: [] };
  const authors = (opts.authorEmails ?? []).map((e) => `<${e}>`);
  if (opts.authorId !== undefined) {
    const rows = await cx.db.emailAddress.findMany({ where: { userId: opts.authorId, isActivated: true }, select: { email: true } });
    if (!rows.length && !authors.length) return { total: 0, commits: [] };
    authors.push(...rows.map((r) => `<${r.email}>`));
  }
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const { total, commits } = await logCommits(gitDir, {
    head: oid,
    ...(opts.path ? { path: opts.path } : {}),
    ...(opts.since ? { since: opts.since } : {}),
    ...(opts.until ? { until: opts.until } : {}),
    ...(authors.length ? { authors } : {}),
    skip: opts.skip,
    limit: opts.limit,
  });
  return { total, commits: commits.map((commit) => ({ type: 'commit' as const, oid: commit.sha, commit, repo })) };
}
