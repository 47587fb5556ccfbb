// The jobs and runs lists (Gitea routers/api/v1/shared/action.go ListJobs / ListRuns), loaded in a fixed number
// of statements per page: jobs with their run's ref, task, runner and steps; runs with their actor and repository.
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, ValidationError } from '../../errors.ts';
import { requireSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { loadApiRepos, withPermissions, type RepoWithPermission } from '../repo/repoRows.ts';
import { statusesOfFilter } from './status.ts';

export const JOB_INCLUDE = {
  run: { select: { ref: true, index: true, workflowId: true, repo: { select: { ownerName: true, name: true } } } },
  task: { include: { runner: { select: { id: true, name: true } }, steps: { orderBy: { index: 'asc' } } } },
} as const satisfies Models.Prisma.ActionRunJobInclude;

/** A job with what its JSON shows. */
export type JobView = Models.Prisma.ActionRunJobGetPayload<{ include: typeof JOB_INCLUDE }>;

/** A run with its actor and (when the viewer may read it) its repository. */
export type RunView = Models.ActionRun & { triggerUser: Models.User | null; repoView: RepoWithPermission | null };

/** Repeated `status` values → internal statuses. @throws InvalidArgumentError "invalid status <x>" */
export function statusFilter(values: readonly string[]): Models.ActionStatus[] | null {
  const wanted = values.filter(Boolean);
  if (!wanted.length) return null;
  return wanted.flatMap((v) => {
    const s = statusesOfFilter(v);
    if (!s) throw new InvalidArgumentError(`invalid status ${v}`);
    return s;
  });
}

/** Gitea ResolveSortOrder for the jobs list: only `id`, asc or desc. @throws ValidationError (422) */
function jobOrder(sort: string, order: string): 'asc' | 'desc' {
  if (!sort) return 'asc';
  if (sort !== 'id') throw new ValidationError(`Invalid sort mode: "${sort}"`);
  if (order && order !== 'asc' && order !== 'desc') throw new ValidationError(`Invalid sort order: "${order}"`);
  return order === 'desc' ? 'desc' : 'asc';
}

export interface JobFilter {
  status: readonly string[];
  sort: string;
  order: string;
}

/** GET /admin/actions/jobs: every job, oldest id first unless `sort=id&order=desc`. */
export async function listAdminJobs(cx: ServiceContext, filter: JobFilter, page: ListOptions): Promise<Page<JobView>> {
  requireSiteAdmin(cx, 'read');
  return listJobs(cx, {}, filter, page);
}

/** Jobs within `scope` (a repository, a run), filtered and ordered as Gitea's ListJobs. */
export async function listJobs(
  cx: ServiceContext,
  scope: Models.Prisma.ActionRunJobWhereInput,
  filter: JobFilter,
  page: ListOptions,
): Promise<Page<JobView>> {
  const statuses = statusFilter(filter.status);
  const direction = jobOrder(filter.sort, filter.order);
  const where: Models.Prisma.ActionRunJobWhereInput = { ...scope, ...(statuses ? { status: { in: statuses } } : {}) };
  const [items, total] = await Promise.all([
    cx.db.actionRunJob.findMany({ where, include: JOB_INCLUDE, orderBy: { id: direction }, ...skipTake(page) }),
    cx.db.actionRunJob.count({ where }),
  ]);
  return { items, total };
}

export interface RunFilter {
  event: string;
  branch: string;
  status: readonly string[];
  actor: string;
  headSha: string;
}

/**
 * The where of Gitea ListRuns' column filters (`event`, `branch`, repeated `status`, `head_sha`), for every door
 * that lists runs (the actor filter needs a lookup: listRuns).
 * @throws InvalidArgumentError "invalid status <x>" (REST's 400)
 */
export function runFilterWhere(filter: Partial<Omit<RunFilter, 'actor'>>): Models.Prisma.ActionRunWhereInput {
  const where: Models.Prisma.ActionRunWhereInput = {};
  const statuses = statusFilter(filter.status ?? []);
  if (filter.event) where.event = filter.event;
  if (filter.branch) where.ref = `refs/heads/${filter.branch}`;
  if (statuses) where.status = { in: statuses };
  if (filter.headSha) where.commitSha = filter.headSha;
  return where;
}

/** GET /admin/actions/runs: newest first. */
export async function listAdminRuns(cx: ServiceContext, filter: RunFilter, page: ListOptions): Promise<Page<RunView>> {
  requireSiteAdmin(cx, 'read');
  return listRuns(cx, {}, filter, page);
}

/** Runs within `scope` (a repository, a workflow), newest first, filtered as Gitea's ListRuns. */
export async function listRuns(
  cx: ServiceContext,
  scope: Models.Prisma.ActionRunWhereInput,
  filter: RunFilter,
  page: ListOptions,
): Promise<Page<RunView>> {
  const where: Models.Prisma.ActionRunWhereInput = { ...scope, ...runFilterWhere(filter) };
  if (filter.actor) {
    const actor = await cx.db.user.findFirst({ where: { lowerName: filter.actor.toLowerCase() }, select: { id: true } });
    if (!actor) throw new NotFoundError(`user does not exist [uid: 0, name: ${filter.actor}]`);
    where.triggerUserId = actor.id;
  }
  const [rows, total] = await Promise.all([
    cx.db.actionRun.findMany({ where, include: { triggerUser: true }, orderBy: { id: 'desc' }, ...skipTake(page) }),
    cx.db.actionRun.count({ where }),
  ]);
  return { items: await withRepos(cx, rows), total };
}

/** One job with what its JSON shows; null when it is not in `scope`. */
export function findJob(cx: ServiceContext, scope: Models.Prisma.ActionRunJobWhereInput): Promise<JobView | null> {
  return cx.db.actionRunJob.findFirst({ where: scope, include: JOB_INCLUDE });
}

/** One run with its actor and repository; null when it is not in `scope`. */
export async function findRun(cx: ServiceContext, scope: Models.Prisma.ActionRunWhereInput): Promise<RunView | null> {
  const row = await cx.db.actionRun.findFirst({ where: scope, include: { triggerUser: true } });
  return row ? ((await withRepos(cx, [row]))[0] ?? null) : null;
}

/** Attaches each run's repository as the viewer may see it (one batched load). */
async function withRepos(
  cx: ServiceContext,
  rows: ReadonlyArray<Models.ActionRun & { triggerUser: Models.User | null }>,
): Promise<RunView[]> {
  const ids = [...new Set(rows.map((r) => r.repoId))];
  const repos = ids.length ? await withPermissions(cx, await loadApiRepos(cx, { where: { id: { in: ids } } })) : [];
  const byId = new Map(repos.map((r) => [r.repo.id, r]));
  return rows.map((r) => ({ ...r, repoView: byId.get(r.repoId) ?? null }));
}
