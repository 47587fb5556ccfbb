import type { DbLike, DbTx, Models } from '../../db/client.ts';
import { InvalidArgumentError, PermissionDeniedError } from '../../errors.ts';
import { unitConfig } from '../../permissions/units.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { canWriteIssue, findIssueByIndex, loadIssueView, type IssueView } from './issue.ts';
import { isDbId } from '../dbId.ts';
import { insertRows } from '../../db/insertRows.ts';

type Project = Models.Project;

/** The repository's `projects_mode` (Gitea ProjectsConfig): which projects its issues may use. */
export type ProjectsMode = 'repo' | 'owner' | 'all';

/** Which projects a repository's issues may join: its own (repo/all) and its owner's (owner/all), when the projects unit is on. */
export interface ProjectUsage {
  repoId: number;
  ownerId: number;
  repoProjects: boolean;
  ownerProjects: boolean;
}

/** Gitea's default title of the column that receives issues without one. */
export const DEFAULT_COLUMN_TITLE = 'Uncategorized';

/** The config's projects_mode; Gitea reads an unset or unknown mode as `all`. */
export function projectsModeOf(config: string | null | undefined): ProjectsMode {
  const mode = unitConfig(config).projectsMode;
  return mode === 'repo' || mode === 'owner' ? mode : 'all';
}

/** The repository's projects unit: null when disabled. */
export async function projectsUnit(db: DbLike, repoId: number): Promise<{ mode: ProjectsMode } | null> {
  const unit = await db.repoUnit.findUnique({ where: { repoId_type: { repoId, type: 'PROJECTS' } }, select: { config: true } });
  return unit ? { mode: projectsModeOf(unit.config) } : null;
}

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
    const queryable = added.filter(isDbId);
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
  if (comments.length) await insertRows(tx, 'Comment', comments);
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
