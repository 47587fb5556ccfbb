// GitHub's arguments of Repository.collaborators (affiliation, login, query) over Gitea's collaborator rows.
import DataLoader from 'dataloader';
import type { Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import type { ServiceContext } from '../context.ts';
import { collaborationReadWhere } from './visibility.ts';

type Where = Models.Prisma.CollaborationWhereInput;

/**
 * GitHub's CollaboratorAffiliation on Gitea's model, where a collaborator is a user added to the repository by
 * name (a Collaboration row, what GET …/collaborators lists); access through organization teams is not a
 * collaboration in Gitea and is listed by no affiliation.
 * - DIRECT: every collaborator, whether or not they belong to the owning organization (GitHub: "with permissions
 *   to an organization-owned subject, regardless of organization membership status");
 * - OUTSIDE: the collaborators who are not members of the owning organization; on a repository owned by a user
 *   (no organization) that is every collaborator;
 * - ALL (GitHub's default): every collaborator the viewer can see, the same rows as DIRECT.
 */
export type CollaboratorAffiliation = 'OUTSIDE' | 'DIRECT' | 'ALL';

/** GitHub's login (exactly that user) and query (a substring of the login or the full name) filters. */
export interface CollaboratorFilter {
  login?: string | undefined;
  query?: string | undefined;
}

/** The collaborations matching `filter`, as one Prisma filter (to AND with the read policy). */
export function collaboratorFilterWhere(cx: ServiceContext, filter: CollaboratorFilter): Where {
  const and: Where[] = [];
  if (filter.login !== undefined) and.push({ user: { lowerName: filter.login.toLowerCase() } });
  const q = filter.query?.trim();
  if (q) {
    and.push({
      user: { OR: [{ lowerName: { contains: q.toLowerCase() } }, { fullName: containsInsensitive(cx.config.dbProvider, q) }] },
    });
  }
  return { AND: and };
}

/** A repository whose outside collaborators are asked for. */
export interface OwnedRepo {
  id: number;
  ownerId: number;
}

export type CollaboratorRow = Models.Collaboration & { user: Models.User };

/**
 * Per request and filter: the outside collaborators of many repositories (oldest first) in one query, through the
 * read policy of collaborator lists: each repository's collaborations whose user has no membership in its owner.
 */
export function outsideCollaboratorsLoader(
  cx: ServiceContext,
  filter: CollaboratorFilter,
): DataLoader<OwnedRepo, CollaboratorRow[], number> {
  return new DataLoader(
    async (repos: readonly OwnedRepo[]) => {
      const rows = await cx.db.collaboration.findMany({
        where: {
          AND: [
            collaborationReadWhere(cx),
            collaboratorFilterWhere(cx, filter),
            { OR: repos.map((r) => ({ repoId: r.id, user: { orgMemberships: { none: { orgId: r.ownerId } } } })) },
          ],
        },
        include: { user: true },
        orderBy: { id: 'asc' },
      });
      return repos.map((r) => rows.filter((c) => c.repoId === r.id));
    },
    { cacheKeyFn: (r) => r.id },
  );
}
