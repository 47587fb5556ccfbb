import { requireOrg } from '../services/access/orgAccess.ts';
import { requirePathRepo } from '../services/access/repoAccess.ts';
import type { ServiceContext } from '../services/context.ts';
import { getUserByName } from '../services/user/user.ts';

/**
 * Gitea's middleware order: the repository, organization or user named in the path is resolved (404 when
 * absent or invisible) before the request body is bound (422). So a caller who may not see a private
 * repository learns nothing from a malformed body. The service checks again; for the repository it takes what this
 * one found (Loaders.pathRepo).
 */
export async function resolvePathResources(cx: ServiceContext, params: Record<string, string>): Promise<void> {
  if (params.owner && params.repo) await requirePathRepo(cx, params.owner, params.repo);
  else if (params.org) await requireOrg(cx, params.org);
  else if (params.username) await getUserByName(cx, params.username);
}
