// Where Actions settings (secrets, variables, runners, registration tokens) live, and who may manage them
// (Gitea api.go: a repository's need reqToken + reqAdmin, an organization's reqOrgOwnership, /user the user).
import type { ScopeLevel } from '../../auth/scope.ts';
import { requireSiteAdmin, requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgOwner } from '../access/orgAccess.ts';
import { requireAdminRepo, type RepoRef } from '../access/repoAccess.ts';
import { requireNeed } from '../access/writeGate.ts';
import type { ServiceContext } from '../context.ts';

/** How a transport names the scope: a repository, an organization, or the signed-in user. */
export type SettingsRef = { repo: RepoRef } | { org: string } | 'user';

/** The scope's row keys: exactly one of the two is set (Gitea's owner_id / repo_id, 0 there). */
export interface SettingsScope {
  ownerId: number | null;
  repoId: number | null;
}

/**
 * The scope `ref`, when the viewer may manage it at `level`: repository admin, organization owner, or the user.
 * @throws NotFoundError (invisible repository or organization), UnauthenticatedError, PermissionDeniedError
 */
export async function requireSettingsScope(cx: ServiceContext, ref: SettingsRef, level: ScopeLevel): Promise<SettingsScope> {
  if (ref === 'user') {
    const viewer = requireViewer(cx);
    requireNeed(cx, `${level}:user`, null);
    return { ownerId: viewer.id, repoId: null };
  }
  if ('org' in ref) {
    const access = await requireOrg(cx, ref.org);
    requireViewer(cx);
    requireOrgOwner(cx, access, `${level}:organization`);
    return { ownerId: access.org.id, repoId: null };
  }
  const { repo } = await requireAdminRepo(cx, ref.repo, `${level}:repository`);
  return { ownerId: null, repoId: repo.id };
}

/** Whose runners and registration token: the instance's (site admins; every runner), or a scope's. */
export type RunnersRef = 'admin' | SettingsRef;

/** The scope `ref` names, when the viewer may manage it at `level`; null = the instance (every runner). */
export async function requireRunnersScope(cx: ServiceContext, ref: RunnersRef, level: ScopeLevel): Promise<SettingsScope | null> {
  if (ref !== 'admin') return requireSettingsScope(cx, ref, level);
  requireSiteAdmin(cx, level);
  return null;
}
