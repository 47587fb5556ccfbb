import type { DbLike, Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import type { AppliedPush } from '../repo/pushJob.ts';

/** Which of a push's branches open pull requests start from (`head`) and go into (`base`). */
export interface OpenPullBranches {
  head: ReadonlySet<string>;
  base: ReadonlySet<string>;
}

/**
 * The branches of `branches` (names in repository `repoId`) that open, unmerged pull requests have as head
 * (headRepoId is `repoId`: its own and its forks' pull requests from it) or as base, in one statement on the read
 * path: a push's follow-ups read the pull requests themselves only for those, and a push to branches no pull request
 * involves reads nothing more.
 */
async function openPullBranches(db: DbLike, repoId: number, branches: readonly string[]): Promise<OpenPullBranches> {
  if (!branches.length) return { head: new Set(), base: new Set() };
  const rows = await readRows<'PullRequest', Pick<Models.PullRequest, 'headRepoId' | 'headBranch' | 'baseRepoId' | 'baseBranch'>>(
    db,
    'PullRequest',
    `SELECT pr."headRepoId", pr."headBranch", pr."baseRepoId", pr."baseBranch" FROM "PullRequest" pr JOIN "Issue" i ON i."id" = pr."issueId"
      WHERE pr."hasMerged" = ? AND pr."flow" = 'GITHUB' AND i."isClosed" = ?
        AND ((pr."headRepoId" = ? AND pr."headBranch" IN (?)) OR (pr."baseRepoId" = ? AND pr."baseBranch" IN (?)))`,
    [false, false, repoId, branches, repoId, branches],
  );
  return {
    head: new Set(rows.filter((r) => r.headRepoId === repoId).map((r) => r.headBranch)),
    base: new Set(rows.filter((r) => r.baseRepoId === repoId).map((r) => r.baseBranch)),
  };
}

/** Each push's answer, shared by its follow-ups (the pull request refresh, then the manual-merge detection). */
const byPush = new WeakMap<AppliedPush, Promise<OpenPullBranches>>();

/** openPullBranches for the branches a push moved or deleted, read once for all of the push's follow-ups. */
export function pushOpenPullBranches(db: DbLike, push: AppliedPush): Promise<OpenPullBranches> {
  let open = byPush.get(push);
  if (!open) {
    const branches = push.updates.filter((u) => u.ref.startsWith('refs/heads/')).map((u) => u.ref.slice('refs/heads/'.length));
    open = openPullBranches(db, push.repoId, branches);
    byPush.set(push, open);
  }
  return open;
}
