// GraphQL subscriptions (served over Server-Sent Events by Yoga): issueEvents, pullRequestEvents, notificationReceived.
import * as liveService from '../../services/issue/liveEvents.ts';
import { commentReadWhere } from '../../services/issue/visibility.ts';
import { pullReadWhere } from '../../services/pull/visibility.ts';
import { repoReadWhere } from '../../services/repo/visibility.ts';
import { userReadWhere } from '../../services/user/visibility.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { limitedStream } from '../limits/subscriptions.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { IssueRef } from './issue.ts';
import { IssueCommentRef } from './issueComment.ts';
import { PullRequestRef } from './pullRequest.ts';
import { RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';

builder.subscriptionType({
  description: 'Live updates, over Server-Sent Events (graphql-sse distinct connections: one subscription per request).',
});

export const IssueEventActionEnum = builder.enumType('IssueEventAction', {
  description: 'What happened to an issue or pull request.',
  values: ['CREATED', 'EDITED', 'CLOSED', 'REOPENED', 'COMMENTED', 'LABELED', 'MERGED', 'REVIEWED'] as const,
});

type Ctx = GraphQLContext;

/** The actor of an event, if the viewer may see that account. */
const actorOf = (e: liveService.IssueLiveEvent, ctx: Ctx) =>
  ctx.cx.db.user.findFirst({ where: { id: e.actorId, AND: [userReadWhere(ctx.cx)] } });
/** The comment an event added (COMMENTED, REVIEWED), under the comment read policy. */
const commentOf = (e: liveService.IssueLiveEvent, ctx: Ctx) =>
  e.commentId === null ? null : ctx.cx.db.comment.findFirst({ where: { id: e.commentId, AND: [commentReadWhere(ctx.cx)] } });

export const IssueEventRef = builder.objectRef<liveService.IssueLiveEvent>('IssueEvent').implement({
  description: 'A change to an issue, as issueEvents delivers it.',
  fields: (t) => ({
    action: t.field({ type: IssueEventActionEnum, resolve: (e) => e.action }),
    issue: t.field({
      type: IssueRef,
      description: 'The issue as it is now.',
      ...inherits('watchIssueEvents delivers only issues the viewer may read at the time of the event (issueReadWhere)'),
      resolve: (e) => e.issue,
    }),
    actor: t.field({ type: UserRef, nullable: true, ...filteredBy('userReadWhere'), resolve: (e, _a, ctx) => actorOf(e, ctx) }),
    comment: t.field({
      type: IssueCommentRef,
      nullable: true,
      ...filteredBy('commentReadWhere'),
      resolve: (e, _a, ctx) => commentOf(e, ctx),
    }),
  }),
});

export const PullRequestEventRef = builder.objectRef<liveService.IssueLiveEvent>('PullRequestEvent').implement({
  description: 'A change to a pull request, as pullRequestEvents delivers it.',
  fields: (t) => ({
    action: t.field({ type: IssueEventActionEnum, resolve: (e) => e.action }),
    pullRequest: t.field({
      type: PullRequestRef,
      description: 'The pull request as it is now.',
      ...filteredBy('pullReadWhere'),
      resolve: async (e, _a, ctx) =>
        ctx.cx.db.pullRequest.findFirstOrThrow({ where: { issueId: e.issue.id, AND: [pullReadWhere(ctx.cx)] } }),
    }),
    actor: t.field({ type: UserRef, nullable: true, ...filteredBy('userReadWhere'), resolve: (e, _a, ctx) => actorOf(e, ctx) }),
    comment: t.field({
      type: IssueCommentRef,
      nullable: true,
      ...filteredBy('commentReadWhere'),
      resolve: (e, _a, ctx) => commentOf(e, ctx),
    }),
  }),
});

export const NotificationEventRef = builder.objectRef<liveService.NotificationLiveEvent>('NotificationEvent').implement({
  description: 'A notification thread that became unread for the viewer.',
  fields: (t) => ({
    notificationId: t.int({
      description: 'The REST id of the thread (GET /api/v1/notifications/threads/{id}).',
      resolve: (e) => e.notification.id,
    }),
    repository: t.field({
      type: RepositoryRef,
      nullable: true,
      ...filteredBy('repoReadWhere'),
      resolve: (e, _a, ctx) => ctx.cx.db.repository.findFirst({ where: { id: e.notification.repoId, AND: [repoReadWhere(ctx.cx)] } }),
    }),
    subject: t.field({
      type: IssueRef,
      nullable: true,
      description: 'The issue or pull request the thread is about.',
      ...inherits('watchNotifications delivers only threads whose issue the viewer may read (issueReadWhere)'),
      resolve: (e, _a, ctx) =>
        e.notification.issueId === null ? null : ctx.cx.db.issue.findUnique({ where: { id: e.notification.issueId } }),
    }),
    updatedAt: t.field({ type: 'DateTime', resolve: (e) => e.notification.updatedAt }),
  }),
});

/** Runs a stream within the viewer's subscription limit. */
const limited = <T>(ctx: Ctx, open: (signal: AbortSignal) => Promise<AsyncIterable<T>> | AsyncIterable<T>) =>
  limitedStream(ctx.subscriptionSlots, ctx.clientKey, ctx.cx.config.live.maxSubscriptionsPerUser, open);

/** The issue or pull-request events of one repository, within the viewer's limit. */
const issueStream = (ctx: Ctx, args: { owner: string; name: string }, kind: 'issue' | 'pull') =>
  limited(ctx, (signal) =>
    liveService.watchIssueEvents(ctx.cx, { owner: args.owner, name: args.name, kind }, { queueSize: ctx.cx.config.live.queueSize, signal }),
  );

builder.subscriptionFields((t) => ({
  issueEvents: t.field({
    type: IssueEventRef,
    description: "Changes to owner/name's issues from now on (created, edited, closed, reopened, commented, labeled).",
    args: { owner: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    ...checkedBy('watchIssueEvents (issueReadWhere re-evaluated for every event)'),
    subscribe: (_root, args, ctx) => issueStream(ctx, args, 'issue'),
    resolve: (e: liveService.IssueLiveEvent) => e,
  }),
  pullRequestEvents: t.field({
    type: PullRequestEventRef,
    description:
      "Changes to owner/name's pull requests from now on (created, edited, closed, reopened, commented, labeled, merged, reviewed).",
    args: { owner: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    ...checkedBy('watchIssueEvents (issueReadWhere re-evaluated for every event)'),
    subscribe: (_root, args, ctx) => issueStream(ctx, args, 'pull'),
    resolve: (e: liveService.IssueLiveEvent) => e,
  }),
  notificationReceived: t.field({
    type: NotificationEventRef,
    description: "The viewer's notification threads as they become unread.",
    ...checkedBy('watchNotifications (the viewer only; the subject re-checked for every event)'),
    subscribe: (_root, _args, ctx) =>
      limited(ctx, (signal) => liveService.watchNotifications(ctx.cx, { queueSize: ctx.cx.config.live.queueSize, signal })),
    resolve: (e: liveService.NotificationLiveEvent) => e,
  }),
}));
