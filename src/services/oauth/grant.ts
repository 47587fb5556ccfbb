// A user's grants: the applications the user authorized (Gitea's "Authorized OAuth2 Applications" settings page),
// and revoking them, which revokes every token issued under the grant.
import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { requireViewer, requireWriter } from '../access/guards.ts';
import { requireScopes } from '../access/writeGate.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';

/** A grant with the application it was given to. */
export type GrantWithApplication = Models.OAuth2Grant & { application: Models.OAuth2Application };

/**
 * The applications the viewer authorized, oldest grant first.
 * @throws UnauthenticatedError, PermissionDeniedError (read:user)
 */
export async function listGrants(cx: ServiceContext, opts: ListOptions): Promise<Page<GrantWithApplication>> {
  requireScopes(cx, 'read:user');
  const viewer = requireViewer(cx);
  const where = { userId: viewer.id };
  const [items, total] = await Promise.all([
    cx.db.oAuth2Grant.findMany({ where, include: { application: true }, orderBy: { id: 'asc' }, ...skipTake(opts) }),
    cx.db.oAuth2Grant.count({ where }),
  ]);
  return { items, total };
}

/**
 * Revokes one of the viewer's grants: its access and refresh tokens stop working at once, on every instance.
 * @throws UnauthenticatedError, PermissionDeniedError (write:user), NotFoundError
 */
export async function revokeGrant(cx: ServiceContext, grantId: number): Promise<void> {
  const viewer = requireWriter(cx, 'write:user');
  const valid = Number.isSafeInteger(grantId) && grantId > 0;
  const { count } = valid ? await cx.db.oAuth2Grant.deleteMany({ where: { id: grantId, userId: viewer.id } }) : { count: 0 };
  if (!count) throw new NotFoundError('not found', { grantId });
}

/** Deletes a grant (its codes and refresh sessions go with it): what reuse of a code or refresh token does. */
export async function dropGrant(db: DbLike, grantId: number): Promise<void> {
  await db.oAuth2Grant.deleteMany({ where: { id: grantId } });
}
