import type { DbLike, DbTx, Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError } from '../../errors.ts';
import { maxMode, atLeast, type AccessMode } from '../../permissions/accessMode.ts';
import { canRead, canWrite } from '../../permissions/repoPermission.ts';
import { isSiteAdmin, requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireOrg } from '../access/orgAccess.ts';
import { requireRepo } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { canWriteIssue, findIssueByIndex, loadIssueView, resolveIssueRepo, type IssueView } from '../issue/issue.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import type { RepoRef } from '../repo/collaborator.ts';

type Project = Models.Project;
type Level = 'read' | 'write';

/** Where projects live, as the transports name it: a repository (`owner/repo`) or an organization. */
export type ProjectOwnerRef = RepoRef | { org: string };

/** GET …/projects: `state` open (default), closed or all; Gitea's project `sort` values. */
export interface ListProjectsInput {
  state: 'open' | 'closed' | 'all';
  sort?: string;
  page: ListOptions | ListWindow;
}

export interface CreateProjectInput {
  title?: string;
  description?: string;
}

/** Only given fields change. */
export interface UpdateProjectInput {
  title?: string;
  description?: string;
  /** "open" or "closed". */
  state?: string;
}

/** The repository's `projects_mode` (Gitea ProjectsConfig): which projects its issues may use. */
export type ProjectsMode = 'repo' | 'owner' | 'all';

/** Which projects a repository's issues may join: its own (repo/all) and its owner's (owner/all), when the projects unit is on. */
export interface ProjectUsage {
  repoId: number;
  ownerId: number;
  repoProjects: boolean;
  ownerProjects: boolean;
}

/** A resolved, authorized place for projects. */
interface Scope {
  where: Models.Prisma.ProjectWhereInput;
  repo: Models.Repository | null;
  org: Models.User | null;
}

/** Gitea's default title of the column that receives issues without one. */
export const DEFAULT_COLUMN_TITLE = 'Uncategorized';
const MAX_TITLE = 100;

/** The config's projects_mode; Gitea reads an unset or unknown mode as `all`. */
export function projectsModeOf(config: string | null | undefined): ProjectsMode {
  try {
    const mode = (JSON.parse(config ?? '{}') as { projectsMode?: unknown }).projectsMode;
    return mode === 'repo' || mode === 'owner' ? mode : 'all';
  } catch {
    return 'all';
  }
}

/** The repository's projects unit: null when disabled. */
async function projectsUnit(db: DbLike, repoId: number): Promise<{ mode: ProjectsMode } | null> {
  const unit = await db.repoUnit.findUnique({ where: { repoId_type: { repoId, type: 'PROJECTS' } }, select: { config: true } });
  return unit ? { mode: projectsModeOf(unit.config) } : null;
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
async function resolveScope(cx: ServiceContext, ref: ProjectOwnerRef, level: Level): Promise<Scope> {
  if ('org' in ref) {
    requireTokenScope(cx, 'organization', level);
    const { org } = await requireOrg(cx, ref.org);
    const mode = await orgProjectsMode(cx, org);
    if (!atLeast(mode, 'READ')) throw new NotFoundError('not found', { orgId: org.id });
    if (level === 'write') {
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
    if (repo.isArchived) throw new RepoArchivedError();
    if (!canWrite(perm, 'PROJECTS'))
      throw new PermissionDeniedError('user should have a permission to write to a repo', { repoId: repo.id });
  }
  return { where: { repoId: repo.id, type: 'REPOSITORY' }, repo, org: null };
}

function projectNotFound(id: number): NotFoundError {
  return new NotFoundError(`projects does not exist [id: ${id}]`, { projectId: id });
}

async function findInScope(db: DbLike, scope: Scope, id: number): Promise<Project> {
  const project = id > 0 && id <= 2_147_483_647 ? await db.project.findFirst({ where: { id, ...scope.where } }) : null;
  if (!project) throw projectNotFound(id);
  return project;
}

/** Gitea GetSearchOrderByBySortType: newest first unless `sort` says otherwise. */
export function projectSortOrder(sort: string | undefined): Models.Prisma.ProjectOrderByWithRelationInput[] {
  switch (sort) {
    case 'oldest':
      return [{ createdAt: 'asc' }, { id: 'asc' }];
    case 'recentupdate':
      return [{ updatedAt: 'desc' }, { id: 'desc' }];
    case 'leastupdate':
      return [{ updatedAt: 'asc' }, { id: 'asc' }];
    case 'alphabetically':
      return [{ title: 'asc' }, { id: 'asc' }];
    case 'reversealphabetically':
      return [{ title: 'desc' }, { id: 'desc' }];
    default:
      return [{ createdAt: 'desc' }, { id: 'desc' }];
  }
}

/** Keeps the repository's project counters exact (Gitea updateRepositoryProjectCount). */
async function refreshRepoProjectCounts(tx: DbTx, repoId: number | null): Promise<void> {
  if (repoId === null) return;
  const [numProjects, numClosedProjects] = await Promise.all([
    tx.project.count({ where: { repoId, type: 'REPOSITORY' } }),
    tx.project.count({ where: { repoId, type: 'REPOSITORY', isClosed: true } }),
  ]);
  await tx.repository.update({ where: { id: repoId }, data: { numProjects, numClosedProjects } });
}

/** Gitea's CreateProjectForm title rule (Required; MaxSize(100)), after trimming. @throws ValidationError */
function checkTitle(title: string): string {
  const t = title.trim();
  if (t === '') throw new ValidationError('Required', { field: 'title', rule: 'Required' });
  if ([...t].length > MAX_TITLE) throw new ValidationError('MaxSize', { field: 'title', rule: 'MaxSize' });
  if (t.includes('\u0000')) throw new ValidationError('Invalid', { field: 'title', rule: 'Invalid' });
  return t;
}

function checkDescription(description: string | undefined): void {
  if (description?.includes('\u0000')) throw new ValidationError('Invalid', { field: 'description', rule: 'Invalid' });
}

/**
 * A repository's or an organization's projects, newest first unless `sort` says otherwise, paged.
 * @throws NotFoundError
 */
export async function listProjects(cx: ServiceContext, ref: ProjectOwnerRef, input: ListProjectsInput): Promise<Page<Project>> {
  const scope = await resolveScope(cx, ref, 'read');
  const where: Models.Prisma.ProjectWhereInput = {
    ...scope.where,
    ...(input.state === 'all' ? {} : { isClosed: input.state === 'closed' }),
  };
  const [items, total] = await Promise.all([
    cx.db.project.findMany({ where, orderBy: projectSortOrder(input.sort), ...skipTake(input.page) }),
    cx.db.project.count({ where }),
  ]);
  return { items, total };
}

/** One project of a repository or organization by id. @throws NotFoundError */
export async function getProject(cx: ServiceContext, ref: ProjectOwnerRef, id: number): Promise<Project> {
  return findInScope(cx.db, await resolveScope(cx, ref, 'read'), id);
}

/**
 * Creates a project and its default column (Gitea NewProject; the column Gitea creates on first use).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError
 */
export async function createProject(cx: ServiceContext, ref: ProjectOwnerRef, input: CreateProjectInput): Promise<Project> {
  const scope = await resolveScope(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const title = checkTitle(input.title ?? '');
  checkDescription(input.description);
  return withTx(cx, async (tx, emit) => {
    const project = await tx.project.create({
      data: {
        title,
        description: input.description ?? '',
        repoId: scope.repo?.id ?? null,
        ownerId: scope.org?.id ?? null,
        creatorId: viewer.id,
        type: scope.repo ? 'REPOSITORY' : 'ORGANIZATION',
        columns: { create: { title: DEFAULT_COLUMN_TITLE, isDefault: true, creatorId: viewer.id } },
      },
    });
    await refreshRepoProjectCounts(tx, project.repoId);
    emit({ type: 'project.created', projectId: project.id, repoId: project.repoId, ownerId: project.ownerId, actorId: viewer.id });
    return project;
  });
}

/**
 * Edits a project: title, description, and state (closing sets `closed_at`, reopening clears it).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError
 */
export async function updateProject(cx: ServiceContext, ref: ProjectOwnerRef, id: number, input: UpdateProjectInput): Promise<Project> {
  const scope = await resolveScope(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const found = await findInScope(cx.db, scope, id);
  const title = input.title === undefined ? undefined : checkTitle(input.title);
  checkDescription(input.description);
  if (input.state !== undefined && input.state !== 'open' && input.state !== 'closed')
    throw new ValidationError('In', { field: 'state', rule: 'In' });
  return withTx(cx, async (tx, emit) => {
    const current = await tx.project.findUniqueOrThrow({ where: { id: found.id } });
    const data: Models.Prisma.ProjectUncheckedUpdateInput = {};
    const fields: string[] = [];
    if (title !== undefined && title !== current.title) {
      data.title = title;
      fields.push('title');
    }
    if (input.description !== undefined && input.description !== current.description) {
      data.description = input.description;
      fields.push('description');
    }
    const close = input.state === undefined ? current.isClosed : input.state === 'closed';
    if (close !== current.isClosed) {
      data.isClosed = close;
      data.closedAt = close ? new Date() : null;
      fields.push('state');
    }
    if (!fields.length) return current;
    const project = await tx.project.update({ where: { id: current.id }, data });
    if (fields.includes('state')) await refreshRepoProjectCounts(tx, project.repoId);
    emit({ type: 'project.updated', projectId: project.id, repoId: project.repoId, ownerId: project.ownerId, actorId: viewer.id, fields });
    return project;
  });
}

/**
 * Deletes a project with its columns and issue placements (Gitea DeleteProjectByID); timeline entries keep
 * their place without it. @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError
 */
export async function deleteProject(cx: ServiceContext, ref: ProjectOwnerRef, id: number): Promise<void> {
  const scope = await resolveScope(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const found = await findInScope(cx.db, scope, id);
  await withTx(cx, async (tx, emit) => {
    await tx.project.deleteMany({ where: { id: found.id } });
    await refreshRepoProjectCounts(tx, found.repoId);
    emit({ type: 'project.deleted', projectId: found.id, repoId: found.repoId, ownerId: found.ownerId, actorId: viewer.id });
  });
}

/** How a project is named from its database id alone (GraphQL): its repository or its organization. */
async function refOfProject(cx: ServiceContext, id: number): Promise<ProjectOwnerRef> {
  const row =
    id > 0 && id <= 2_147_483_647
      ? await cx.db.project.findUnique({
          where: { id },
          select: { repo: { select: { ownerName: true, name: true } }, owner: { select: { name: true } } },
        })
      : null;
  if (row?.repo) return { owner: row.repo.ownerName, repo: row.repo.name };
  if (row?.owner) return { org: row.owner.name };
  // Unknown ids fall through to the gates with no owner: NotFound, the REST way.
  return { owner: '', repo: '' };
}

/** updateProject for a project known by its database id (GraphQL). @throws as updateProject */
export async function updateProjectById(cx: ServiceContext, id: number, input: UpdateProjectInput): Promise<Project> {
  return updateProject(cx, await refOfProject(cx, id), id, input);
}

/** deleteProject for a project known by its database id (GraphQL). @throws as deleteProject */
export async function deleteProjectById(cx: ServiceContext, id: number): Promise<void> {
  return deleteProject(cx, await refOfProject(cx, id), id);
}

// ---------------------------------------------------------------------------------------------------------
// Issues in projects
// ---------------------------------------------------------------------------------------------------------

/** Which projects the repository's issues may use: the projects unit must be on; projects_mode picks repo/owner ones. */
export async function projectUsage(db: DbLike, repo: Pick<Models.Repository, 'id' | 'ownerId'>): Promise<ProjectUsage> {
  const unit = await projectsUnit(db, repo.id);
  return {
    repoId: repo.id,
    ownerId: repo.ownerId,
    repoProjects: unit !== null && unit.mode !== 'owner',
    ownerProjects: unit !== null && unit.mode !== 'repo',
  };
}

/** Gitea Project.CanBeAccessedByOwnerRepo, narrowed by the repository's projects unit and mode. */
export function canUseProject(usage: ProjectUsage, project: Pick<Project, 'type' | 'repoId' | 'ownerId'>): boolean {
  if (project.type === 'REPOSITORY') return usage.repoProjects && project.repoId === usage.repoId;
  return usage.ownerProjects && project.repoId === null && project.ownerId === usage.ownerId;
}

/** The project's default column (Gitea MustDefaultColumn): the default one, else the first, else a new default. */
async function mustDefaultColumn(tx: DbTx, project: Pick<Project, 'id' | 'creatorId'>): Promise<number> {
  const column = await tx.projectColumn.findFirst({
    where: { projectId: project.id },
    orderBy: [{ isDefault: 'desc' }, { sorting: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  if (column) return column.id;
  const created = await tx.projectColumn.create({
    data: { projectId: project.id, title: DEFAULT_COLUMN_TITLE, isDefault: true, creatorId: project.creatorId },
  });
  return created.id;
}

/**
 * Makes `ids` the issue's exact set of projects inside `tx` (Gitea IssueAssignOrRemoveProject): projects no
 * longer wanted are left, new ones are joined in their default column at the end; each change is a PROJECT
 * timeline entry. Returns whether anything changed.
 * @throws InvalidArgumentError `project <id> not found`; `issue <iid> can't be accessed by project <pid>` for a
 * project the repository may not use (another repository's or owner's, or excluded by its projects unit)
 */
export async function setIssueProjects(
  tx: DbTx,
  issue: Pick<Models.Issue, 'id'>,
  ids: readonly number[],
  usage: ProjectUsage,
  actorId: number,
): Promise<boolean> {
  const current = new Set(
    (await tx.projectIssue.findMany({ where: { issueId: issue.id }, select: { projectId: true } })).map((r) => r.projectId),
  );
  const wanted = [...new Set(ids)];
  const removed = [...current].filter((id) => !wanted.includes(id));
  const added = wanted.filter((id) => !current.has(id));
  const comments: Models.Prisma.CommentCreateManyInput[] = [];
  if (removed.length) {
    await tx.projectIssue.deleteMany({ where: { issueId: issue.id, projectId: { in: removed } } });
    comments.push(
      ...removed.map((id) => ({ type: 'PROJECT' as const, posterId: actorId, issueId: issue.id, oldProjectId: id, projectId: null })),
    );
  }
  if (added.length) {
    const queryable = added.filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
    const rows = queryable.length ? await tx.project.findMany({ where: { id: { in: queryable } } }) : [];
    const byId = new Map(rows.map((p) => [p.id, p]));
    for (const id of added) {
      const project = byId.get(id);
      if (!project) throw new InvalidArgumentError(`project ${id} not found`, { projectId: id });
      if (!canUseProject(usage, project))
        throw new InvalidArgumentError(`issue ${issue.id} can't be accessed by project ${id}`, { issueId: issue.id, projectId: id });
    }
    for (const id of added) {
      const columnId = await mustDefaultColumn(tx, byId.get(id)!);
      const last = await tx.projectIssue.aggregate({
        where: { projectId: id, projectColumnId: columnId },
        _max: { sorting: true },
        _count: { _all: true },
      });
      const sorting = last._count._all > 0 ? (last._max.sorting ?? 0) + 1 : 0;
      await tx.projectIssue.create({ data: { issueId: issue.id, projectId: id, projectColumnId: columnId, sorting } });
      comments.push({ type: 'PROJECT', posterId: actorId, issueId: issue.id, oldProjectId: null, projectId: id });
    }
  }
  if (comments.length) await tx.comment.createMany({ data: comments });
  return comments.length > 0;
}

/** Adds (`member` true) or removes one project of an issue, for a writer of the issue's unit. */
async function changeIssueProject(cx: ServiceContext, ref: RepoRef, index: number, projectId: number, member: boolean): Promise<IssueView> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const issue = await findIssueByIndex(cx, access, index);
  if (!canWriteIssue(access, issue))
    throw new PermissionDeniedError('user should have a permission to write to a repo', { issueId: issue.id });
  const usage = await projectUsage(cx.db, access.repo);
  await withTx(cx, async (tx, emit) => {
    const current = (await tx.projectIssue.findMany({ where: { issueId: issue.id }, select: { projectId: true } })).map((r) => r.projectId);
    const next = member ? [...current, projectId] : current.filter((id) => id !== projectId);
    if (await setIssueProjects(tx, issue, next, usage, viewer.id)) {
      emit({
        type: 'issue.updated',
        issueId: issue.id,
        repoId: issue.repoId,
        index: issue.index,
        actorId: viewer.id,
        fields: ['projects'],
      });
    }
  });
  return loadIssueView(cx.db, await cx.db.issue.findUniqueOrThrow({ where: { id: issue.id } }));
}

/**
 * Puts an issue in a project's default column (writers of the issue's unit; the project must be one the
 * repository may use). @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError
 */
export function addIssueToProject(cx: ServiceContext, ref: RepoRef, index: number, projectId: number): Promise<IssueView> {
  return changeIssueProject(cx, ref, index, projectId, true);
}

/** Takes an issue out of a project (writers of the issue's unit). @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError */
export function removeIssueFromProject(cx: ServiceContext, ref: RepoRef, index: number, projectId: number): Promise<IssueView> {
  return changeIssueProject(cx, ref, index, projectId, false);
}
