import { encodeGlobalID } from '@pothos/plugin-relay';
import * as notificationService from '../../services/notification/notification.ts';
import { notificationReadWhere } from '../../services/notification/visibility.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbIdOf, opt } from '../ids.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
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

type SubjectRow = { repo: { ownerName: string; name: string }; issue: { index: number; isPull: boolean } | null };

const subjectPath = (n: SubjectRow, rootUrl: string): string | null =>
  n.issue
    ? `${rootUrl}${encodeURIComponent(n.repo.ownerName)}/${encodeURIComponent(n.repo.name)}/${n.issue.isPull ? 'pulls' : 'issues'}/${n.issue.index}`
    : null;

const REPO_NAME = { repo: { select: { ownerName: true, name: true } } } as const;

/** A notification thread of the viewer (Gitea's NotificationThread). */
const NotificationThreadRef = builder.prismaObject('Notification', {
  name: 'NotificationThread',
  description: 'A notification thread: one per user and subject, updated as the subject moves (as GET /api/v1/notifications).',
  fields: (t) => ({
    id: t.id({ description: 'The global id (mutations take it).', resolve: (n) => encodeGlobalID('NotificationThread', n.id) }),
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    status: t.field({ type: NotificationStatusEnum, resolve: (n) => n.status }),
    unread: t.boolean({ resolve: (n) => n.status === 'UNREAD' }),
    pinned: t.boolean({ resolve: (n) => n.status === 'PINNED' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    subjectType: t.field({ type: NotificationSubjectTypeEnum, resolve: (n) => n.source }),
    title: t.string({
      description: 'The subject: the issue or pull request title, the commit sha, or owner/name.',
      select: { commitId: true, issue: { select: { title: true } }, ...REPO_NAME },
      resolve: (n) => n.issue?.title ?? (n.source === 'COMMIT' ? n.commitId : `${n.repo.ownerName}/${n.repo.name}`),
    }),
    subjectState: t.field({
      type: NotificationSubjectStateEnum,
      nullable: true,
      description: 'Open, closed or merged; null for commit and repository threads.',
      select: { issue: { select: { isClosed: true, pullRequest: { select: { hasMerged: true } } } } },
      resolve: (n) => (n.issue ? (n.issue.pullRequest?.hasMerged ? 'MERGED' : n.issue.isClosed ? 'CLOSED' : 'OPEN') : null),
    }),
    subjectUrl: t.string({
      nullable: true,
      description: 'The web URL of the issue or pull request.',
      select: { issue: { select: { index: true, isPull: true } }, ...REPO_NAME },
      resolve: (n, _a, ctx) => subjectPath(n, ctx.cx.config.rootUrl),
    }),
    latestCommentUrl: t.string({
      nullable: true,
      description: 'The web URL of the latest comment; null without comments.',
      select: {
        issue: {
          select: {
            index: true,
            isPull: true,
            comments: { where: { type: 'COMMENT' as const }, orderBy: { id: 'desc' as const }, take: 1, select: { id: true } },
          },
        },
        ...REPO_NAME,
      },
      resolve: (n, _a, ctx) => {
        const base = subjectPath(n, ctx.cx.config.rootUrl);
        const latest = n.issue?.comments[0];
        return base && latest ? `${base}#issuecomment-${latest.id}` : null;
      },
    }),
    repository: t.relation('repo', {
      type: RepositoryRef,
      description: "The subject's repository.",
      ...inherits('a thread is listed only while the notification read policy finds its subject readable'),
    }),
  }),
});

builder.prismaObjectFields(UserRef, (t) => ({
  notificationThreads: t.relatedConnection('notifications', {
    cursor: 'id',
    totalCount: true,
    description:
      "The viewer's notification threads, latest update first; unread and pinned ones unless `all` or `statuses` say otherwise (as GET /api/v1/notifications). Empty for other users.",
    authScopes: { tokenRead: 'notification' },
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
    query: (args, ctx) => {
      const filter = notificationService.notificationFilterWhere({
        all: args.all === true,
        statusTypes: args.statuses?.map((s) => s.toLowerCase()),
        subjectTypes: args.subjectTypes?.map((s) => SUBJECT_QUERY[s]),
        since: opt(args.since),
        before: opt(args.before),
      });
      const byRepo =
        args.repositoryOwner && args.repositoryName
          ? { repo: { lowerName: args.repositoryName.toLowerCase(), owner: { lowerName: args.repositoryOwner.toLowerCase() } } }
          : {};
      return {
        where: { AND: [notificationReadWhere(ctx.cx), filter, byRepo] },
        orderBy: [{ updatedAt: 'desc' as const }, { id: 'desc' as const }],
      };
    },
  }),
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
      ...writeScope('notification'),
      resolve: async (_root, { input }, ctx) => ({
        thread: (await notificationService.markThread(ctx.cx, dbIdOf(input.id, 'NotificationThread'), status)).thread,
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
    ...writeScope('notification'),
    resolve: async (_root, { input }, ctx) => ({
      threads: (
        await notificationService.markNotifications(ctx.cx, {
          ...(input.lastReadAt ? { lastReadAt: input.lastReadAt.toISOString() } : {}),
          ...(input.repositoryOwner && input.repositoryName ? { repo: { owner: input.repositoryOwner, repo: input.repositoryName } } : {}),
        })
      ).map((v) => v.thread),
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
