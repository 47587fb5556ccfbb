import type { Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import { requireOrgForTeams, TEAM_INCLUDE, type TeamRow } from '../access/teamAccess.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { teamReadWhere } from './visibility.ts';

/** GET /orgs/{org}/teams/search (Gitea SearchTeamOptions). */
export interface SearchTeamsInput {
  /** Part of the name (or description), case-insensitive; empty matches every team. */
  q: string;
  /** Search descriptions too (Gitea: unless `include_desc` is given and false). */
  includeDesc: boolean;
}

/**
 * An organization's teams matching `q`, by name (Gitea SearchTeam): members of the organization only (403
 * otherwise); site admins search every team, everyone else only the teams they belong to, as Gitea. The team
 * read policy applies too.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function searchTeams(
  cx: ServiceContext,
  orgName: string,
  input: SearchTeamsInput,
  opts: ListOptions | ListWindow,
): Promise<Page<TeamRow>> {
  const access = await requireOrgForTeams(cx, orgName, 'read');
  const viewer = requireViewer(cx);
  const keyword = input.q.trim().toLowerCase();
  const match: Models.Prisma.TeamWhereInput = keyword
    ? {
        OR: [
          { lowerName: { contains: keyword } },
          ...(input.includeDesc ? [{ description: containsInsensitive(cx.config.dbProvider, keyword) }] : []),
        ],
      }
    : {};
  const where: Models.Prisma.TeamWhereInput = {
    AND: [{ orgId: access.org.id }, teamReadWhere(cx), isSiteAdmin(cx) ? {} : { members: { some: { userId: viewer.id } } }, match],
  };
  const [items, total] = await Promise.all([
    cx.db.team.findMany({ where, include: TEAM_INCLUDE, orderBy: [{ lowerName: 'asc' }, { id: 'asc' }], ...skipTake(opts) }),
    cx.db.team.count({ where }),
  ]);
  return { items, total };
}
