import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, RepoArchivedError, UnauthenticatedError } from '../../errors.ts';
import { repoPath } from '../../git/repoPath.ts';
import { canRead, canWrite } from '../../permissions/repoPermission.ts';
import { findRepoWithFacts, permissionWithFacts, requireRepoWrite } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';

/** A repository the viewer may fetch from (or push to), and where it lives: the code's, or the wiki's. */
export interface GitRepoAccess {
  repo: Models.Repository;
  gitDir: string;
  /**
   * Which git repository: a push to the code goes through branch protection and the push bookkeeping (feeds,
   * webhooks, pull requests, actions); a push to the wiki through none of them (Gitea's wiki has no protection
   * and records no push actions).
   */
  target: 'code' | 'wiki';
}

/** Gitea's texts (routers/web/repo/githttp.go), shown by git as `remote: …`. */
export const GIT_MESSAGES = {
  notFound: 'Repository not found',
  archived: 'This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.',
  noWrite: 'User permission denied for writing.',
} as const;

/**
 * Access to a unit of a repository over git (Gitea httpBase, and its serv for SSH): reading needs read on `unit`
 * (the code, or the wiki), pushing needs write on it. An anonymous viewer who cannot read (or any viewer of a
 * missing repository) is asked to authenticate; a signed-in one (or a deploy key) is told the repository does not
 * exist; a visible archived repository refuses pushes, a mirror too (`reason` MIRROR_READ_ONLY); a reader who
 * cannot write is denied.
 * @throws UnauthenticatedError, NotFoundError, RepoArchivedError, PermissionDeniedError
 */
export async function requireGitUnit(
  cx: ServiceContext,
  owner: string,
  name: string,
  mode: 'read' | 'write',
  unit: 'CODE' | 'WIKI',
): Promise<Models.Repository> {
  const found = await findRepoWithFacts(cx.db, owner, name);
  const repo = found?.repo;
  const perm = found ? await permissionWithFacts(cx, found.facts) : null;
  const readable = !!repo && !!perm && canRead(perm, unit);
  // A deploy key has no viewer, yet it authenticated.
  const signedIn = cx.viewer !== null || cx.auth.sshKey !== undefined;
  if (!repo || !perm || !readable) {
    if (!signedIn) throw new UnauthenticatedError('authentication required');
    throw new NotFoundError(GIT_MESSAGES.notFound, { owner, name });
  }
  if (mode === 'write') {
    requireRepoWrite(cx, { repo, perm }, 'write:repository');
    if (repo.isArchived) throw new RepoArchivedError(GIT_MESSAGES.archived);
    if (!signedIn) throw new UnauthenticatedError('authentication required');
    if (repo.isMirror) throw new PermissionDeniedError('mirror repository is read-only', { reason: 'MIRROR_READ_ONLY' });
    if (!canWrite(perm, unit)) throw new PermissionDeniedError(GIT_MESSAGES.noWrite);
  }
  return repo;
}

/** Access to a repository's code over git (see requireGitUnit). @throws UnauthenticatedError, NotFoundError, RepoArchivedError, PermissionDeniedError */
export async function requireGitAccess(cx: ServiceContext, owner: string, name: string, mode: 'read' | 'write'): Promise<GitRepoAccess> {
  const repo = await requireGitUnit(cx, owner, name, mode, 'CODE');
  return { repo, gitDir: repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name), target: 'code' };
}
