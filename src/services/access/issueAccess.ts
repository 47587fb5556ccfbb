import { NotFoundError, RepoArchivedError } from '../../errors.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import { requireTokenScope, requireViewer } from './guards.ts';
import { requireRepo, requireRepoWrite, requireUnitWrite, type RepoAccess, type RepoRef } from './repoAccess.ts';

/**
 * Gitea's gates for /repos/{o}/{r}/issues…: token scope, repository visible (404), issues or pull requests
 * readable (mustEnableIssuesOrPulls, 404); writes then pass the write gate (requireRepoWrite) and need a
 * signed-in viewer (401) and a repository that is not archived (mustNotBeArchived, 423).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError
 */
export async function resolveIssueRepo(cx: ServiceContext, ref: RepoRef, level: 'read' | 'write'): Promise<RepoAccess> {
  requireTokenScope(cx, 'issue', level);
  const access = await requireRepo(cx, ref.owner, ref.repo);
  if (!canRead(access.perm, 'ISSUES') && !canRead(access.perm, 'PULL_REQUESTS'))
    throw new NotFoundError('not found', { repoId: access.repo.id });
  if (level === 'read') return access;
  requireRepoWrite(cx, access, 'write:issue');
  requireViewer(cx);
  if (access.repo.isArchived) throw new RepoArchivedError();
  return access;
}

/**
 * Gitea's gates for a repository's issue metadata (/labels, /milestones): those of resolveIssueRepo, and for
 * writes also write on issues or pull requests (reqRepoWriter(TypeIssues, TypePullRequests), 403).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError
 */
export async function resolveIssueMetaRepo(cx: ServiceContext, ref: RepoRef, level: 'read' | 'write'): Promise<RepoAccess> {
  const access = await resolveIssueRepo(cx, ref, level);
  if (level === 'write') requireUnitWrite(cx, access, ['ISSUES', 'PULL_REQUESTS'], 'write:issue');
  return access;
}
