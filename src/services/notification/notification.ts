// Notification threads of the viewer: list, count, read and mark (Gitea routers/api/v1/notify/*).
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { isSiteAdmin, requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireRepo, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { loadApiRepos, type ApiRepoRow } from '../repo/repoRows.ts';
import { notificationReadWhere, notificationSubjectWhere } from './visibility.ts';
import { isDbId } from '../dbId.ts';

type Where = Models.Prisma.NotificationWhereInput;
type Status = Models.NotificationStatus;
type Source = Models.NotificationSource;

/** A thread with what its Gitea JSON needs, loaded in bulk. */
export interface NotificationThreadView {
  thread: Models.Notification;
  /** Null when the repository is gone from the viewer's sight. */
  repo: ApiRepoRow | null;
  issue: (Pick<Models.Issue, 'index' | 'title' | 'isPull' | 'isClosed'> & { merged: boolean }) | null;
  /** The issue's latest plain comment (Gitea GetLastComment), if any. */
  latestCommentId: number | null;
}

/** Which threads a list or a mark selects (strings as Gitea's query: trimmed, case-insensitive, unknown dropped). */
export interface NotificationFilter {
  /** Every status (the status filter is ignored). */
  all?: boolean;
  /** `unread`, `read`, `pinned`; the default depends on the operation. */
  statusTypes?: readonly string[];
  /** `issue`, `pull`, `commit`, `repository`. */
  subjectTypes?: readonly string[];
  since?: Date;
  before?: Date;
  /** Only the threads of this repository. */
  repo?: RepoRef;
}

/** How to mark threads (PUT /notifications and /repos/{o}/{r}/notifications). */
export interface MarkNotificationsInput {
  all?: boolean;
  statusTypes?: readonly string[];
  /** `unread`, `read` or `pinned`; anything else marks read. */
  toStatus?: string;
  /** RFC 3339: only threads updated at or before it change; an unparsable value is InvalidArgument (400). */
  lastReadAt?: string;
  repo?: RepoRef;
}

const STATUSES: Record<string, Status> = { unread: 'UNREAD', read: 'READ', pinned: 'PINNED' };
const SOURCES: Record<string, Source> = { issue: 'ISSUE', pull: 'PULL_REQUEST', commit: 'COMMIT', repository: 'REPOSITORY' };
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Gitea statusStringToNotificationStatus: trimmed, case-insensitive; null when unknown. */
export function parseStatus(s: string | undefined): Status | null {
  return STATUSES[(s ?? '').trim().toLowerCase()] ?? null;
}

/** Gitea statusStringsToNotificationStatuses: the defaults when none is given, unknown ones dropped. */
function parseStatuses(given: readonly string[] | undefined, defaults: readonly string[]): Status[] {
  const list = given?.length ? given : defaults;
  return [...new Set(list.map(parseStatus).filter((s): s is Status => s !== null))];
}

/** The gate of /notifications: token scope `notification`, no public-only token, a signed-in viewer. */
function requireNotificationViewer(cx: ServiceContext, level: 'read' | 'write'): Models.User {
  requireTokenScope(cx, 'notification', level);
  if (cx.auth.scope?.publicOnly) throw new PermissionDeniedError('this endpoint is not available for public-only tokens');
  return requireViewer(cx);
}

/** The repository filter of the repository routes: visible repository (404) before a signed-in viewer (401). */
async function repoFilter(cx: ServiceContext, level: 'read' | 'write', ref: RepoRef | undefined): Promise<Where> {
  if (!ref) {
    requireNotificationViewer(cx, level);
    return {};
  }
  requireTokenScope(cx, 'notification', level);
  const { repo } = await requireRepo(cx, ref.owner, ref.repo);
  requireViewer(cx);
  return { repoId: repo.id };
}

/** The status, subject and time filters of a list (GET /notifications; the graph's notificationThreads) as a filter. */
export function notificationFilterWhere(f: NotificationFilter): Where {
  const where: Where = {};
  if (!f.all) {
    const statuses = parseStatuses(f.statusTypes, ['unread', 'pinned']);
    if (statuses.length) where.status = { in: statuses };
  }
  const sources = [...new Set((f.subjectTypes ?? []).map((s) => SOURCES[s.trim().toLowerCase()]).filter((s) => s !== undefined))];
  if (sources.length) where.source = { in: sources };
  if (f.since || f.before)
    where.updatedAt = { ...(f.since ? { gte: wholeSecond(f.since) } : {}), ...(f.before ? atOrBefore(f.before) : {}) };
  return where;
}

/** Gitea compares Unix seconds: a time's whole second. */
const wholeSecond = (d: Date): Date => new Date(Math.floor(d.getTime() / 1000) * 1000);

/** `updated_unix <= t` in Gitea's seconds: before the next whole second. */
const atOrBefore = (d: Date): { lt: Date } => ({ lt: new Date(wholeSecond(d).getTime() + 1000) });

/** Loads what the converters need for many threads in a constant number of queries, keeping the order. */
export async function loadThreadViews(cx: ServiceContext, threads: readonly Models.Notification[]): Promise<NotificationThreadView[]> {
  if (!threads.length) return [];
  const repoIds = [...new Set(threads.map((t) => t.repoId))];
  const issueIds = [...new Set(threads.flatMap((t) => (t.issueId === null ? [] : [t.issueId])))];
  const [repos, issues, latest] = await Promise.all([
    loadApiRepos(cx, { where: { id: { in: repoIds } } }),
    issueIds.length
      ? cx.db.issue.findMany({
          where: { id: { in: issueIds } },
          select: { id: true, index: true, title: true, isPull: true, isClosed: true, pullRequest: { select: { hasMerged: true } } },
        })
      : [],
    issueIds.length
      ? cx.db.comment.groupBy({ by: ['issueId'], where: { issueId: { in: issueIds }, type: 'COMMENT' }, _max: { id: true } })
      : [],
  ]);
  const repoById = new Map(repos.map((r) => [r.id, r]));
  const issueById = new Map(issues.map((i) => [i.id, i]));
  const latestOf = new Map(latest.map((l) => [l.issueId, l._max.id]));
  return threads.map((thread) => {
    const issue = thread.issueId === null ? undefined : issueById.get(thread.issueId);
    return {
      thread,
      repo: repoById.get(thread.repoId) ?? null,
      issue: issue
        ? {
            index: issue.index,
            title: issue.title,
            isPull: issue.isPull,
            isClosed: issue.isClosed,
            merged: issue.pullRequest?.hasMerged === true,
          }
        : null,
      latestCommentId: thread.issueId === null ? null : (latestOf.get(thread.issueId) ?? null),
    };
  });
}

/**
 * GET /notifications and /repos/{o}/{r}/notifications (Gitea ListNotifications): the viewer's readable threads,
 * newest update first; by default the unread and pinned ones.
 * @throws UnauthenticatedError, PermissionDeniedError (token scope, public-only token), NotFoundError (repository)
 */
export async function listNotifications(
  cx: ServiceContext,
  filter: NotificationFilter,
  opts: ListOptions | ListWindow,
): Promise<Page<NotificationThreadView>> {
  const byRepo = await repoFilter(cx, 'read', filter.repo);
  const where: Where = { AND: [notificationReadWhere(cx), byRepo, notificationFilterWhere(filter)] };
  const [rows, total] = await Promise.all([
    cx.db.notification.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], ...skipTake(opts) }),
    cx.db.notification.count({ where }),
  ]);
  return { items: await loadThreadViews(cx, rows), total };
}

/** GET /notifications/new (Gitea NewAvailable): the number of the viewer's unread readable threads. @throws UnauthenticatedError, PermissionDeniedError */
export async function countUnread(cx: ServiceContext): Promise<number> {
  requireNotificationViewer(cx, 'read');
  return cx.db.notification.count({ where: { AND: [notificationReadWhere(cx), { status: 'UNREAD' }] } });
}

/**
 * A thread by id (Gitea getThread): unknown or unreadable → NotFound; another user's → PermissionDenied, except
 * that site admins may read (`forWrite` false) any thread.
 */
async function requireThread(cx: ServiceContext, id: number, forWrite: boolean): Promise<Models.Notification> {
  const viewer = requireNotificationViewer(cx, forWrite ? 'write' : 'read');
  const row = isDbId(id) ? await cx.db.notification.findUnique({ where: { id } }) : null;
  if (!row) throw new NotFoundError(`notification does not exist [id: ${id}]`, { id });
  if (row.userId !== viewer.id && (forWrite || !isSiteAdmin(cx))) {
    throw new PermissionDeniedError(`only user itself and admin are allowed to read/change this thread ${row.id}`, { id });
  }
  const readable = await cx.db.notification.count({ where: { id, ...notificationSubjectWhere(cx) } });
  if (!readable) throw new NotFoundError(`notification does not exist [id: ${id}]`, { id });
  return row;
}

/** GET /notifications/threads/{id}. @throws NotFoundError, PermissionDeniedError, UnauthenticatedError */
export async function getThread(cx: ServiceContext, id: number): Promise<NotificationThreadView> {
  const [view] = await loadThreadViews(cx, [await requireThread(cx, id, false)]);
  return view!;
}

/**
 * PATCH /notifications/threads/{id} (Gitea ReadThread): sets the viewer's thread to `toStatus` (read by default
 * or when unknown) and bumps its update time. @throws NotFoundError, PermissionDeniedError, UnauthenticatedError
 */
export async function markThread(cx: ServiceContext, id: number, toStatus: string | undefined): Promise<NotificationThreadView> {
  const row = await requireThread(cx, id, true);
  const updated = await cx.db.notification.update({
    where: { id: row.id },
    data: { status: parseStatus(toStatus) ?? 'READ', updatedAt: new Date() },
  });
  const [view] = await loadThreadViews(cx, [updated]);
  return view!;
}

/** Go's time.Parse(RFC3339) of `last_read_at`, with its error text. @throws InvalidArgumentError */
function parseLastReadAt(raw: string | undefined): Date | null {
  const s = (raw ?? '').trim();
  if (!s) return null;
  const d = new Date(s);
  if (!RFC3339.test(s) || Number.isNaN(d.getTime())) {
    throw new InvalidArgumentError(
      `parsing time "${s.slice(0, 64)}" as "2006-01-02T15:04:05Z07:00": cannot parse "${s.slice(0, 64)}" as "2006"`,
      {
        lastReadAt: s,
      },
    );
  }
  return d;
}

/**
 * PUT /notifications and /repos/{o}/{r}/notifications (Gitea ReadNotifications, ReadRepoNotifications): sets
 * the selected threads (default: unread ones; `all`: every status; `lastReadAt`: only those updated at or
 * before it) to `toStatus` (read by default), bumping their update time; returns them in their new state.
 * @throws InvalidArgumentError (last_read_at), UnauthenticatedError, PermissionDeniedError, NotFoundError (repository)
 */
export async function markNotifications(cx: ServiceContext, input: MarkNotificationsInput): Promise<NotificationThreadView[]> {
  const lastReadAt = parseLastReadAt(input.lastReadAt);
  const byRepo = await repoFilter(cx, 'write', input.repo);
  const where: Where = { AND: [notificationReadWhere(cx), byRepo] };
  if (!input.all) {
    const statuses = parseStatuses(input.statusTypes, ['unread']);
    if (statuses.length) (where.AND as Where[]).push({ status: { in: statuses } });
  }
  if (lastReadAt) (where.AND as Where[]).push({ updatedAt: atOrBefore(lastReadAt) });
  const selected = await cx.db.notification.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], select: { id: true } });
  if (!selected.length) return [];
  const ids = selected.map((s) => s.id);
  await cx.db.notification.updateMany({
    where: { id: { in: ids } },
    data: { status: parseStatus(input.toStatus) ?? 'READ', updatedAt: new Date() },
  });
  const rows = await cx.db.notification.findMany({ where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return loadThreadViews(
    cx,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}
