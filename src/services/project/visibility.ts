import type { Models } from '../../db/client.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { visibleRepoFilter } from '../repo/visibility.ts';

/** The JSON a projects unit limited to owner projects stores (written by the repository service). */
const OWNER_ONLY_CONFIG = '"projectsMode":"owner"';

/** A repository's projects unit that shows repository projects (enabled, projects_mode not `owner`). */
export const REPO_PROJECTS_UNIT: Models.Prisma.RepoUnitListRelationFilter = {
  some: { type: 'PROJECTS', NOT: { config: { contains: OWNER_ONLY_CONFIG } } },
};

/**
 * Projects the viewer may see through any path (GraphQL node(id:), relation connections): repository
 * projects of visible repositories that show them; organization projects as orgProjectsMode reads them
 * (team grants, else public organizations); individual projects of visible users.
 */
export function visibleProjectFilter(cx: ServiceContext): Models.Prisma.ProjectWhereInput {
  const repoProjects: Models.Prisma.ProjectWhereInput = {
    type: 'REPOSITORY',
    repo: { AND: [visibleRepoFilter(cx), { units: REPO_PROJECTS_UNIT }] },
  };
  if (cx.auth.scope?.publicOnly) {
    return { OR: [repoProjects, { type: { not: 'REPOSITORY' }, repoId: null, owner: { visibility: 'PUBLIC' } }] };
  }
  if (isSiteAdmin(cx)) return {};
  const viewer = cx.viewer;
  const orgProjects: Models.Prisma.UserWhereInput[] = [];
  const userProjects: Models.Prisma.UserWhereInput[] = [{ visibility: 'PUBLIC' }];
  if (viewer) {
    const myTeams: Models.Prisma.TeamListRelationFilter = { some: { members: { some: { userId: viewer.id } } } };
    orgProjects.push(
      {
        orgTeams: {
          some: {
            members: { some: { userId: viewer.id } },
            OR: [{ authorize: 'OWNER' }, { units: { some: { type: 'PROJECTS', accessMode: { not: 'NONE' } } } }],
          },
        },
      },
      { visibility: 'PUBLIC', NOT: { orgTeams: myTeams } },
    );
    if (!viewer.isRestricted) userProjects.push({ visibility: 'LIMITED' });
    userProjects.push({ id: viewer.id });
  } else {
    orgProjects.push({ visibility: 'PUBLIC' });
  }
  return {
    OR: [
      repoProjects,
      { type: 'ORGANIZATION', repoId: null, owner: { type: 'ORGANIZATION', OR: orgProjects } },
      { type: 'INDIVIDUAL', repoId: null, owner: { type: { not: 'ORGANIZATION' }, OR: userProjects } },
    ],
  };
}
