import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import { repoReadWhere } from '../../services/repo/visibility.ts';
import { WATCHING_MODES } from '../../services/watch/repoWatch.ts';
import * as issueWatchService from '../../services/watch/issueWatch.ts';
import * as repoWatchService from '../../services/watch/repoWatch.ts';
import * as starService from '../../services/watch/star.ts';
import { builder } from '../builder.ts';
import { writeScope, writeScopeBy } from '../tokenWriteScopes.ts';
import { dbIdOf } from '../ids.ts';
import type { GraphQLContext } from '../context.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { bothNodePaths, withUserScalars } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { directionOf, orderInput } from './orderInput.ts';
import { IssueRef } from './issue.ts';
import { PullRequestRef } from './pullRequest.ts';
import { RepositoryConnectionRef, RepositoryRef } from './repository.ts';
import { otherRepositoryListArgs, repositoryListOrderBy, repositoryListWhere, type RepositoryListArgs } from './repositoryListArgs.ts';
import { UserConnectionRef, UserRef } from './user.ts';
import { StarrableRef, SubscribableRef } from './githubInterfaces.ts';

/** GitHub's SubscriptionState: watching, not watching, or ignoring (Gitea's watch modes NORMAL/AUTO, none, DONT). */
const SubscriptionStateEnum = builder.enumType('SubscriptionState', {
  description: "The viewer's watch state of a repository.",
  values: {
    SUBSCRIBED: { description: 'Watching: notified of all its issues and pull requests.' },
    UNSUBSCRIBED: { description: 'Not watching: notified only when participating or mentioned.' },
    IGNORED: { description: 'Never notified through watching.' },
  },
});

const MODE_OF = { SUBSCRIBED: 'NORMAL', UNSUBSCRIBED: 'NONE', IGNORED: 'DONT' } as const;

const StarOrderInput = orderInput('StarOrder', ['STARRED_AT'] as const, 'star connections');

const stargazers = prismaConnectionHelpers(builder, 'Star', {
  cursor: 'id',
  args: (t) => ({ orderBy: t.field({ type: StarOrderInput, description: 'In the order they starred it when absent.' }) }),
  select: (nodeSelection) => ({ createdAt: true, user: withUserScalars(nodeSelection(true)) }),
  // Stars are made in id order: STARRED_AT is the id's.
  query: (args) => ({ orderBy: { id: args.orderBy ? directionOf(args.orderBy) : ('asc' as const) } }),
  resolveNode: (row) => row.user,
});

const watchers = prismaConnectionHelpers(builder, 'Watch', {
  cursor: 'id',
  select: (nodeSelection) => ({ user: withUserScalars(nodeSelection(true)) }),
  query: () => ({ where: { mode: { in: WATCHING_MODES } }, orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.user,
});

/** The starred repositories the viewer may see, only those the viewer owns (or only others') with ownedByViewer. */
const starredWhere = (ctx: GraphQLContext, ownedByViewer: boolean | null | undefined): Models.Prisma.StarWhereInput => ({
  repo: {
    AND: [
      repoReadWhere(ctx.cx),
      ownedByViewer == null ? {} : ownedByViewer ? { ownerId: ctx.cx.viewer?.id ?? 0 } : { ownerId: { not: ctx.cx.viewer?.id ?? 0 } },
    ],
  },
});

const starredRepos = prismaConnectionHelpers(builder, 'Star', {
  cursor: 'id',
  args: (t) => ({
    orderBy: t.field({ type: StarOrderInput, description: 'In the order they were starred when absent.' }),
    ownedByViewer: t.boolean({ description: 'Only repositories the viewer owns (true), or only others (false).' }),
  }),
  select: (nodeSelection) => ({ createdAt: true, repo: nodeSelection(true) }),
  query: (args, ctx) => ({
    where: starredWhere(ctx, args.ownedByViewer),
    orderBy: { id: args.orderBy ? directionOf(args.orderBy) : ('asc' as const) },
  }),
  resolveNode: (row) => row.repo,
});

/** The watched repositories the viewer may see that the arguments keep. */
const watchedWhere = (args: RepositoryListArgs, ctx: GraphQLContext) => ({
  mode: { in: WATCHING_MODES },
  repo: { AND: [repoReadWhere(ctx.cx), repositoryListWhere(ctx, args, false)] },
});

const watchedRepos = prismaConnectionHelpers(builder, 'Watch', {
  cursor: 'id',
  select: (nodeSelection) => ({ repo: nodeSelection(true) }),
  args: () => otherRepositoryListArgs,
  query: (args, ctx) => ({
    where: watchedWhere(args, ctx),
    // The repository's order, the watch's id breaking ties (Prisma takes a list; the helper's type names one).
    orderBy: (args.orderBy
      ? [...repositoryListOrderBy(args.orderBy, []).map((repo) => ({ repo })), { id: 'asc' as const }]
      : [{ id: 'asc' as const }]) as unknown as Models.Prisma.WatchOrderByWithRelationInput,
  }),
  resolveNode: (row) => row.repo,
});

builder.prismaObjectFields(RepositoryRef, (t) => ({
  stargazers: t.connection(
    {
      type: UserRef,
      description: 'Users who starred the repository, in the order they did (as GET /api/v1/repos/{owner}/{repo}/stargazers).',
      args: stargazers.getArgs(),
      ...inherits('a readable repository shows its stargazers (as GET …/stargazers does)'),
      select: (args, ctx, nested) => ({
        stars: stargazers.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { stars: true } },
      }),
      resolve: (r, args, ctx) => withTotal(stargazers.resolve(r.stars, args, ctx), r._count.stars),
    },
    { name: 'StargazerConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'StargazerEdge', fields: (e) => ({ starredAt: e.field({ type: 'DateTime', resolve: (edge) => edge.createdAt }) }) },
  ),
  watchers: t.connection(
    {
      type: UserRef,
      description: 'Users watching the repository (as GET /api/v1/repos/{owner}/{repo}/subscribers).',
      ...inherits('a readable repository shows its watchers (as GET …/subscribers does)'),
      select: (args, ctx, nested) => ({
        watches: watchers.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { watches: { where: { mode: { in: WATCHING_MODES } } } } },
      }),
      resolve: (r, args, ctx) => withTotal(watchers.resolve(r.watches, args, ctx), r._count.watches),
    },
    UserConnectionRef,
  ),
  viewerHasStarred: t.loadable({
    type: 'Boolean',
    description: 'Whether the viewer starred the repository.',
    load: async (ids: number[], ctx) => {
      const starred = await starService.viewerStarredRepoIds(ctx.cx, ids);
      return ids.map((id) => starred.has(id));
    },
    resolve: (r) => r.id,
  }),
  viewerSubscription: t.loadable({
    type: SubscriptionStateEnum,
    nullable: true,
    description: "The viewer's watch state; null for anonymous viewers.",
    load: async (ids: number[], ctx) => {
      const modes = await repoWatchService.viewerWatchModes(ctx.cx, ids);
      return ids.map((id) => {
        if (!ctx.cx.viewer) return null;
        const mode = modes.get(id) ?? 'NONE';
        return mode === 'DONT' ? 'IGNORED' : mode === 'NORMAL' || mode === 'AUTO' ? 'SUBSCRIBED' : 'UNSUBSCRIBED';
      });
    },
    resolve: (r) => r.id,
  }),
}));

builder.prismaObjectFields(UserRef, (t) => ({
  starredRepositories: t.connection(
    {
      type: RepositoryRef,
      description: 'Repositories the user starred that the viewer may see, in the order starred (as GET /api/v1/users/{username}/starred).',
      args: starredRepos.getArgs(),
      ...filteredBy('repoReadWhere'),
      select: (args, ctx, nested) => ({
        stars: starredRepos.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { stars: { where: starredWhere(ctx, args.ownedByViewer) } } },
      }),
      resolve: (u, args, ctx) => withTotal(starredRepos.resolve(u.stars, args, ctx), u._count.stars),
    },
    { name: 'StarredRepositoryConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'StarredRepositoryEdge', fields: (e) => ({ starredAt: e.field({ type: 'DateTime', resolve: (edge) => edge.createdAt }) }) },
  ),
  watching: t.connection(
    {
      type: RepositoryRef,
      description:
        'Repositories the user watches that the viewer may see (as GET /api/v1/users/{username}/subscriptions), in the order watched unless `orderBy` says otherwise.',
      ...filteredBy('repoReadWhere'),
      args: watchedRepos.getArgs(),
      select: (args, ctx, nested) => ({
        watches: watchedRepos.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { watches: { where: watchedWhere(args, ctx) } } },
      }),
      resolve: (u, args, ctx) => withTotal(watchedRepos.resolve(u.watches, args, ctx), u._count.watches),
    },
    RepositoryConnectionRef,
  ),
}));

for (const [name, star] of [
  ['addStar', true],
  ['removeStar', false],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ starrableId: t.globalID({ required: true, description: 'The repository to star or unstar.' }) }) },
    {
      description: star
        ? 'Star a repository (as PUT /api/v1/user/starred/{owner}/{repo}).'
        : 'Remove the star of a repository (as DELETE /api/v1/user/starred/{owner}/{repo}).',
      ...writeScope('user', 'repository'),
      resolve: async (_root, { input }, ctx) => ({
        repo: await starService.setStarById(ctx.cx, dbIdOf(input.starrableId, 'Repository'), star),
      }),
    },
    { outputFields: (t) => ({ starrable: t.field({ type: StarrableRef, resolve: (p) => p.repo }) }) },
  );
}

type SubscribableValue = Models.Repository | (Models.Issue & { kind: 'issue' }) | (Models.PullRequest & { kind: 'pull' });

const stateOf = (watching: boolean): 'SUBSCRIBED' | 'UNSUBSCRIBED' => (watching ? 'SUBSCRIBED' : 'UNSUBSCRIBED');

/** Sets the viewer's subscription to an issue or pull request (IGNORED unsubscribes: Gitea has no ignore for issues). */
async function subscribeIssue(
  ctx: GraphQLContext,
  id: { typename: string; id: string },
  state: keyof typeof MODE_OF,
): Promise<{ target: SubscribableValue; state: keyof typeof MODE_OF }> {
  const watch = state === 'SUBSCRIBED';
  if (id.typename === 'PullRequest') {
    const pull = await ctx.cx.db.pullRequest.findUnique({ where: { id: dbIdOf(id, 'PullRequest') } });
    await issueWatchService.setViewerIssueSubscription(ctx.cx, pull?.issueId ?? 0, watch);
    return { target: { ...pull!, kind: 'pull' }, state: stateOf(watch) };
  }
  const issue = await issueWatchService.setViewerIssueSubscription(ctx.cx, dbIdOf(id, 'Issue'), watch);
  return { target: { ...issue, kind: 'issue' }, state: stateOf(watch) };
}

builder.relayMutationField(
  'updateSubscription',
  {
    inputFields: (t) => ({
      subscribableId: t.globalID({ required: true, description: 'The repository, issue or pull request.' }),
      state: t.field({ type: SubscriptionStateEnum, required: true }),
    }),
  },
  {
    description:
      'Watch, unwatch or ignore a repository (as PUT and DELETE /api/v1/repos/{owner}/{repo}/subscription), or subscribe to an issue or pull request (as PUT and DELETE …/issues/{index}/subscriptions/{user}).',
    ...writeScopeBy((input: { subscribableId: { typename: string } }) =>
      input.subscribableId.typename === 'Repository' ? 'repository' : 'issue',
    ),
    resolve: async (_root, { input }, ctx) => {
      if (input.subscribableId.typename === 'Issue' || input.subscribableId.typename === 'PullRequest')
        return subscribeIssue(ctx, input.subscribableId, input.state);
      const sub = await repoWatchService.setRepoSubscriptionById(ctx.cx, dbIdOf(input.subscribableId, 'Repository'), MODE_OF[input.state]);
      const state: keyof typeof MODE_OF = sub.mode === 'DONT' ? 'IGNORED' : sub.mode === 'NONE' ? 'UNSUBSCRIBED' : 'SUBSCRIBED';
      return { target: sub.repo as SubscribableValue, state };
    },
  },
  {
    outputFields: (t) => ({
      subscribable: t.field({
        type: SubscribableRef,
        ...checkedBy('setRepoSubscription / setIssueSubscription'),
        resolve: (p) => p.target,
      }),
      state: t.field({ type: SubscriptionStateEnum, resolve: (p) => p.state }),
    }),
  },
);

for (const ref of [IssueRef, PullRequestRef] as const) {
  builder.prismaObjectFields(ref, (t) => ({
    viewerSubscription: t.loadable({
      type: SubscriptionStateEnum,
      nullable: true,
      description:
        'Whether the viewer is subscribed (watching the repository, taking part, or subscribed explicitly); null for anonymous viewers.',
      load: async (ids: number[], ctx) => {
        const watching = await issueWatchService.viewerWatchingIssues(ctx.cx, ids);
        return ids.map((id) => (ctx.cx.viewer ? stateOf(watching.get(id) === true) : null));
      },
      resolve: (row) => ('issueId' in row ? row.issueId : row.id),
    }),
  }));
}
