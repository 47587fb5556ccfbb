import type { DbLike, Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { canRead, canWrite, isRepoAdmin } from '../../permissions/repoPermission.ts';
import { unitConfig } from '../../permissions/units.ts';
import { isSiteAdmin, requireTokenScope, requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { requireRepo, requireRepoWrite, requireUnitRead, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';
import { canWriteIssue, findIssueByIndex, loadIssueViews, locateIssueById, type IssueView } from './issue.ts';
import { issueReadWhere } from './visibility.ts';

/** A repository's `internal_tracker` time settings (the issues unit's config). */
export interface TimeTracker {
  enabled: boolean;
  onlyContributors: boolean;
}

/** A tracked time row with its user (null once the user is deleted). */
export type TrackedTimeWithUser = Models.TrackedTime & { user: Models.User | null };

/** A tracked time with what its REST form needs: the user and the issue (bulk-loaded). */
export interface TrackedTimeView {
  time: Models.TrackedTime;
  user: Models.User | null;
  issue: IssueView | null;
}

/** Filters of the tracked-time lists (Gitea FindTrackedTimesOptions). */
export interface TrackedTimeFilters {
  /** Only this user's times (a login; unknown → 404). */
  user?: string;
  since?: Date;
  before?: Date;
}

/** POST /repos/{o}/{r}/issues/{index}/times (Gitea AddTimeOption). */
export interface AddTimeInput {
  /** Seconds; required and not 0 (negative amounts are accepted, as Gitea). */
  time?: number;
  /** When the work was done; now when absent. */
  created?: Date;
  /** Book the time for this user: honoured only for site admins and repository admins naming someone else. */
  userName?: string;
}

/** Gitea's defaults when a repository has no issues-unit config (DefaultEnableTimetracking, DefaultAllowOnlyContributorsToTrackTime). */
const DEFAULT_TRACKER: TimeTracker = { enabled: true, onlyContributors: true };
const MAX_SECONDS = 2_147_483_647;
const DISABLED = 'time tracking disabled';

function parseTracker(config: string | undefined): TimeTracker {
  if (config === undefined) return DEFAULT_TRACKER;
  const c = unitConfig(config);
  return {
    enabled: typeof c.enableTimetracker === 'boolean' ? c.enableTimetracker : DEFAULT_TRACKER.enabled,
    onlyContributors:
      typeof c.allowOnlyContributorsToTrackTime === 'boolean' ? c.allowOnlyContributorsToTrackTime : DEFAULT_TRACKER.onlyContributors,
  };
}

/** The time-tracker settings of many repositories in one query. */
export async function timeTrackersOf(db: DbLike, repoIds: readonly number[]): Promise<Map<number, TimeTracker>> {
  const ids = [...new Set(repoIds)];
  const units = ids.length
    ? await db.repoUnit.findMany({ where: { repoId: { in: ids }, type: 'ISSUES' }, select: { repoId: true, config: true } })
    : [];
  const byRepo = new Map(units.map((u) => [u.repoId, u.config]));
  return new Map(ids.map((id) => [id, parseTracker(byRepo.get(id))]));
}

/** The time-tracker settings of one repository (Gitea IsTimetrackerEnabled, AllowOnlyContributorsToTrackTime). */
export async function timeTrackerOf(db: DbLike, repoId: number): Promise<TimeTracker> {
  return (await timeTrackersOf(db, [repoId])).get(repoId) ?? DEFAULT_TRACKER;
}

/**
 * Gitea CanUseTimetracker: the tracker is enabled and, when only contributors may track time, the viewer writes
 * the issue's unit, posted the issue or is assigned to it. Disabled → 400 `time tracking disabled`; otherwise a
 * refusal is Gitea's bare 403.
 * @throws InvalidArgumentError, PermissionDeniedError
 */
export async function requireTimetracker(
  cx: ServiceContext,
  access: RepoAccess,
  issue: Models.Issue,
  viewer: Models.User,
): Promise<TimeTracker> {
  const tracker = await timeTrackerOf(cx.db, access.repo.id);
  if (!tracker.enabled) throw new InvalidArgumentError(DISABLED, { repoId: access.repo.id });
  if (!tracker.onlyContributors || canWriteIssue(access, issue) || issue.posterId === viewer.id) return tracker;
  const assigned = await cx.db.issueAssignee.findFirst({ where: { issueId: issue.id, assigneeId: viewer.id }, select: { id: true } });
  if (!assigned)
    throw new PermissionDeniedError('user may not track time on this issue', { issueId: issue.id, reason: 'TIME_TRACKING_NOT_ALLOWED' });
  return tracker;
}

/** The issue-scope gates of /issues/{index}/times: token scope, visible repository and unit (404), signed in (401). */
async function issueTimesAccess(
  cx: ServiceContext,
  ref: RepoRef,
  level: 'read' | 'write',
): Promise<{ access: RepoAccess; viewer: Models.User }> {
  requireTokenScope(cx, 'issue', level);
  const access = await resolveIssueRepo(cx, ref, 'read');
  if (level === 'write') requireRepoWrite(cx, access, 'write:issue');
  return { access, viewer: requireViewer(cx) };
}

/** Gitea's user filter: unknown → 404 with its ErrUserNotExist message. @throws NotFoundError */
async function userIdFilter(cx: ServiceContext, name: string | undefined): Promise<number | undefined> {
  if (!name) return undefined;
  const user = await findUserByName(cx.db, name);
  if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`, { name });
  return user.id;
}

/**
 * Gitea's `cantSetUser` rule for the tracked-time lists: site admins and writers of the issues unit see
 * everyone's times; others see their own (asking for someone else's → 403).
 * @throws PermissionDeniedError
 */
function visibleUserId(cx: ServiceContext, access: RepoAccess, viewer: Models.User, userId: number | undefined): number | undefined {
  if (isSiteAdmin(cx) || userId === viewer.id || canWrite(access.perm, 'ISSUES')) return userId;
  if (userId === undefined) return viewer.id;
  throw new PermissionDeniedError('query by user not allowed; not enough rights', { userId });
}

function timeWhere(f: { userId?: number; since?: Date; before?: Date }): Models.Prisma.TrackedTimeWhereInput {
  return {
    deleted: false,
    ...(f.userId !== undefined ? { userId: f.userId } : {}),
    ...(f.since || f.before ? { createdAt: { ...(f.since ? { gte: f.since } : {}), ...(f.before ? { lte: f.before } : {}) } } : {}),
  };
}

/** Loads users and issues (with their REST relations) for many tracked times in a constant number of queries. */
export async function loadTrackedTimeViews(db: DbLike, rows: readonly TrackedTimeWithUser[]): Promise<TrackedTimeView[]> {
  const issueIds = [...new Set(rows.map((r) => r.issueId))];
  const issues = issueIds.length ? await db.issue.findMany({ where: { id: { in: issueIds } } }) : [];
  const views = await loadIssueViews(db, issues);
  const byId = new Map(views.map((v) => [v.issue.id, v]));
  return rows.map(({ user, ...time }) => ({ time, user, issue: byId.get(time.issueId) ?? null }));
}

async function pageOfTimes(
  cx: ServiceContext,
  where: Models.Prisma.TrackedTimeWhereInput,
  page: ListOptions | null,
): Promise<Page<TrackedTimeView>> {
  const [rows, total] = await Promise.all([
    cx.db.trackedTime.findMany({ where, include: { user: true }, orderBy: { id: 'asc' }, ...(page ? skipTake(page) : {}) }),
    page ? cx.db.trackedTime.count({ where }) : Promise.resolve(-1),
  ]);
  return { items: await loadTrackedTimeViews(cx.db, rows), total: total < 0 ? rows.length : total };
}

/**
 * GET /repos/{o}/{r}/issues/{index}/times (Gitea ListTrackedTimes): signed in; a disabled tracker is 404
 * `Timetracker is disabled`; unknown issue or user 404; non-writers see only their own times.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listIssueTrackedTimes(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  filters: TrackedTimeFilters,
  page: ListOptions,
): Promise<Page<TrackedTimeView>> {
  const { access, viewer } = await issueTimesAccess(cx, ref, 'read');
  if (!(await timeTrackerOf(cx.db, access.repo.id)).enabled) throw new NotFoundError('Timetracker is disabled', { repoId: access.repo.id });
  const issue = await findIssueByIndex(cx, access, index);
  const userId = visibleUserId(cx, access, viewer, await userIdFilter(cx, filters.user));
  return pageOfTimes(cx, { issueId: issue.id, ...timeWhere({ ...filters, userId }) }, page);
}

/**
 * POST /repos/{o}/{r}/issues/{index}/times (Gitea AddTime): books time on the issue with an ADD_TIME_MANUAL
 * timeline comment (`|<seconds>`). Gates in Gitea's order: 404 repository, 401, 422 `time`, 404 issue,
 * 400 tracker disabled, bare 403 for non-contributors. No archived check, as Gitea.
 * @throws NotFoundError, UnauthenticatedError, ValidationError, InvalidArgumentError, PermissionDeniedError
 */
export async function addTrackedTime(cx: ServiceContext, ref: RepoRef, index: number, input: AddTimeInput): Promise<TrackedTimeView> {
  const { access, viewer } = await issueTimesAccess(cx, ref, 'write');
  const seconds = input.time ?? 0;
  if (seconds === 0) throw new ValidationError('Required', { field: 'time', rule: 'Required' });
  if (!Number.isSafeInteger(seconds) || Math.abs(seconds) > MAX_SECONDS)
    throw new ValidationError('Range', { field: 'time', rule: 'Range' });
  if (input.created && Number.isNaN(input.created.getTime())) throw new ValidationError('Invalid', { field: 'created', rule: 'Invalid' });
  const issue = await findIssueByIndex(cx, access, index);
  await requireTimetracker(cx, access, issue, viewer);
  let user = viewer;
  const name = input.userName;
  if (name && ((isRepoAdmin(access.perm) && viewer.name !== name) || isSiteAdmin(cx))) {
    const found = await findUserByName(cx.db, name);
    if (!found) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`, { name });
    user = found;
  }
  const row = await withTx(cx, async (tx, emit) => {
    const created = await tx.trackedTime.create({
      data: { issueId: issue.id, userId: user.id, time: seconds, createdAt: input.created ?? new Date() },
      include: { user: true },
    });
    await tx.comment.create({
      data: { type: 'ADD_TIME_MANUAL', posterId: user.id, issueId: issue.id, content: `|${seconds}`, timeId: created.id },
    });
    emit({
      type: 'trackedTime.added',
      trackedTimeId: created.id,
      issueId: issue.id,
      repoId: issue.repoId,
      userId: user.id,
      seconds,
      actorId: viewer.id,
    });
    return created;
  });
  const [view] = await loadTrackedTimeViews(cx.db, [row]);
  if (!view) throw new NotFoundError('tracked_time does not exist', { id: row.id });
  return view;
}

/**
 * DELETE /repos/{o}/{r}/issues/{index}/times (Gitea ResetIssueTime): marks the viewer's times on the issue deleted
 * and records one DELETE_TIME_MANUAL comment with their sum; nothing to reset → 404.
 * @throws NotFoundError, UnauthenticatedError, InvalidArgumentError, PermissionDeniedError
 */
export async function resetIssueTrackedTimes(cx: ServiceContext, ref: RepoRef, index: number): Promise<void> {
  const { access, viewer } = await issueTimesAccess(cx, ref, 'write');
  const issue = await findIssueByIndex(cx, access, index);
  await requireTimetracker(cx, access, issue, viewer);
  await withTx(cx, async (tx, emit) => {
    const where = { issueId: issue.id, userId: viewer.id, deleted: false };
    const sum = (await tx.trackedTime.aggregate({ where, _sum: { time: true } }))._sum.time ?? 0;
    if (sum === 0) throw new NotFoundError('tracked_time does not exist', { issueId: issue.id });
    await tx.trackedTime.updateMany({ where, data: { deleted: true } });
    await tx.comment.create({ data: { type: 'DELETE_TIME_MANUAL', posterId: viewer.id, issueId: issue.id, content: `|${sum}` } });
    emit({ type: 'trackedTime.deleted', issueId: issue.id, repoId: issue.repoId, userId: viewer.id, seconds: sum, actorId: viewer.id });
  });
}

/**
 * DELETE /repos/{o}/{r}/issues/{index}/times/{id} (Gitea DeleteTime): only its user or a site admin (bare 403);
 * the row is kept with `deleted = true` and a DELETE_TIME_MANUAL comment is recorded in its user's name.
 * @throws NotFoundError, UnauthenticatedError, InvalidArgumentError, PermissionDeniedError
 */
export async function deleteTrackedTime(cx: ServiceContext, ref: RepoRef, index: number, id: number): Promise<void> {
  const { access, viewer } = await issueTimesAccess(cx, ref, 'write');
  const issue = await findIssueByIndex(cx, access, index);
  await requireTimetracker(cx, access, issue, viewer);
  const time = Number.isSafeInteger(id) && id > 0 ? await cx.db.trackedTime.findFirst({ where: { id, issueId: issue.id } }) : null;
  if (!time) throw new NotFoundError(`tracked_time does not exist [id: ${id}]`, { id });
  if (time.deleted) throw new NotFoundError('tracked time was already deleted', { id });
  if (!isSiteAdmin(cx) && time.userId !== viewer.id)
    throw new PermissionDeniedError('not the owner of the tracked time', { id, reason: 'NOT_TIME_OWNER' });
  await withTx(cx, async (tx, emit) => {
    const { count } = await tx.trackedTime.updateMany({ where: { id: time.id, deleted: false }, data: { deleted: true } });
    if (count === 0) throw new NotFoundError('tracked time was already deleted', { id });
    await tx.comment.create({ data: { type: 'DELETE_TIME_MANUAL', posterId: time.userId, issueId: issue.id, content: `|${time.time}` } });
    emit({
      type: 'trackedTime.deleted',
      issueId: issue.id,
      repoId: issue.repoId,
      userId: time.userId,
      seconds: time.time,
      actorId: viewer.id,
    });
  });
}

/**
 * Gitea's `/repos/{o}/{r}/times` group: repository scope, visible repository and issues unit (404), signed in
 * (401), then a disabled tracker → 400.
 */
async function repoTimesAccess(cx: ServiceContext, ref: RepoRef): Promise<{ access: RepoAccess; viewer: Models.User }> {
  requireTokenScope(cx, 'repository', 'read');
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'ISSUES');
  const viewer = requireViewer(cx);
  if (!(await timeTrackerOf(cx.db, access.repo.id)).enabled) throw new InvalidArgumentError(DISABLED, { repoId: access.repo.id });
  return { access, viewer };
}

/** Times of the repository's issues, and of its pull requests only when the viewer may read them. */
function repoIssueWhere(access: RepoAccess): Models.Prisma.IssueWhereInput {
  return { repoId: access.repo.id, ...(canRead(access.perm, 'PULL_REQUESTS') ? {} : { isPull: false }) };
}

/**
 * GET /repos/{o}/{r}/times (Gitea ListTrackedTimesByRepository): filters user/since/before, paginated; non-writers
 * see only their own. @throws NotFoundError, UnauthenticatedError, InvalidArgumentError, PermissionDeniedError
 */
export async function listRepoTrackedTimes(
  cx: ServiceContext,
  ref: RepoRef,
  filters: TrackedTimeFilters,
  page: ListOptions,
): Promise<Page<TrackedTimeView>> {
  const { access, viewer } = await repoTimesAccess(cx, ref);
  const userId = visibleUserId(cx, access, viewer, await userIdFilter(cx, filters.user));
  return pageOfTimes(cx, { issue: repoIssueWhere(access), ...timeWhere({ ...filters, userId }) }, page);
}

/**
 * GET /repos/{o}/{r}/times/{user} (deprecated; Gitea ListTrackedTimesByUser): that user's times in the repository,
 * not paginated; only the user, repository admins and site admins may ask (403).
 * @throws NotFoundError, UnauthenticatedError, InvalidArgumentError, PermissionDeniedError
 */
export async function listUserTrackedTimesInRepo(cx: ServiceContext, ref: RepoRef, username: string): Promise<TrackedTimeView[]> {
  const { access, viewer } = await repoTimesAccess(cx, ref);
  const userId = (await userIdFilter(cx, username)) ?? 0;
  if (!isRepoAdmin(access.perm) && !isSiteAdmin(cx) && viewer.id !== userId) {
    throw new PermissionDeniedError('query by user not allowed; not enough rights', { userId });
  }
  return (await pageOfTimes(cx, { issue: repoIssueWhere(access), ...timeWhere({ userId }) }, null)).items;
}

/**
 * GET /user/times (Gitea ListMyTrackedTimes): the viewer's times everywhere (on issues they can still see),
 * filters since/before, paginated. @throws UnauthenticatedError, PermissionDeniedError
 */
export async function listMyTrackedTimes(
  cx: ServiceContext,
  filters: Omit<TrackedTimeFilters, 'user'>,
  page: ListOptions,
): Promise<Page<TrackedTimeView>> {
  requireTokenScope(cx, 'user', 'read');
  const viewer = requireViewer(cx);
  return pageOfTimes(cx, { issue: issueReadWhere(cx), ...timeWhere({ ...filters, userId: viewer.id }) }, page);
}

/** Adds time to an issue named by id (GraphQL addTrackedTime; the REST rules). @throws as addTrackedTime */
export async function addTrackedTimeById(cx: ServiceContext, issueId: number, input: AddTimeInput): Promise<TrackedTimeView> {
  const { ref, index } = await locateIssueById(cx, issueId);
  return addTrackedTime(cx, ref, index, input);
}

/** Resets the viewer's times on an issue named by id (GraphQL resetTrackedTimes). @throws as resetIssueTrackedTimes */
export async function resetTrackedTimesById(cx: ServiceContext, issueId: number): Promise<void> {
  const { ref, index } = await locateIssueById(cx, issueId);
  await resetIssueTrackedTimes(cx, ref, index);
}

/**
 * Deletes a tracked time named only by its id (GraphQL deleteTrackedTime; the REST rules); returns its issue's id.
 * @throws as deleteTrackedTime
 */
export async function deleteTrackedTimeById(cx: ServiceContext, id: number): Promise<number> {
  const row =
    Number.isSafeInteger(id) && id > 0
      ? await cx.db.trackedTime.findFirst({ where: { id, issue: issueReadWhere(cx) }, select: { issueId: true } })
      : null;
  const { ref, index } = await locateIssueById(cx, row?.issueId ?? 0);
  await deleteTrackedTime(cx, ref, index, id);
  return row?.issueId ?? 0;
}
