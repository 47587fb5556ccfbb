import { z } from 'zod';
import * as notificationService from '../../../services/notification/notification.ts';
import { toApiNotificationThread, toApiNotificationThreadList } from '../../convert/notification.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { idParam, qBool, qRepeated, qString, qTime, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

const STATUS_HELP = 'unread, read and/or pinned';

/** The filters of the notification lists (Gitea getFindNotificationOptions); a bad time is a 422. */
const ListQuery = z.object({
  all: qBool('If true, show notifications marked as read. Default value is false'),
  'status-types': qRepeated(`Show notifications with the provided status types (${STATUS_HELP}). Defaults to unread & pinned.`),
  'subject-type': qRepeated('filter notifications by subject type', { type: 'string', enum: ['issue', 'pull', 'commit', 'repository'] }),
  since: qTime('Only show notifications updated after the given time. This is a timestamp in RFC 3339 format'),
  before: qTime('Only show notifications updated before the given time. This is a timestamp in RFC 3339 format'),
});

/** The selection of PUT …/notifications (Gitea ReadNotifications); `last_read_at` is parsed by the service (400). */
const MarkQuery = z.object({
  last_read_at: qString('Describes the last point that notifications were checked. Anything updated since this time will not be updated.'),
  all: qBool('If true, mark all notifications on this repo. Default value is false'),
  'status-types': qRepeated(`Mark notifications with the provided status types (${STATUS_HELP}). Defaults to unread.`),
  'to-status': qString('Status to mark notifications as, Defaults to read.'),
});

const ThreadQuery = z.object({ 'to-status': qString('Status to mark notifications as', { default: 'read' }) });

const filterOf = (q: z.output<typeof ListQuery>) => ({
  all: q.all === true,
  statusTypes: q['status-types'],
  subjectTypes: q['subject-type'],
  since: q.since,
  before: q.before,
});

const markOf = (q: z.output<typeof MarkQuery>) => ({
  all: q.all === true,
  statusTypes: q['status-types'],
  toStatus: q['to-status'],
  lastReadAt: q.last_read_at,
});

// Gitea answers these lists with X-Total-Count and no Link header (SetTotalCountHeader only).
/** /notifications…, /repos/{o}/{r}/notifications: the viewer's notification threads. */
export const notificationRoutes = [
  defineList({
    path: '/notifications',
    operationId: 'notifyGetList',
    summary: "List users's notification threads",
    tag: 'notification',
    scopes: ['notification'],
    gate: 'token',
    query: ListQuery,
    headers: 'count',
    schema: '[NotificationThread]',
    errors: [401, 403, 422],
    load: ({ cx, query, page }) => notificationService.listNotifications(cx, filterOf(query), page),
    convert: (result, { cx }) => toApiNotificationThreadList(result.items, convertOptions(cx)),
  }),
  defineRoute({
    method: 'PUT',
    path: '/notifications',
    operationId: 'notifyReadList',
    summary: 'Mark notification threads as read, pinned or unread',
    tag: 'notification',
    scopes: ['notification'],
    gate: 'token',
    query: MarkQuery,
    success: { status: 205, schema: '[NotificationThread]' },
    errors: [400, 401, 403],
    handler: async ({ cx, query }) =>
      toApiNotificationThreadList(await notificationService.markNotifications(cx, markOf(query)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/notifications/new',
    operationId: 'notifyNewAvailable',
    summary: 'Check if unread notifications exist',
    tag: 'notification',
    scopes: ['notification'],
    gate: 'token',
    success: { status: 200, schema: 'NotificationCount' },
    errors: [401, 403],
    handler: async ({ cx }) => ({ new: await notificationService.countUnread(cx) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/notifications/threads/{id}',
    operationId: 'notifyGetThread',
    summary: 'Get notification thread by ID',
    tag: 'notification',
    scopes: ['notification'],
    gate: 'token',
    success: { status: 200, schema: 'NotificationThread' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiNotificationThread(await notificationService.getThread(cx, idParam(params)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/notifications/threads/{id}',
    operationId: 'notifyReadThread',
    summary: 'Mark notification thread as read by ID',
    tag: 'notification',
    scopes: ['notification'],
    gate: 'token',
    query: ThreadQuery,
    success: { status: 205, schema: 'NotificationThread' },
    errors: [401, 403, 404],
    handler: async ({ cx, params, query }) =>
      toApiNotificationThread(await notificationService.markThread(cx, idParam(params), query['to-status']), convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/notifications',
    operationId: 'notifyGetRepoList',
    summary: "List users's notification threads on a specific repo",
    tag: 'notification',
    scopes: ['notification'],
    gate: 'none',
    query: ListQuery,
    headers: 'count',
    schema: '[NotificationThread]',
    errors: [401, 403, 404, 422],
    load: ({ cx, params, query, page }) => notificationService.listNotifications(cx, { ...filterOf(query), repo: repoRef(params) }, page),
    convert: (result, { cx }) => toApiNotificationThreadList(result.items, convertOptions(cx)),
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/notifications',
    operationId: 'notifyReadRepoList',
    summary: 'Mark notification threads as read, pinned or unread on a specific repo',
    tag: 'notification',
    scopes: ['notification'],
    gate: 'none',
    query: MarkQuery,
    success: { status: 205, schema: '[NotificationThread]' },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params, query }) =>
      toApiNotificationThreadList(
        await notificationService.markNotifications(cx, { ...markOf(query), repo: repoRef(params) }),
        convertOptions(cx),
      ),
  }),
];
