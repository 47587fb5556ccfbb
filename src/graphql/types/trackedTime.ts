import { createContextCache } from '@pothos/core';
import * as stopwatchService from '../../services/issue/stopwatch.ts';
import * as trackedTimeService from '../../services/issue/trackedTime.ts';
import { issueTimeSummaryLoader } from '../../services/issue/trackedTimeSummary.ts';
import { builder } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import type { GraphQLContext } from '../context.ts';
import { withInputFieldNames } from '../errors.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbIdOf, opt, type GlobalId } from '../ids.ts';
import { totalOf } from '../totalCount.ts';
import { checkedBy, inherits } from '../policy.ts';
import { IssueRef } from './issue.ts';
import { UserRef } from './user.ts';

/** Time spent on an issue (Gitea tracked_time); GitHub has no such concept, so the names are Gitea's. */
export const TrackedTimeRef = builder.prismaObject('TrackedTime', {
  description: 'Time a user spent on an issue or pull request.',
  include: { user: true },
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    seconds: t.exposeInt('time', { description: 'The amount, in seconds (may be negative: a correction).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the work was done.' }),
    user: t.field({
      type: UserRef,
      nullable: true,
      description: 'Null once the user is deleted.',
      ...inherits('REST shows the user with the tracked time'),
      resolve: (row) => row.user,
    }),
    issue: t.relation('issue', {
      type: IssueRef,
      ...inherits('tracked times are listed only on readable issues (issueTimeSummaryLoader)'),
    }),
  }),
});

/** One batched load per request for every issue that asks (tracker settings, permissions, time rows). */
const summaries = createContextCache((ctx: GraphQLContext) => issueTimeSummaryLoader(ctx.cx));

builder.prismaObjectFields(IssueRef, (t) => ({
  trackedTimes: t.connection(
    {
      type: TrackedTimeRef,
      nullable: true,
      description:
        "Tracked times, oldest first; null when the repository's time tracker is disabled. As GET …/issues/{index}/times: writers and site admins see everyone's, others only their own.",
      ...checkedBy('issueTimeSummaryLoader'),
      resolve: async (issue, args, ctx) => {
        const summary = await summaries(ctx).load(issue);
        return summary ? arrayConnection(args, summary.entries) : null;
      },
    },
    {
      name: 'TrackedTimeConnection',
      fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }),
    },
    { name: 'TrackedTimeEdge' },
  ),
  totalTrackedTime: t.int({
    nullable: true,
    description: "Seconds tracked on the issue by everyone (as Gitea's issue page shows it); null when the time tracker is disabled.",
    resolve: async (issue, _args, ctx) => (await summaries(ctx).load(issue))?.total ?? null,
  }),
}));

/** The database id of an Issue global id; any other type's id names no issue (0 → NotFound). */
const issueId = (id: GlobalId): number => dbIdOf(id, 'Issue');

builder.relayMutationField(
  'addTrackedTime',
  {
    inputFields: (t) => ({
      issueId: t.globalID({ required: true }),
      seconds: t.int({ required: true, description: 'Not 0; negative amounts correct earlier ones.' }),
      createdAt: t.field({ type: 'DateTime', description: 'When the work was done (default now).' }),
      userLogin: t.string({
        description: 'Book the time for this user (site admins, and repository admins naming someone else; ignored otherwise).',
      }),
    }),
  },
  {
    description: 'Add tracked time to an issue (as POST /api/v1/repos/{o}/{r}/issues/{index}/times).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      const view = await withInputFieldNames({ time: 'seconds', created: 'createdAt' }, () =>
        trackedTimeService.addTrackedTimeById(ctx.cx, issueId(input.issueId), {
          time: input.seconds,
          created: opt(input.createdAt),
          userName: opt(input.userLogin),
        }),
      );
      return { trackedTime: { ...view.time, user: view.user }, issueId: view.time.issueId };
    },
  },
  {
    outputFields: (t) => ({
      trackedTime: t.field({ type: TrackedTimeRef, resolve: (p) => p.trackedTime }),
      issue: t.prismaField({
        type: 'Issue',
        resolve: (query, p, _a, ctx) => ctx.cx.db.issue.findUniqueOrThrow({ ...query, where: { id: p.issueId } }),
      }),
    }),
  },
);

builder.relayMutationField(
  'deleteTrackedTime',
  { inputFields: (t) => ({ trackedTimeId: t.int({ required: true, description: 'The databaseId of the tracked time.' }) }) },
  {
    description:
      'Delete one tracked time (its user or a site admin; as DELETE …/issues/{index}/times/{id}). The row is kept, marked deleted.',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({ issueId: await trackedTimeService.deleteTrackedTimeById(ctx.cx, input.trackedTimeId) }),
  },
  {
    outputFields: (t) => ({
      issue: t.prismaField({
        type: 'Issue',
        resolve: (query, p, _a, ctx) => ctx.cx.db.issue.findUniqueOrThrow({ ...query, where: { id: p.issueId } }),
      }),
    }),
  },
);

/** Mutations that act on one issue and return it: reset the viewer's times, and the stopwatch. */
const ISSUE_ACTIONS = [
  [
    'resetTrackedTimes',
    "Delete the viewer's own tracked times on an issue (as DELETE …/issues/{index}/times).",
    (cx: GraphQLContext['cx'], id: number) => trackedTimeService.resetTrackedTimesById(cx, id),
  ],
  [
    'startStopwatch',
    "Start the viewer's stopwatch on an issue, stopping one running elsewhere (as POST …/stopwatch/start).",
    (cx: GraphQLContext['cx'], id: number) => stopwatchService.stopwatchActionById(cx, 'start', id),
  ],
  [
    'stopStopwatch',
    "Stop the viewer's stopwatch on an issue and book its time (as POST …/stopwatch/stop).",
    (cx: GraphQLContext['cx'], id: number) => stopwatchService.stopwatchActionById(cx, 'stop', id),
  ],
  [
    'cancelStopwatch',
    "Cancel the viewer's stopwatch on an issue without booking time (as DELETE …/stopwatch/delete).",
    (cx: GraphQLContext['cx'], id: number) => stopwatchService.stopwatchActionById(cx, 'cancel', id),
  ],
] as const;

for (const [name, description, run] of ISSUE_ACTIONS) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ issueId: t.globalID({ required: true }) }) },
    {
      description,
      ...writeScope('issue'),
      resolve: async (_root, { input }, ctx) => {
        await run(ctx.cx, issueId(input.issueId));
        return { issueId: issueId(input.issueId) };
      },
    },
    {
      outputFields: (t) => ({
        issue: t.prismaField({
          type: 'Issue',
          resolve: (query, p, _a, ctx) => ctx.cx.db.issue.findUniqueOrThrow({ ...query, where: { id: p.issueId } }),
        }),
      }),
    },
  );
}
