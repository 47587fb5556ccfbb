// Package access (Gitea services/context/package.go determineAccessMode + reqPackageAccess): access to
// packages depends on their owner, never on a repository.
import { formatScope, scopeAllows } from '../../auth/scope.ts';
import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { canSeeOwner } from '../../permissions/ownerVisibility.ts';
import type { ServiceContext } from '../context.ts';
import { isSiteAdmin } from './guards.ts';

/** Gitea's access modes, in order. */
const MODES = ['NONE', 'READ', 'WRITE', 'ADMIN', 'OWNER'] as const;
type Mode = (typeof MODES)[number];
const rank = (m: Mode): number => MODES.indexOf(m);

/** The message of every refusal of reqPackageAccess. */
export const PACKAGE_ACCESS_MESSAGE = 'user should have specific permission or be a site admin';

/** An owner of packages with the viewer's access mode to them. */
export interface PackageOwnerAccess {
  owner: Models.User;
  mode: Mode;
}

/**
 * The user or organization named `name`, with the viewer's package access mode: the owner itself (or a site
 * admin) owns; an organization's members get the maximum of their teams' authorization and packages unit; anyone
 * who can see the owner reads.
 * @throws NotFoundError when there is no such user or organization
 */
export async function packageOwnerAccess(cx: ServiceContext, name: string): Promise<PackageOwnerAccess> {
  const owner = name.includes('\0') ? null : await cx.db.user.findUnique({ where: { lowerName: name.toLowerCase() } });
  if (!owner) throw new NotFoundError('user does not exist', { name });
  return { owner, mode: await accessMode(cx, owner) };
}

async function accessMode(cx: ServiceContext, owner: Models.User): Promise<Mode> {
  if (isSiteAdmin(cx) || (cx.viewer && cx.viewer.id === owner.id)) return 'OWNER';
  if (owner.type !== 'ORGANIZATION') return canSeeOwner(cx.viewer, owner, false) ? 'READ' : 'NONE';
  const standing = await cx.loaders.orgStanding.load(owner.id);
  let mode: Mode = canSeeOwner(cx.viewer, owner, standing.isMember) ? 'READ' : 'NONE';
  if (!standing.teamIds.length) return mode;
  const teams = await cx.db.team.findMany({
    where: { id: { in: standing.teamIds } },
    select: { authorize: true, units: { where: { type: 'PACKAGES' }, select: { accessMode: true } } },
  });
  for (const team of teams) {
    for (const m of [team.authorize, ...team.units.map((u) => u.accessMode)]) if (rank(m) > rank(mode)) mode = m;
  }
  return mode;
}

/**
 * Gitea reqPackageAccess: a token needs `read:package` / `write:package`, a public-only token reaches public
 * owners only, and the viewer's mode must reach `level`.
 * @throws PermissionDeniedError (`data.packageAuth` marks the refusals Gitea's registries answer with 401 and
 *   PACKAGE_ACCESS_MESSAGE)
 */
export function requirePackageAccess(cx: ServiceContext, access: PackageOwnerAccess, level: 'read' | 'write'): void {
  const scope = cx.auth.method === 'token' ? cx.auth.scope : null;
  if (scope) {
    if (!scopeAllows(scope, ['package'], level)) {
      throw new PermissionDeniedError(
        `token does not have at least one of required scope(s), required=[${level}:package], token scope=${formatScope(scope)}`,
        { packageAuth: true },
      );
    }
    if (scope.publicOnly && access.owner.visibility !== 'PUBLIC')
      throw new PermissionDeniedError('token scope is limited to public packages');
  }
  if (rank(access.mode) < rank(level === 'read' ? 'READ' : 'WRITE')) {
    throw new PermissionDeniedError(PACKAGE_ACCESS_MESSAGE, { packageAuth: true });
  }
}
