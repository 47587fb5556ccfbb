import { encodeGlobalID, resolveOffsetConnection } from '@pothos/plugin-relay';
import * as notificationService from '../../services/notification/notification.ts';
import type { NotificationThreadView } from '../../services/notification/notification.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { MUTATION_ERRORS } from '../errors.ts';
import { dbIdOf, opt } from '../ids.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { totalOf } from '../totalCount.ts';
import { RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';

const NotificationStatusEnum = builder.enumType('NotificationStatus', {
  description: 'The state of a notification thread.',
  values: { UNREAD: {}, READ: {}, PINNED: { description: 'Kept on the list until unpinned; new activity does not unpin it.' } },
});

const NotificationSubjectTypeEnum = builder.enumType('NotificationSubjectType', {
  description: 'What a notification thread is about.',
  values: { ISSUE: {}, PULL_REQUEST: {}, COMMIT: {}, REPOSITORY: {} },
});

const NotificationSubjectStateEnum = builder.enumType('NotificationSubjectState', {
  description: 'The state of the subject of an issue or pull request thread.',
  values: { OPEN: {}, CLOSED: {}, MERGED: {} },
});

const SUBJECT_QUERY = { ISSUE: 'issue', PULL_REQUEST: 'pull', COMMIT: 'commit', REPOSITORY: 'repository' } as const;

const issuePath = (v: NotificationThreadView, rootUrl: string): string | null =>
  v.repo && v.issue
    ? `${rootUrl}${encodeURIComponent(v.repo.ownerName)}/${encodeURIComponent(v.repo.name)}/${v.issue.isPull ? 'pulls' : 'issues'}/${v.issue.index}`
    : null;

/** A notification thread of the viewer (Gitea's NotificationThread). */
const NotificationThreadRef = builder.objectRef<NotificationThreadView>('NotificationThread').implement({
  description: 'A notification thread: one per user and subject, updated as the subject moves (as GET /api/v1/notifications).',
  fields: (t) => ({
    id: t.id({ description: 'The global id (mutations take it).', resolve: (v) => encodeGlobalID('NotificationThread', v.thread.id) }),
    databaseId: t.int({ description: 'The REST id.', resolve: (v) => v.thread.id }),
    status: t.field({ type: NotificationStatusEnum, resolve: (v) => v.thread.status }),
    unread: t.boolean({ resolve: (v) => v.thread.status === 'UNREAD' }),
    pinned: t.boolean({ resolve: (v) => v.thread.status === 'PINNED' }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.thread.updatedAt }),
    subjectType: t.field({ type: NotificationSubjectTypeEnum, resolve: (v) => v.thread.source }),
    title: t.string({
      description: 'The subject: the issue or pull request title, the commit sha, or owner/name.',
      resolve: (v) =>
        v.issue?.title ?? (v.thread.source === 'COMMIT' ? v.thread.commitId : v.repo ? `${v.repo.ownerName}/${v.repo.name}` : ''),
    }),
    subjectState: t.field({
      type: NotificationSubjectStateEnum,
      nullable: true,
      description: 'Open, closed or merged; null for commit and repository threads.',
      resolve: (v) => (v.issue ? (v.issue.merged ? 'MERGED' : v.issue.isClosed ? 'CLOSED' : 'OPEN') : null),
    }),
    subjectUrl: t.string({
      nullable: true,
      description: 'The web URL of the issue or pull request.',
      resolve: (v, _a, ctx) => issuePath(v, ctx.cx.config.rootUrl),
    }),
    latestCommentUrl: t.string({
      nullable: true,
      description: 'The web URL of the latest comment; null without comments.',
      resolve: (v, _a, ctx) => {
        const base = issuePath(v, ctx.cx.config.rootUrl);
        return base && v.latestCommentId !== null ? `${base}#issuecomment-${v.latestCommentId}` : null;
      },
    }),
    repository: t.field({
      type: RepositoryRef,
      nullable: true,
      description: "The subject's repository.",
      ...inherits('a thread is listed only while the notification read policy finds its subject readable'),
      resolve: (v) => v.repo,
    }),
  }),
});

builder.prismaObjectFields(UserRef, (t) => ({
  notificationThreads: t.connection(
    {
      type: NotificationThreadRef,
      nullable: true,
      description:
        "The viewer's notification threads, latest update first; unread and pinned ones unless `all` or `statuses` say otherwise (as GET /api/v1/notifications). Null for other users.",
      ...filteredBy('notificationReadWhere'),
      args: {
        all: t.arg.boolean({ description: 'Every status.' }),
        statuses: t.arg({ type: [NotificationStatusEnum] }),
        subjectTypes: t.arg({ type: [NotificationSubjectTypeEnum] }),
        since: t.arg({ type: 'DateTime', description: 'Only threads updated at or after this time.' }),
        before: t.arg({ type: 'DateTime', description: 'Only threads updated at or before this time.' }),
        repositoryOwner: t.arg.string({ description: 'With repositoryName: only the threads of this repository.' }),
        repositoryName: t.arg.string(),
      },
      resolve: async (user, args, ctx) => {
        if (ctx.cx.viewer?.id !== user.id) return null;
        let total = 0;
        const filter: notificationService.NotificationFilter = {
          all: args.all === true,
          statusTypes: args.statuses?.map((s) => s.toLowerCase()),
          subjectTypes: args.subjectTypes?.map((s) => SUBJECT_QUERY[s]),
          since: opt(args.since),
          before: opt(args.before),
          ...(args.repositoryOwner && args.repositoryName ? { repo: { owner: args.repositoryOwner, repo: args.repositoryName } } : {}),
        };
        const conn = await resolveOffsetConnection(
          { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
          async ({ offset, limit }) => {
            const page = await notificationService.listNotifications(ctx.cx, filter, { skip: offset, take: limit });
            total = page.total;
            return page.items;
          },
        );
        return { ...conn, total };
      },
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
  unreadNotificationCount: t.int({
    nullable: true,
    description: "The viewer's unread notification threads (as GET /api/v1/notifications/new); null for other users.",
    resolve: async (user, _args, ctx) => (ctx.cx.viewer?.id === user.id ? notificationService.countUnread(ctx.cx) : null),
  }),
}));

for (const [name, status] of [
  ['markNotificationAsRead', 'read'],
  ['markNotificationAsUnread', 'unread'],
  ['markNotificationAsPinned', 'pinned'],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ id: t.globalID({ required: true, description: 'The notification thread.' }) }) },
    {
      description: `Mark one of the viewer's notification threads ${status} (as PATCH /api/v1/notifications/threads/{id}?to-status=${status}).`,
      errors: { types: MUTATION_ERRORS },
      resolve: async (_root, { input }, ctx) => ({
        thread: await notificationService.markThread(ctx.cx, dbIdOf(input.id, 'NotificationThread'), status),
      }),
    },
    {
      outputFields: (t) => ({
        notificationThread: t.field({ type: NotificationThreadRef, ...checkedBy('markThread'), resolve: (p) => p.thread }),
      }),
    },
  );
}

builder.relayMutationField(
  'markAllNotificationsAsRead',
  {
    inputFields: (t) => ({
      lastReadAt: t.field({ type: 'DateTime', description: 'Only threads updated at or before this time.' }),
      repositoryOwner: t.string({ description: 'With repositoryName: only the threads of this repository.' }),
      repositoryName: t.string(),
    }),
  },
  {
    description:
      "Mark the viewer's unread notification threads read (as PUT /api/v1/notifications and /repos/{owner}/{repo}/notifications).",
    errors: { types: MUTATION_ERRORS },
    resolve: async (_root, { input }, ctx) => ({
      threads: await notificationService.markNotifications(ctx.cx, {
        ...(input.lastReadAt ? { lastReadAt: input.lastReadAt.toISOString() } : {}),
        ...(input.repositoryOwner && input.repositoryName ? { repo: { owner: input.repositoryOwner, repo: input.repositoryName } } : {}),
      }),
    }),
  },
  {
    outputFields: (t) => ({
      notificationThreads: t.field({
        type: [NotificationThreadRef],
        description: 'The threads marked read.',
        ...checkedBy('markNotifications'),
        resolve: (p) => p.threads,
      }),
    }),
  },
);
