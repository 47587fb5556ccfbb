import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { orgReadWhere } from '../org/visibility.ts';
import { userReadWhere } from '../user/visibility.ts';

/**
 * The read policy of packages (Gitea determineAccessMode's read, as SQL): packages of users whose account the
 * viewer may see (public, limited for signed-in viewers, private for themselves) and of organizations the viewer
 * may see (members always); site admins everything; a public-only token public owners only.
 */
export function packageReadWhere(cx: ServiceContext): Models.Prisma.PackageWhereInput {
  return { owner: { OR: [{ AND: [{ type: { not: 'ORGANIZATION' } }, userReadWhere(cx)] }, orgReadWhere(cx)] } };
}

/** The read policy of package versions: those of readable packages, never internal ones. */
export function packageVersionReadWhere(cx: ServiceContext): Models.Prisma.PackageVersionWhereInput {
  return { isInternal: false, package: packageReadWhere(cx) };
}
