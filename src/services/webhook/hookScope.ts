// Where a webhook lives (a repository, an organization, a user, or the site: system and default hooks) and
// who may manage it there; the one write gate and read policy of webhooks.
import type { Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { requireSiteAdmin, requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgOwner } from '../access/orgAccess.ts';
import { requireAdminRepo, type RepoRef } from '../access/repoAccess.ts';
import { requireScopes } from '../access/writeGate.ts';
import type { ServiceContext } from '../context.ts';

/** The hook API a request goes through. */
export type HookScope = { kind: 'repo'; repo: RepoRef } | { kind: 'org'; org: string } | { kind: 'user' } | { kind: 'admin' };

/** A resolved scope: which rows it reaches and what a new hook there is attached to. */
export interface ResolvedScope {
  kind: HookScope['kind'];
  where: Models.Prisma.WebhookWhereInput;
  attach: { repoId: number | null; ownerId: number | null };
  /** Names for the hook's settings link. */
  ownerName: string;
  repoName: string;
  /** The repository (repository hooks only). */
  repo: Models.Repository | null;
}

/**
 * The caller may manage the scope's hooks (Gitea's route gates): repository admins (`repository` scope),
 * organization owners (`organization`), the signed-in user for their own hooks (`user`; public-only tokens
 * refused), site admins for system and default hooks (`admin`). Webhooks disabled by the administrator: 403.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function resolveHookScope(cx: ServiceContext, scope: HookScope, level: 'read' | 'write'): Promise<ResolvedScope> {
  if (cx.config.webhook.disabled) throw new PermissionDeniedError('webhooks disabled by administrator');
  switch (scope.kind) {
    case 'repo': {
      const { repo } = await requireAdminRepo(cx, scope.repo, `${level}:repository`);
      return {
        kind: 'repo',
        where: { repoId: repo.id },
        attach: { repoId: repo.id, ownerId: null },
        ownerName: repo.ownerName,
        repoName: repo.name,
        repo,
      };
    }
    case 'org': {
      requireViewer(cx);
      const access = await requireOrg(cx, scope.org);
      requireOrgOwner(cx, access, `${level}:organization`);
      const org = access.org;
      return {
        kind: 'org',
        where: { ownerId: org.id, repoId: null },
        attach: { repoId: null, ownerId: org.id },
        ownerName: org.name,
        repoName: '',
        repo: null,
      };
    }
    case 'user': {
      requireScopes(cx, `${level}:user`);
      const viewer = requireViewer(cx);
      if (cx.auth.scope?.publicOnly) throw new PermissionDeniedError('token scope is limited to public users');
      return {
        kind: 'user',
        where: { ownerId: viewer.id, repoId: null },
        attach: { repoId: null, ownerId: viewer.id },
        ownerName: viewer.name,
        repoName: '',
        repo: null,
      };
    }
    case 'admin':
      requireSiteAdmin(cx, level);
      return {
        kind: 'admin',
        where: { repoId: null, ownerId: null },
        attach: { repoId: null, ownerId: null },
        ownerName: '',
        repoName: '',
        repo: null,
      };
  }
}
