import { createHash } from 'node:crypto';
import type { DbTx, Models } from '../../db/client.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { InvalidArgumentError, NotFoundError, ValidationError } from '../../errors.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import { requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitRead, requireUnitWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { getRepo } from '../repo/read.ts';
import type { RepoWithPermission } from '../repo/repoRows.ts';
import { PULL_CHECKS_CHANGED } from './checkJob.ts';
import { COMMIT_STATUS_CREATED } from './statusEvent.ts';
import { COMMIT_STATUS_STATES, combinedState, latestPerContext, type CommitStatusState } from './rollup.ts';

/** A status with its creator, as the API shows it. */
export type CommitStatusView = Models.CommitStatus & { creator: Models.User | null };

/** Gitea CreateStatusOption. */
export interface CreateStatusInput {
  state?: string;
  targetUrl?: string;
  description?: string;
  context?: string;
}

/** The statuses of a commit and their roll-up (Gitea CombinedStatus). */
export interface CombinedStatusView {
  repo: RepoWithPermission;
  sha: string;
  state: string;
  statuses: CommitStatusView[];
  total: number;
}

const gitDirOf = (cx: ServiceContext, repo: Models.Repository) => repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);

/** Gitea's context hash (sha1 of the context). */
function contextHash(context: string): string {
  return createHash('sha1').update(context).digest('hex');
}

/** A commit of the repository named by a sha, branch or tag. @throws InvalidArgumentError (empty), NotFoundError */
async function resolveCommit(cx: ServiceContext, repo: Models.Repository, ref: string): Promise<string> {
  if (!ref) throw new InvalidArgumentError('sha not given', { field: 'sha' });
  const resolved = repo.isEmpty ? null : await resolveRef(gitDirOf(cx, repo), ref);
  if (!resolved) throw new NotFoundError(`commit does not exist [${ref}]`, { ref });
  return resolved.commit;
}

/**
 * Writes a commit status in `tx` (the one place statuses are created; Actions jobs and external CI both come
 * here): the next index of (repo, sha), Gitea's context hash, the auto-merge re-check job of the commit and the
 * job that announces the status (webhooks' `status` event).
 * `sha` must be a full commit id of the repository (the caller resolves it).
 * @throws ValidationError (unknown state)
 */
export async function createCommitStatus(
  tx: DbTx,
  repo: Models.Repository,
  sha: string,
  input: CreateStatusInput,
  creator: Models.User | null,
): Promise<Models.CommitStatus> {
  const state = (input.state ?? '').toLowerCase();
  if (!COMMIT_STATUS_STATES.includes(state as CommitStatusState))
    throw new ValidationError('State: invalid commit status state', { field: 'state', state: input.state });
  const context = input.context ?? '';
  const top = await tx.commitStatus.aggregate({ where: { repoId: repo.id, sha }, _max: { index: true } });
  const row = await tx.commitStatus.create({
    data: {
      repoId: repo.id,
      sha,
      index: (top._max.index ?? 0) + 1,
      state,
      targetUrl: input.targetUrl ?? '',
      description: input.description ?? '',
      context,
      contextHash: contextHash(context),
      creatorId: creator?.id ?? null,
    },
  });
  await enqueue(tx, PULL_CHECKS_CHANGED, { repoId: repo.id, sha });
  await enqueue(tx, COMMIT_STATUS_CREATED, { statusId: row.id, repoId: repo.id, sha });
  return row;
}

/**
 * POST /repos/{o}/{r}/statuses/{sha} (Gitea NewCommitStatus): code writers post a status for a commit (a sha,
 * or a branch or tag, stored under the full commit id). Unknown commit: 404; unknown state: 422.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError, ValidationError, InvalidArgumentError
 */
export async function postCommitStatus(
  cx: ServiceContext,
  ref: RepoRef,
  sha: string,
  input: CreateStatusInput,
): Promise<{ repo: Models.Repository; status: CommitStatusView }> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  const viewer = requireViewer(cx);
  requireUnitWrite(cx, access, 'CODE', 'write:repository');
  const commit = await resolveCommit(cx, access.repo, sha);
  // Concurrent posts for one commit may pick the same index: the unique key refuses one, which is retried.
  for (let attempt = 1; ; attempt++) {
    try {
      const row = await withTx(cx, (tx) => createCommitStatus(tx, access.repo, commit, input, viewer));
      return { repo: access.repo, status: { ...row, creator: viewer } };
    } catch (err) {
      if (
        attempt >= 3 ||
        !(err instanceof Error) ||
        !/Unique constraint|P2002/.test(`${(err as { code?: string }).code ?? ''} ${err.message}`)
      )
        throw err;
    }
  }
}

/** Readers of the code (Gitea's repository assignment + code unit). @throws NotFoundError */
async function readable(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'CODE');
  return access;
}

/** Sort orders of Gitea's status lists. */
export type StatusSort = 'oldest' | 'recentupdate' | 'leastupdate' | 'leastindex' | 'highestindex' | '';

const ORDER: Record<StatusSort, Models.Prisma.CommitStatusOrderByWithRelationInput[]> = {
  '': [{ id: 'desc' }],
  oldest: [{ id: 'asc' }],
  recentupdate: [{ updatedAt: 'desc' }, { id: 'desc' }],
  leastupdate: [{ updatedAt: 'asc' }, { id: 'asc' }],
  leastindex: [{ index: 'asc' }],
  highestindex: [{ index: 'desc' }],
};

/**
 * GET /repos/{o}/{r}/statuses/{sha} and …/commits/{ref}/statuses (Gitea getCommitStatuses): every status of the
 * commit, newest first unless `sort` says otherwise, optionally of one state.
 * @throws NotFoundError, InvalidArgumentError
 */
export async function listCommitStatuses(
  cx: ServiceContext,
  ref: RepoRef,
  commitRef: string,
  opts: ListOptions & { sort?: StatusSort; state?: string },
): Promise<Page<CommitStatusView> & { repo: Models.Repository }> {
  const access = await readable(cx, ref);
  const sha = await resolveCommit(cx, access.repo, commitRef);
  const where = { repoId: access.repo.id, sha, ...(opts.state ? { state: opts.state.toLowerCase() } : {}) };
  const { skip, take } = skipTake(opts);
  const [items, total] = await Promise.all([
    cx.db.commitStatus.findMany({ where, orderBy: ORDER[opts.sort ?? ''], skip, take, include: { creator: true } }),
    cx.db.commitStatus.count({ where }),
  ]);
  return { repo: access.repo, items, total };
}

/** The latest status of each context of a commit, with creators (one query). */
export async function latestStatuses(db: DbTx | ServiceContext['db'], repoId: number, sha: string): Promise<CommitStatusView[]> {
  const all = await db.commitStatus.findMany({ where: { repoId, sha }, orderBy: { index: 'asc' }, include: { creator: true } });
  return latestPerContext(all);
}

/**
 * GET /repos/{o}/{r}/commits/{ref}/status (Gitea GetCombinedCommitStatusByRef): the latest status of each
 * context and their worst state ('' without statuses).
 * @throws NotFoundError, InvalidArgumentError
 */
export async function getCombinedStatus(
  cx: ServiceContext,
  ref: RepoRef,
  commitRef: string,
  opts: ListOptions,
): Promise<CombinedStatusView> {
  const repo = await getRepo(cx, ref.owner, ref.repo);
  requireUnitRead(repo, 'CODE');
  const sha = await resolveCommit(cx, repo.repo, commitRef);
  const latest = await latestStatuses(cx.db, repo.repo.id, sha);
  const { skip, take } = skipTake(opts);
  return { repo, sha, state: combinedState(latest), statuses: latest.slice(skip, skip + take), total: latest.length };
}
