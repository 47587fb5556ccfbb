// Activity feeds in the graph: the Activity type and `activity` connections on User, Organization and Repository.
import type { Models } from '../../db/client.ts';
import * as feedService from '../../services/feed/feed.ts';
import { builder } from '../builder.ts';
import { filteredBy, inherits } from '../policy.ts';
import { OrganizationRef } from './organization.ts';
import { RepositoryRef } from './repository.ts';
import { TeamRef } from './team.ts';
import { UserRef } from './user.ts';

const OP_TYPES = [
  'CREATE_REPO',
  'RENAME_REPO',
  'STAR_REPO',
  'WATCH_REPO',
  'COMMIT_REPO',
  'CREATE_ISSUE',
  'CREATE_PULL_REQUEST',
  'TRANSFER_REPO',
  'PUSH_TAG',
  'COMMENT_ISSUE',
  'MERGE_PULL_REQUEST',
  'CLOSE_ISSUE',
  'REOPEN_ISSUE',
  'CLOSE_PULL_REQUEST',
  'REOPEN_PULL_REQUEST',
  'DELETE_TAG',
  'DELETE_BRANCH',
  'MIRROR_SYNC_PUSH',
  'MIRROR_SYNC_CREATE',
  'MIRROR_SYNC_DELETE',
  'APPROVE_PULL_REQUEST',
  'REJECT_PULL_REQUEST',
  'COMMENT_PULL',
  'PUBLISH_RELEASE',
  'PULL_REVIEW_DISMISSED',
  'PULL_REQUEST_READY_FOR_REVIEW',
  'AUTO_MERGE_PULL_REQUEST',
] as const satisfies readonly Models.ActionType[];

export const ActivityOpTypeEnum = builder.enumType('ActivityOpType', {
  description: "What an activity records (Gitea's op_type, upper-cased).",
  values: OP_TYPES,
});

export const ActivityRef = builder.prismaObject('Action', {
  variant: 'Activity',
  description: "One row of an activity feed (Gitea's Activity): the same event has one row per feed it appears in.",
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    opType: t.field({ type: ActivityOpTypeEnum, resolve: (a) => a.opType }),
    actor: t.relation('actUser', {
      description: 'Who performed it.',
      ...inherits('activityReadWhere keeps only rows whose actor the viewer may see'),
    }),
    repository: t.relation('repo', {
      type: RepositoryRef,
      ...inherits('activityReadWhere keeps only rows on repositories the viewer can read'),
    }),
    content: t.exposeString('content', {
      description: 'Depends on opType: "{index}|{title}", the old name, the JSON of pushed commits, a release title…',
    }),
    refName: t.string({
      nullable: true,
      description: 'The full ref (e.g. refs/heads/main) for pushes and tags.',
      resolve: (a) => a.refName || null,
    }),
    isPrivate: t.exposeBoolean('isPrivate', { description: 'Whether the repository was private when it happened.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const DESCRIPTION = 'Activity feed, newest first (as GET /api/v1/{users|orgs|repos}/…/activities/feeds), under the same read policy.';

for (const ref of [UserRef, OrganizationRef] as const) {
  builder.prismaObjectFields(ref, (t) => ({
    activity: t.prismaConnection({
      type: ActivityRef,
      cursor: 'id',
      description: DESCRIPTION,
      ...filteredBy('activityReadWhere'),
      totalCount: async (account, _args, ctx) => feedService.countActivityRows(ctx.cx, await feedService.accountFeedScope(ctx.cx, account)),
      resolve: async (query, account, _args, ctx) =>
        feedService.findActivityRows(ctx.cx, await feedService.accountFeedScope(ctx.cx, account), query),
    }),
  }));
}

builder.prismaObjectFields(RepositoryRef, (t) => ({
  activity: t.prismaConnection({
    type: ActivityRef,
    cursor: 'id',
    description: DESCRIPTION,
    ...filteredBy('activityReadWhere'),
    totalCount: (repo, _args, ctx) => feedService.countActivityRows(ctx.cx, { kind: 'repo', repoId: repo.id }),
    resolve: (query, repo, _args, ctx) => feedService.findActivityRows(ctx.cx, { kind: 'repo', repoId: repo.id }, query),
  }),
}));

builder.prismaObjectFields(TeamRef, (t) => ({
  activity: t.prismaConnection({
    type: ActivityRef,
    cursor: 'id',
    description: "The organization's activity on the team's repositories (as GET /api/v1/teams/{id}/activities/feeds).",
    ...filteredBy('activityReadWhere'),
    totalCount: (team, _args, ctx) => feedService.countActivityRows(ctx.cx, { kind: 'team', team }),
    resolve: (query, team, _args, ctx) => feedService.findActivityRows(ctx.cx, { kind: 'team', team }, query),
  }),
}));
