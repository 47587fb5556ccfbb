// User badges (Gitea models/user/badge.go; /admin/users/{username}/badges): site admins give users badges that
// exist (by slug) and take them away.
import type { Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireSiteAdmin } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { findUserByName } from './user.ts';

async function accountForAdmin(cx: ServiceContext, username: string, level: 'read' | 'write'): Promise<Models.User> {
  requireSiteAdmin(cx, level);
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`, { name: username });
  return user;
}

/** GET /admin/users/{username}/badges: the user's badges, oldest first (Gitea GetUserBadges). @throws PermissionDeniedError, NotFoundError */
export async function listUserBadges(cx: ServiceContext, username: string): Promise<Models.Badge[]> {
  const user = await accountForAdmin(cx, username, 'read');
  return cx.db.badge.findMany({ where: { users: { some: { userId: user.id } } }, orderBy: { id: 'asc' } });
}

/**
 * POST /admin/users/{username}/badges: gives the user each badge named by slug (one they have stays one).
 * @throws PermissionDeniedError, NotFoundError, ValidationError when a slug names no badge (nothing is given then)
 */
export async function addUserBadges(cx: ServiceContext, username: string, slugs: readonly string[]): Promise<void> {
  const user = await accountForAdmin(cx, username, 'write');
  const wanted = [...new Set(slugs)];
  await withTx(cx, async (tx) => {
    const badges = await tx.badge.findMany({ where: { slug: { in: wanted } }, select: { id: true, slug: true } });
    const missing = wanted.find((s) => !badges.some((b) => b.slug === s));
    if (missing !== undefined) throw new ValidationError(`badge does not exist [slug: ${missing}]`);
    const held = await tx.userBadge.findMany({ where: { userId: user.id, badgeId: { in: badges.map((b) => b.id) } } });
    const fresh = badges.filter((b) => !held.some((h) => h.badgeId === b.id));
    if (fresh.length) await tx.userBadge.createMany({ data: fresh.map((b) => ({ userId: user.id, badgeId: b.id })) });
  });
}

/** DELETE /admin/users/{username}/badges: takes the badges named by slug from the user (Gitea RemoveUserBadges). @throws PermissionDeniedError, NotFoundError */
export async function removeUserBadges(cx: ServiceContext, username: string, slugs: readonly string[]): Promise<void> {
  const user = await accountForAdmin(cx, username, 'write');
  await cx.db.userBadge.deleteMany({ where: { userId: user.id, badge: { slug: { in: [...slugs] } } } });
}
