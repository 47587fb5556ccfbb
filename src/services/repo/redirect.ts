import { canReadAny } from '../../permissions/repoPermission.ts';
import { NotFoundError } from '../../errors.ts';
import { requireRepo, type RepoAccess } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { findUserRedirect } from '../user/redirect.ts';

/**
 * Where a renamed repository lives now (Gitea's repo_redirect), if the viewer may see it there;
 * null when there is no redirect (or the target is invisible, so the old name stays "not found").
 */
export async function findRepoRedirect(cx: ServiceContext, owner: string, name: string): Promise<{ owner: string; name: string } | null> {
  const ownerRow = await cx.db.user.findUnique({ where: { lowerName: owner.toLowerCase() }, select: { id: true } });
  if (!ownerRow) return null;
  const redirect = await cx.db.repoRedirect.findUnique({
    where: { ownerId_lowerName: { ownerId: ownerRow.id, lowerName: name.toLowerCase() } },
    select: { redirectRepo: { select: { id: true, ownerName: true, name: true } } },
  });
  if (!redirect) return null;
  const target = redirect.redirectRepo;
  if (!canReadAny(await cx.loaders.repoPermission.load(target.id))) return null;
  return { owner: target.ownerName, name: target.name };
}

/**
 * The repository `owner/name`, or with `follow` the one a rename moved it to when the old name names none (GitHub's
 * `repository(followRenames:)`; a renamed owner too), through the same read gate as requireRepo. @throws NotFoundError
 */
export async function requireRepoFollowingRenames(cx: ServiceContext, owner: string, name: string, follow: boolean): Promise<RepoAccess> {
  try {
    return await requireRepo(cx, owner, name);
  } catch (err) {
    if (!follow || !(err instanceof NotFoundError)) throw err;
    const moved = await findRepoRedirect(cx, owner, name);
    if (moved) return requireRepo(cx, moved.owner, moved.name);
    const renamedOwner = await findUserRedirect(cx, owner);
    if (!renamedOwner) throw err;
    return requireRepoFollowingRenames(cx, renamedOwner, name, follow);
  }
}
