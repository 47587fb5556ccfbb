import DataLoader from 'dataloader';
import type { Models } from '../../db/client.ts';
import { compareCommits, diffStats, MAX_COMPARE_LIMIT, type CommitComparison, type DiffStats } from '../../git/compare.ts';
import { readRefs } from '../../git/readRefs.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import { gitDirOf, pullHeadRef } from './pull.ts';
import { pullReadWhere } from './visibility.ts';

/** A pull request row with what its git range needs. */
export type PullGitRow = Pick<Models.PullRequest, 'baseRepoId' | 'index' | 'baseBranch' | 'hasMerged' | 'mergeBase'> & {
  baseRepo: Pick<Models.Repository, 'ownerName' | 'name'>;
};

/** The commits a pull request's diff is taken between (see compare.ts pullRange), or null when a ref is gone. */
export interface GitRange {
  gitDir: string;
  base: string;
  head: string;
}

interface RefKey {
  gitDir: string;
  ref: string;
}

/** The per-request git loaders of pull request fields (GraphQL): refs, diff stats and commit lists. */
export interface PullGitLoaders {
  /** A ref's value in a repository (null when absent): one `for-each-ref` per repository per tick. */
  refs: DataLoader<RefKey, string | null, string>;
  /** The three-dot diff stats of a range, once per distinct (repository, base, head). */
  stats: DataLoader<GitRange, DiffStats, string>;
  /** Every commit of a range (newest first, up to git's compare cap), once per distinct range. */
  commits: DataLoader<GitRange, CommitComparison, string>;
}

const rangeKey = (r: GitRange): string => `${r.gitDir}\0${r.base}\0${r.head}`;

function createLoaders(): PullGitLoaders {
  return {
    refs: new DataLoader(
      async (keys: readonly RefKey[]) => {
        const byDir = new Map<string, string[]>();
        for (const k of keys) byDir.set(k.gitDir, [...(byDir.get(k.gitDir) ?? []), k.ref]);
        const values = new Map<string, Map<string, string>>();
        await Promise.all(
          [...byDir].map(async ([dir, refs]) => values.set(dir, await readRefs(dir, refs).catch(() => new Map<string, string>()))),
        );
        return keys.map((k) => values.get(k.gitDir)?.get(k.ref) ?? null);
      },
      { cacheKeyFn: (k) => `${k.gitDir}\0${k.ref}` },
    ),
    stats: new DataLoader(
      (keys: readonly GitRange[]) => Promise.all(keys.map((k) => diffStats(k.gitDir, k.base, k.head).catch((err: Error) => err))),
      { cacheKeyFn: rangeKey },
    ),
    commits: new DataLoader(
      (keys: readonly GitRange[]) =>
        Promise.all(keys.map((k) => compareCommits(k.gitDir, k.base, k.head, { limit: MAX_COMPARE_LIMIT }).catch((err: Error) => err))),
      {
        cacheKeyFn: rangeKey,
      },
    ),
  };
}

const perRequest = new WeakMap<ServiceContext['loaders'], PullGitLoaders>();

/** The request's pull request git loaders (created on first use). */
export function pullGitLoaders(cx: ServiceContext): PullGitLoaders {
  let loaders = perRequest.get(cx.loaders);
  if (!loaders) perRequest.set(cx.loaders, (loaders = createLoaders()));
  return loaders;
}

/**
 * The git range of a pull request for a viewer who may read the base repository's code (null otherwise, or
 * when its refs are gone): base branch tip (the merge base once merged) to `refs/pull/{index}/head`.
 */
export async function pullGitRange(cx: ServiceContext, pull: PullGitRow): Promise<GitRange | null> {
  if (!canRead(await cx.loaders.repoPermission.load(pull.baseRepoId), 'CODE')) return null;
  const gitDir = gitDirOf(cx, pull.baseRepo);
  const { refs } = pullGitLoaders(cx);
  const [head, baseTip] = await Promise.all([
    refs.load({ gitDir, ref: pullHeadRef(pull.index) }),
    pull.hasMerged ? null : refs.load({ gitDir, ref: `refs/heads/${pull.baseBranch}` }),
  ]);
  const base = pull.hasMerged ? pull.mergeBase : baseTip || pull.mergeBase;
  return head && base ? { gitDir, base, head } : null;
}

/**
 * The current tip of a pull request's head (its branch, else `refs/pull/{index}/head`, else the AGit head commit) and
 * base branch (else, once the branch is gone, the merge base kept on the row), for `headRefOid`/`baseRefOid`: GitHub
 * keeps answering them after a ref is deleted.
 */
export async function pullRefOids(
  cx: ServiceContext,
  pull: PullGitRow &
    Pick<Models.PullRequest, 'headBranch' | 'headRepoId' | 'headCommitId'> & {
      headRepo: Pick<Models.Repository, 'ownerName' | 'name'> | null;
    },
): Promise<{ base: string | null; head: string | null }> {
  const { refs } = pullGitLoaders(cx);
  const gitDir = gitDirOf(cx, pull.baseRepo);
  const [base, pullHead, branchHead] = await Promise.all([
    refs.load({ gitDir, ref: `refs/heads/${pull.baseBranch}` }),
    refs.load({ gitDir, ref: pullHeadRef(pull.index) }),
    pull.headRepo ? refs.load({ gitDir: gitDirOf(cx, pull.headRepo), ref: `refs/heads/${pull.headBranch}` }) : null,
  ]);
  return { base: base ?? (pull.mergeBase || null), head: branchHead ?? pullHead ?? (pull.headCommitId || null) };
}

/** A commit of a pull request named by the pull request's id and the commit's full object id (its global id's key). */
export interface PullCommitKey {
  pullId: number;
  oid: string;
}

/** What `pullCommitsByKey` finds: the commit, the pull request's id and number, and the base repository it is read from. */
export interface PullCommitFound {
  pull: Pick<Models.PullRequest, 'id' | 'index'>;
  repo: Pick<Models.Repository, 'id' | 'ownerName' | 'name' | 'isEmpty'>;
  commit: CommitComparison['commits'][number];
}

/**
 * Commits of pull requests by key, for node(id:): one query for the pull requests through their read policy, then
 * each one's git range (the base repository's code must be readable) and commit list through the request's loaders;
 * null where the pull request is unreadable or the commit is not one of its commits.
 */
export async function pullCommitsByKey(cx: ServiceContext, keys: readonly PullCommitKey[]): Promise<(PullCommitFound | null)[]> {
  const ids = [...new Set(keys.map((k) => k.pullId).filter((id) => id > 0))];
  const pulls = ids.length
    ? await cx.db.pullRequest.findMany({
        where: { id: { in: ids }, AND: [pullReadWhere(cx)] },
        select: {
          id: true,
          index: true,
          baseRepoId: true,
          baseBranch: true,
          hasMerged: true,
          mergeBase: true,
          baseRepo: { select: { id: true, ownerName: true, name: true, isEmpty: true } },
        },
      })
    : [];
  const byId = new Map(pulls.map((p) => [p.id, p]));
  return Promise.all(
    keys.map(async (k) => {
      const pull = byId.get(k.pullId);
      const range = pull ? await pullGitRange(cx, pull) : null;
      if (!pull || !range) return null;
      const list = await pullGitLoaders(cx)
        .commits.load(range)
        .catch(() => null);
      const commit = list?.commits.find((c) => c.sha === k.oid);
      return commit ? { pull: { id: pull.id, index: pull.index }, repo: pull.baseRepo, commit } : null;
    }),
  );
}
