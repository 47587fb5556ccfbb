import type { ServiceContext } from '../context.ts';
import { userReadWhere } from './visibility.ts';

/**
 * Gitea LookupUserRedirect: the current name of the account a rename moved away from `name`, when no account has
 * that name now and the viewer may see the one it leads to (so a private account's new name stays unknown).
 */
export async function findUserRedirect(cx: ServiceContext, name: string): Promise<string | null> {
  const lowerName = name.toLowerCase();
  const [current, redirect] = await Promise.all([
    cx.db.user.findUnique({ where: { lowerName }, select: { id: true } }),
    cx.db.userRedirect.findUnique({
      where: { lowerName },
      select: { redirectUserId: true },
    }),
  ]);
  if (current || !redirect) return null;
  const target = await cx.db.user.findFirst({ where: { id: redirect.redirectUserId, AND: [userReadWhere(cx)] }, select: { name: true } });
  return target?.name ?? null;
}
