import type { Models } from '../../db/client.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';
import { orgReadWhere } from '../org/visibility.ts';
import { userReadWhere } from '../user/visibility.ts';
import { issueReadWhere } from '../issue/visibility.ts';

/** The JSON a projects unit limited to owner projects stores (written by the repository service). */
const OWNER_ONLY_CONFIG = '"projectsMode":"owner"';

/**
 * Gitea's orgProjectsMode of at least read, as SQL over organizations: site admins; members of the Owners team
 * or of a team granting the projects unit; everyone without a team in a public organization.
 */
function orgProjectsReadable(cx: ServiceContext): Models.Prisma.UserWhereInput {
  if (isSiteAdmin(cx)) return {};
  const viewer = cx.viewer;
  if (!viewer) return { visibility: 'PUBLIC' };
  const member = { members: { some: { userId: viewer.id } } };
  return {
    OR: [
      {
        orgTeams: {
          some: { ...member, OR: [{ authorize: 'OWNER' }, { units: { some: { type: 'PROJECTS', accessMode: { not: 'NONE' } } } }] },
        },
      },
      { visibility: 'PUBLIC', NOT: { orgTeams: { some: member } } },
    ],
  };
}

/**
 * The read policy of projects (REST resolveScope as SQL): repository projects where the viewer can read the
 * projects unit and projects_mode allows repository projects; organization projects of visible organizations
 * as orgProjectsMode grants them; a user's own projects where the account is visible.
 */
export function projectReadWhere(cx: ServiceContext): Models.Prisma.ProjectWhereInput {
  return {
    OR: [
      {
        type: 'REPOSITORY',
        repo: {
          AND: [
            repoReadWhere(cx, ['PROJECTS']),
            { units: { some: { type: 'PROJECTS', NOT: { config: { contains: OWNER_ONLY_CONFIG } } } } },
          ],
        },
      },
      { type: 'ORGANIZATION', repoId: null, owner: { AND: [orgReadWhere(cx), orgProjectsReadable(cx)] } },
      { type: 'INDIVIDUAL', repoId: null, owner: { AND: [{ type: { not: 'ORGANIZATION' } }, userReadWhere(cx)] } },
    ],
  };
}

/**
 * The read policy of project cards (an issue's place on a board, GitHub's ProjectCard): cards of readable issues
 * (issueReadWhere) on readable projects (projectReadWhere) — the board and the issue must both be visible.
 */
export function projectCardReadWhere(cx: ServiceContext): Models.Prisma.ProjectIssueWhereInput {
  return { issue: issueReadWhere(cx), project: projectReadWhere(cx) };
}
