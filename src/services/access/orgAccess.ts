import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import type { OrgStanding } from '../../loaders/permissionLoaders.ts';
import { canSeeOwner } from '../../permissions/ownerVisibility.ts';
import type { ServiceContext } from '../context.ts';
import { isSiteAdmin } from './guards.ts';
import { requireNeed, requireWriteScopes, type ScopeNeed, type WriteNeed } from './writeGate.ts';

type User = Models.User;

/** An organization together with the viewer's standing in it. */
export interface OrgAccess {
  org: User;
  standing: OrgStanding;
  /** Site admin or member of the Owners team. */
  isOwner: boolean;
  /** Site admin or member. */
  isMember: boolean;
}

/** Finds an organization by name without visibility checks; null when absent or not an organization. */
export async function findOrgByName(db: DbLike, name: string): Promise<User | null> {
  const org = await db.user.findUnique({ where: { lowerName: name.toLowerCase() } });
  return org?.type === 'ORGANIZATION' ? org : null;
}

/** The viewer's standing in an organization (batched per request). */
export async function orgAccess(cx: ServiceContext, org: User): Promise<OrgAccess> {
  const standing = await cx.loaders.orgStanding.load(org.id);
  const admin = isSiteAdmin(cx);
  return { org, standing, isOwner: admin || standing.isOwner, isMember: admin || standing.isMember };
}

/** Whether the viewer's account may see the organization (public, limited for signed-in users, private for members). */
function ownerVisible(cx: ServiceContext, access: OrgAccess): boolean {
  return isSiteAdmin(cx) || canSeeOwner(cx.viewer, access.org, access.standing.isMember);
}

/**
 * The read rule of organizations (orgReadWhere is its SQL form): visible to the viewer's account, and public
 * when the viewer uses a public-only token.
 */
export function canSeeOrg(cx: ServiceContext, access: OrgAccess): boolean {
  return ownerVisible(cx, access) && !(cx.auth.scope?.publicOnly && access.org.visibility !== 'PUBLIC');
}

/**
 * The organization named `name`, if the viewer may see it (Gitea orgAssignment + reqOrgVisible, then
 * checkTokenPublicOnly's 403 for a public-only token on a non-public organization).
 * @throws NotFoundError when absent, not an organization, or invisible; PermissionDeniedError (public-only token)
 */
export async function requireOrg(cx: ServiceContext, name: string): Promise<OrgAccess> {
  const org = await findOrgByName(cx.db, name);
  if (!org) throw new NotFoundError('not found', { name });
  const access = await orgAccess(cx, org);
  if (!ownerVisible(cx, access)) throw new NotFoundError('not found', { name });
  if (!canSeeOrg(cx, access)) throw new PermissionDeniedError('token scope is limited to public orgs');
  return access;
}

/**
 * Writes to an organization whose permission rule is the caller's: the write gate (token scope; a public-only
 * token cannot write to a non-public organization, 403). @throws PermissionDeniedError
 */
export function requireOrgWrite(cx: ServiceContext, access: OrgAccess, need: WriteNeed | readonly WriteNeed[]): void {
  requireWriteScopes(cx, need, { org: access.org });
}

/** Gitea reqOrgMembership, with the token scope first (a write through the write gate). @throws PermissionDeniedError */
export function requireOrgMember(cx: ServiceContext, access: OrgAccess, need: ScopeNeed): void {
  requireNeed(cx, need, { org: access.org });
  if (!access.isMember) throw new PermissionDeniedError('Must be an organization member');
}

/** Gitea reqOrgOwnership, with the token scope first (a write through the write gate). @throws PermissionDeniedError */
export function requireOrgOwner(cx: ServiceContext, access: OrgAccess, need: ScopeNeed): void {
  requireNeed(cx, need, { org: access.org });
  if (!access.isOwner) throw new PermissionDeniedError('Must be an organization owner');
}
