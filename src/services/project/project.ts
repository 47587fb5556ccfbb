import type { DbTx, Models } from '../../db/client.ts';
import { ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { DEFAULT_COLUMN_TITLE } from '../issue/issueProject.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findInScope, resolveScope, type ProjectOwnerRef } from './projectScope.ts';

type Project = Models.Project;

/** GET …/projects: `state` open (default), closed or all; Gitea's project `sort` values. */
export interface ListProjectsInput {
  state: 'open' | 'closed' | 'all';
  sort?: string;
  page: ListOptions | ListWindow;
}

export interface CreateProjectInput {
  title?: string;
  description?: string;
  /** Gitea's project templates: the columns created after the default one (none by default). */
  template?: ProjectTemplate;
}

/** Gitea's project templates (TemplateType) and the columns each creates (setting.Project's defaults). */
export const PROJECT_TEMPLATES = {
  NONE: [],
  BASIC_KANBAN: ['To Do', 'In Progress', 'Done'],
  BUG_TRIAGE: ['Needs Triage', 'High Priority', 'Low Priority', 'Closed'],
} as const satisfies Record<Models.ProjectBoardType, readonly string[]>;

/** A project template's name. */
export type ProjectTemplate = keyof typeof PROJECT_TEMPLATES;

/** Only given fields change. */
export interface UpdateProjectInput {
  title?: string;
  description?: string;
  /** "open" or "closed". */
  state?: string;
}

const MAX_TITLE = 100;

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
  const template = input.template ?? 'NONE';
  return withTx(cx, async (tx, emit) => {
    const project = await tx.project.create({
      data: {
        title,
        description: input.description ?? '',
        repoId: scope.repo?.id ?? null,
        ownerId: scope.org?.id ?? null,
        creatorId: viewer.id,
        type: scope.repo ? 'REPOSITORY' : 'ORGANIZATION',
        boardType: template,
        columns: { create: { title: DEFAULT_COLUMN_TITLE, isDefault: true, creatorId: viewer.id } },
      },
    });
    if (PROJECT_TEMPLATES[template].length) {
      await tx.projectColumn.createMany({
        data: PROJECT_TEMPLATES[template].map((title, i) => ({ projectId: project.id, title, sorting: i + 1, creatorId: viewer.id })),
      });
    }
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
