import type { Models } from '../../db/client.ts';
import { visibleVisibilities } from '../../permissions/userVisibility.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';

/**
 * The read policy of user accounts (getUserByName as SQL, Gitea HasOrgOrUserVisible + checkTokenPublicOnly):
 * public accounts to everyone, limited ones to signed-in viewers (not restricted ones), private ones to
 * themselves and site admins; a public-only token reaches public accounts only.
 */
export function userReadWhere(cx: ServiceContext): Models.Prisma.UserWhereInput {
  if (cx.auth.scope?.publicOnly) return { visibility: 'PUBLIC' };
  if (isSiteAdmin(cx)) return {};
  const viewer = cx.viewer;
  return { OR: [{ visibility: { in: visibleVisibilities(viewer) } }, ...(viewer ? [{ id: viewer.id }] : [])] };
}

/** The read policy of users' SSH keys: user keys (never deploy keys) of the accounts the viewer may see. */
export function publicKeyReadWhere(cx: ServiceContext): Models.Prisma.PublicKeyWhereInput {
  return { type: 'USER', owner: userReadWhere(cx) };
}
