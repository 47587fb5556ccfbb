import { readRows } from '../../db/readPath.ts';
import type { ServiceContext } from '../context.ts';
import { userReadWhere } from './visibility.ts';

/**
 * Gitea LookupUserRedirect: the current name of the account a rename moved away from `name`, when no account has
 * that name now and the viewer may see the one it leads to (so a private account's new name stays unknown). One
 * statement when there is no redirect (every anonymous first request of a push asks).
 */
export async function findUserRedirect(cx: ServiceContext, name: string): Promise<string | null> {
  const lowerName = name.toLowerCase();
  const [redirect] = await readRows<'UserRedirect', { redirectUserId: number }>(
    cx.db,
    'UserRedirect',
    `SELECT r."redirectUserId" FROM "UserRedirect" r
      WHERE r."lowerName" = ? AND NOT EXISTS (SELECT 1 FROM "User" u WHERE u."lowerName" = ?)`,
    [lowerName, lowerName],
  );
  if (!redirect) return null;
  const target = await cx.db.user.findFirst({ where: { id: redirect.redirectUserId, AND: [userReadWhere(cx)] }, select: { name: true } });
  return target?.name ?? null;
}
