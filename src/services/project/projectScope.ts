import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { atLeast, maxMode, type AccessMode } from '../../permissions/accessMode.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { isSiteAdmin, requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgWrite } from '../access/orgAccess.ts';
import { requireRepo, requireUnitWrite, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { projectsUnit } from '../issue/issueProject.ts';

type Project = Models.Project;
type Level = 'read' | 'write';

/** Where projects live, as the transports name it: a repository (`owner/repo`) or an organization. */
export type ProjectOwnerRef = RepoRef | { org: string };

/** A resolved, authorized place for projects. */
interface Scope {
  where: Models.Prisma.ProjectWhereInput;
  repo: Models.Repository | null;
  org: Models.User | null;
}

/**
 * The viewer's access to an organization's projects (Gitea Organization.UnitPermission for the projects
 * unit): site admins everything; a member of the Owners team owner; other team members the best projects
 * mode of their teams (none when no team grants it); everyone else read on a public organization.
 */
async function orgProjectsMode(cx: ServiceContext, org: Models.User): Promise<AccessMode> {
  if (isSiteAdmin(cx)) return 'OWNER';
  const viewer = cx.viewer;
  if (viewer) {
    const teams = await cx.db.team.findMany({
      where: { orgId: org.id, members: { some: { userId: viewer.id } } },
      select: { authorize: true, units: { where: { type: 'PROJECTS' }, select: { accessMode: true } } },
    });
    if (teams.length) {
      if (teams.some((t) => t.authorize === 'OWNER')) return 'OWNER';
      return teams.flatMap((t) => t.units.map((u) => u.accessMode)).reduce<AccessMode>(maxMode, 'NONE');
    }
  }
  return org.visibility === 'PUBLIC' ? 'READ' : 'NONE';
}

/**
 * Gates, in Gitea's order. A repository: token scope `repository`, repository visible (404), projects unit
 * readable and repository projects allowed by projects_mode (MustEnableRepoProjects, 404); writes need a
 * signed-in viewer (401), a repository that is not archived (423) and write on the projects unit (403).
 * An organization: token scope `organization`, organization visible (404), project read access (404); writes
 * need a signed-in viewer (401) and project write access (403).
 */
export async function resolveScope(cx: ServiceContext, ref: ProjectOwnerRef, level: Level): Promise<Scope> {
  if ('org' in ref) {
    requireTokenScope(cx, 'organization', level);
    const access = await requireOrg(cx, ref.org);
    const { org } = access;
    const mode = await orgProjectsMode(cx, org);
    if (!atLeast(mode, 'READ')) throw new NotFoundError('not found', { orgId: org.id });
    if (level === 'write') {
      requireOrgWrite(cx, access, 'write:organization');
      requireViewer(cx);
      if (!atLeast(mode, 'WRITE')) throw new PermissionDeniedError('user does not have organization project permission', { orgId: org.id });
    }
    return { where: { ownerId: org.id, repoId: null, type: 'ORGANIZATION' }, repo: null, org };
  }
  requireTokenScope(cx, 'repository', level);
  const { repo, perm } = await requireRepo(cx, ref.owner, ref.repo);
  const unit = await projectsUnit(cx.db, repo.id);
  if (!unit || !canRead(perm, 'PROJECTS') || unit.mode === 'owner') throw new NotFoundError('not found', { repoId: repo.id });
  if (level === 'write') {
    requireViewer(cx);
    requireUnitWrite(cx, { repo, perm }, 'PROJECTS', 'write:repository');
  }
  return { where: { repoId: repo.id, type: 'REPOSITORY' }, repo, org: null };
}

function projectNotFound(id: number): NotFoundError {
  return new NotFoundError(`projects does not exist [id: ${id}]`, { projectId: id });
}

export async function findInScope(db: DbLike, scope: Scope, id: number): Promise<Project> {
  const project = id > 0 && id <= 2_147_483_647 ? await db.project.findFirst({ where: { id, ...scope.where } }) : null;
  if (!project) throw projectNotFound(id);
  return project;
}
