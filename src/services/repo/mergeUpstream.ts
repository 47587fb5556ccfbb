// Syncing a fork's branch with its upstream (Gitea routers/api/v1/repo/repo.go MergeUpstream,
// services/repository/merge_upstream.go MergeUpstream and GetUpstreamDivergingInfo).
import { ConflictError, InvalidArgumentError, NotFoundError } from '../../errors.ts';
import { isAncestor } from '../../git/compare.ts';
import { createMerge } from '../../git/createMerge.ts';
import { readRef } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import { repoPermission, requireRepo, requireUnitWrite, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { gitSignature } from '../user/gitIdentity.ts';
import { deleteHiddenRef, fetchIntoHiddenRef, moveRefs } from './moveRefs.ts';

/** Gitea MergeUpstreamRequest: the fork's branch (its default branch when empty), and whether only a fast-forward will do. */
export interface MergeUpstreamInput {
  branch?: string;
  ffOnly?: boolean;
}

/** What the sync did (Gitea's merge_type): nothing, a fast-forward, or a merge commit. */
export type MergeUpstreamType = 'up-to-date' | 'fast-forward' | 'merge';

/**
 * POST /repos/{o}/{r}/merge-upstream (Gitea MergeUpstream): brings the fork's `branch` up to date with the
 * upstream's branch of the same name (the upstream's default branch when it has none), as a push by the
 * viewer (the branch's protection applies): a fast-forward when possible, else (unless `ffOnly`) a merge commit
 * "Merge branch '<upstream branch>' of <owner>/<name> into <branch>". Needs code write on the fork (423 when
 * archived); 400 when the repository is not a fork or only a fast-forward was allowed, 404 for a missing branch
 * or an upstream the viewer cannot read, 409 on conflicts (Gitea answers 500) or a concurrent push.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError, InvalidArgumentError, ConflictError
 */
export async function mergeUpstream(cx: ServiceContext, ref: RepoRef, input: MergeUpstreamInput): Promise<MergeUpstreamType> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitWrite(cx, access, 'CODE', 'write:repository');
  const viewer = requireViewer(cx);
  const fork = access.repo;
  if (!fork.isFork || fork.forkId === null) throw new InvalidArgumentError('repo is not a fork', { repoId: fork.id });
  const upstream = await cx.db.repository.findUnique({ where: { id: fork.forkId } });
  if (!upstream || !canRead(await repoPermission(cx, upstream.id), 'CODE'))
    throw new NotFoundError('the upstream repository does not exist', { repoId: fork.forkId });
  const forkDir = repoPath(cx.config.repositoriesDir, fork.ownerName, fork.name);
  const upstreamDir = repoPath(cx.config.repositoriesDir, upstream.ownerName, upstream.name);
  const branch = input.branch || fork.defaultBranch;
  const target = `refs/heads/${branch}`;
  const forkSha = await readRef(forkDir, target);
  if (!forkSha) throw new NotFoundError(`branch does not exist [name: ${branch}]`, { branch });
  let upstreamBranch = branch;
  let upstreamSha = await readRef(upstreamDir, `refs/heads/${branch}`);
  if (!upstreamSha) {
    upstreamBranch = upstream.defaultBranch;
    upstreamSha = await readRef(upstreamDir, `refs/heads/${upstreamBranch}`);
  }
  if (!upstreamSha) throw new NotFoundError(`branch does not exist [name: ${upstreamBranch}]`, { branch: upstreamBranch });

  const hidden = `refs/forgegraph/upstream/${fork.id}`;
  await fetchIntoHiddenRef(forkDir, upstreamDir, upstreamSha, hidden);
  try {
    if (await isAncestor(forkDir, upstreamSha, forkSha)) return 'up-to-date';
    let type: MergeUpstreamType = 'fast-forward';
    let newSha = upstreamSha;
    if (!(await isAncestor(forkDir, forkSha, upstreamSha))) {
      if (input.ffOnly) throw new InvalidArgumentError(`branch ${branch} cannot be fast-forwarded to the upstream`, { branch });
      const me = gitSignature(cx, viewer, new Date());
      const outcome = await createMerge(forkDir, {
        style: 'merge',
        base: forkSha,
        head: upstreamSha,
        author: me,
        committer: me,
        message: `Merge branch '${upstreamBranch}' of ${upstream.ownerName}/${upstream.name} into ${branch}`,
      });
      if (outcome.status !== 'merged')
        throw new ConflictError('merging the upstream failed because of conflict', { branch, outcome: outcome.status });
      type = 'merge';
      newSha = outcome.sha;
    }
    const moved = await moveRefs(cx, fork, [{ ref: target, oldSha: forkSha, newSha }], { kind: 'push' });
    if (!moved.moved) throw new ConflictError(`branch ${branch} was changed by someone else meanwhile; retry`, { branch });
    return type;
  } finally {
    await deleteHiddenRef(forkDir, hidden);
  }
}
