import { createContextCache } from '@pothos/core';
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import type { GraphQLResolveInfo } from 'graphql';
import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import * as reactionService from '../../services/issue/reaction.ts';
import {
  ALLOWED_REACTIONS,
  groupReactions,
  type ReactionGroup,
  type ReactionSubject,
  type ReactionWithUser,
} from '../../services/issue/reaction.ts';
import { builder } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import type { GraphQLContext } from '../context.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { attached } from '../preload/plan.ts';
import { reactorsCountedOnlyIn } from '../preload/reactionCounts.ts';
import { IssueRef } from './issue.ts';
import { IssueCommentRef } from './issueComment.ts';
import { PullRequestRef } from './pullRequest.ts';
import { PullRequestReviewRef } from './pullRequestReview.ts';
import { UserRef } from './user.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import type { ReactionsOf } from '../../services/issue/relationPages.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { ReactableRef } from './githubInterfaces.ts';

/** GitHub's ReactionContent names for Gitea's default reactions (the enum values are Gitea's strings). */
export const ReactionContentEnum = builder.enumType('ReactionContent', {
  description: "Emojis that can be attached to issues and comments (Gitea's default `[ui] REACTIONS`).",
  values: {
    THUMBS_UP: { value: '+1', description: ':+1:' },
    THUMBS_DOWN: { value: '-1', description: ':-1:' },
    LAUGH: { value: 'laugh', description: ':laugh:' },
    HOORAY: { value: 'hooray', description: ':hooray:' },
    CONFUSED: { value: 'confused', description: ':confused:' },
    HEART: { value: 'heart', description: ':heart:' },
    ROCKET: { value: 'rocket', description: ':rocket:' },
    EYES: { value: 'eyes', description: ':eyes:' },
  } as const,
});

/** Who reacted: REST shows the user with each reaction. */
const REACTOR = inherits('REST shows the user with each reaction');

/** One reaction of a user on an issue or comment. */
export const ReactionRef = builder.prismaNode('Reaction', {
  description: 'An emoji reaction to an issue or comment.',
  include: { user: true },
  id: { field: 'id' },
  // node(id:): a reaction is readable with its issue or pull request (and so with the comments on it).
  ...filteredBy('issueReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), issue: issueReadWhere(ctx.cx) }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    // Only allowed contents reach the graph (the services refuse and filter the others); the guard narrows the type.
    content: t.field({
      type: ReactionContentEnum,
      resolve: (r) => (reactionService.isAllowedReaction(r.type) ? r.type : ALLOWED_REACTIONS[0]),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    user: t.field({
      type: UserRef,
      nullable: true,
      description: 'Null for a migrated reaction without a local account.',
      ...REACTOR,
      resolve: (r) => r.user,
    }),
  }),
});
tokenReadScope(ReactionRef, 'issue');

/** GitHub's Reactor: who reacted (users here; GitHub also has bots, mannequins and organizations). */
const ReactorUnion = builder.unionType('Reactor', {
  description: 'Types that can be assigned to reactions.',
  types: [UserRef],
  resolveType: () => UserRef,
});

/**
 * A group's users as a connection. A group only counted (its users null) is served only to operations that select
 * nothing but `totalCount` of it (reactorsCountedOnly): its connection has the count and no item.
 */
const reactorPage = (g: ReactionGroup, args: DefaultConnectionArguments) => arrayConnection(args, g.users ?? [], {}, g.count);

const ReactionGroupRef = builder.objectRef<ReactionGroup>('ReactionGroup');
ReactionGroupRef.implement({
  description: "The reactions of one content on a subject (GitHub's ReactionGroup): every content is listed, in display order.",
  fields: (t) => ({
    // Plain reads of the group (plainLeaves.ts): 400 groups on a page of 50 issues.
    content: t.expose('content', { type: ReactionContentEnum }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the first reaction of this content was made.',
    }),
    reactors: t.connection(
      {
        type: ReactorUnion,
        description: 'The users who reacted, oldest first.',
        ...REACTOR,
        resolve: (g, args) => reactorPage(g, args),
      },
      {
        name: 'ReactorConnection',
        fields: (c) => ({ totalCount: c.exposeInt('total') }),
      },
      { name: 'ReactorEdge' },
    ),
    users: t.connection(
      {
        type: UserRef,
        description: "The users who reacted, oldest first (GitHub's deprecated form of `reactors`; here the same users).",
        deprecationReason: 'Use the `reactors` field instead.',
        ...REACTOR,
        resolve: (g, args) => reactorPage(g, args),
      },
      {
        name: 'ReactingUserConnection',
        fields: (c) => ({ totalCount: c.exposeInt('total') }),
      },
      { name: 'ReactingUserEdge' },
    ),
    viewerHasReacted: t.exposeBoolean('viewerHasReacted'),
  }),
});

/**
 * Per request, the reactions of issues themselves or of comments by subject id, one batched statement each: as rows
 * with their users, grouped here, or counted in SQL when the operation reads no reactor (reactorsCountedOnly).
 */
const groupLoaders = {
  issue: {
    rows: createContextCache((ctx: GraphQLContext) => reactionService.reactionsLoader(ctx.cx, 'issue')),
    counts: createContextCache((ctx: GraphQLContext) => reactionService.reactionCountsLoader(ctx.cx, 'issue')),
  },
  comment: {
    rows: createContextCache((ctx: GraphQLContext) => reactionService.reactionsLoader(ctx.cx, 'comment')),
    counts: createContextCache((ctx: GraphQLContext) => reactionService.reactionCountsLoader(ctx.cx, 'comment')),
  },
};

/** The reaction groups of one issue (its own reactions) or comment, batched with the request's others. */
async function reactionGroupsOf(ctx: GraphQLContext, info: GraphQLResolveInfo, target: ReactionsOf, id: number): Promise<ReactionGroup[]> {
  const loaders = groupLoaders[target];
  if (reactorsCountedOnlyIn(info)) return loaders.counts(ctx).load(id);
  return groupReactions(await loaders.rows(ctx).load(id), ctx.cx.viewer?.id ?? null);
}

/**
 * A reaction groups field's read policy (inherited, for `reason`). Its resolver reads the operation from `info`,
 * never its path: the compiled execution need not give it the request's shared path objects (compiledExecution.ts).
 */
const groupsField = (reason: string) => ({ extensions: { ...inherits(reason).extensions, readsOperationOnly: true } });

builder.prismaObjectFields(IssueRef, (t) => ({
  reactionGroups: t.field({
    type: [ReactionGroupRef],
    description: 'Reactions on the issue itself (not on its comments), grouped by content.',
    ...groupsField('the reactions of a readable issue (as GET …/issues/{index}/reactions)'),
    // What the issue list's preloader attached (preload/repositoryIssues.ts), else one batched statement per request.
    // A plain field, not a Prisma relation: a page of issues resolves it without plugin-prisma's per-row planning.
    resolve: (issue, _args, ctx, info) => {
      const counted = attached<ReactionGroup[]>(issue, 'reactionGroups');
      if (counted) return counted;
      const loaded = attached<ReactionWithUser[]>(issue, 'reactions');
      if (loaded) return groupReactions(loaded, ctx.cx.viewer?.id ?? null);
      return reactionGroupsOf(ctx, info, 'issue', issue.id);
    },
  }),
}));

builder.prismaObjectFields(PullRequestRef, (t) => ({
  reactionGroups: t.field({
    type: [ReactionGroupRef],
    description: "Reactions on the pull request itself (its issue row's, not its comments'), grouped by content.",
    ...groupsField('the reactions of a readable pull request (as GET …/issues/{index}/reactions)'),
    resolve: (p, _args, ctx, info) => reactionGroupsOf(ctx, info, 'issue', p.issueId),
  }),
}));

/** Comments have no relation to their reactions (commentId is a plain column): one batched query per request. */
builder.prismaObjectFields(IssueCommentRef, (t) => ({
  reactionGroups: t.field({
    type: [ReactionGroupRef],
    description: 'Reactions on the comment, grouped by content.',
    ...groupsField('the reactions of a readable comment (as GET …/issues/comments/{id}/reactions)'),
    resolve: (comment, _args, ctx, info) => reactionGroupsOf(ctx, info, 'comment', comment.id),
  }),
}));

builder.prismaObjectFields(PullRequestReviewRef, (t) => ({
  reactionGroups: t.field({
    type: [ReactionGroupRef],
    description:
      "Reactions on the review's body (Gitea keeps it as the review's REVIEW comment, which is what users react to), grouped by content.",
    ...inherits('the reactions of a readable review (as GET …/issues/comments/{id}/reactions of its comment)'),
    select: { comments: { where: { type: 'REVIEW' }, select: { id: true }, orderBy: { id: 'asc' }, take: 1 } },
    resolve: async (review, _args, ctx, info) => {
      const body = review.comments[0];
      return body ? reactionGroupsOf(ctx, info, 'comment', body.id) : [];
    },
  }),
}));

/** The subject named by a global id: an Issue or an IssueComment. @throws NotFoundError */
function subjectOf(id: { typename: string; id: string }): ReactionSubject {
  if (id.typename === 'Issue') return { kind: 'issue', id: dbId(id.id) };
  if (id.typename === 'IssueComment') return { kind: 'comment', id: dbId(id.id) };
  throw new NotFoundError(`${id.typename} cannot be reacted to`, { typename: id.typename });
}

interface ReactionPayload {
  reaction: Models.Reaction & { user: Models.User | null };
  subject: Models.Issue | Models.Comment;
  groups: ReactionGroup[];
}

function payloadOf(
  change: reactionService.ReactionChange,
  viewerId: number | null,
): Omit<ReactionPayload, 'reaction'> & { reaction: ReactionPayload['reaction'] | null } {
  return {
    reaction: change.result?.reaction ?? null,
    subject: change.comment ?? change.issue,
    groups: groupReactions(change.reactions, viewerId),
  };
}

for (const [name, add] of [
  ['addReaction', true],
  ['removeReaction', false],
] as const) {
  builder.relayMutationField(
    name,
    {
      inputFields: (t) => ({
        subjectId: t.globalID({ required: true, description: 'An Issue or IssueComment id.' }),
        content: t.field({ type: ReactionContentEnum, required: true }),
      }),
    },
    {
      description: add
        ? 'Add a reaction to an issue or comment (as POST …/reactions: idempotent; locked issues only for writers; blocked users refused).'
        : "Remove the viewer's reaction from an issue or comment (as DELETE …/reactions; removing an absent reaction is not an error).",
      ...writeScope('issue'),
      resolve: async (_root, { input }, ctx) => {
        const subject = subjectOf(input.subjectId);
        const change = add
          ? await reactionService.addReaction(ctx.cx, subject, input.content)
          : await reactionService.removeReaction(ctx.cx, subject, input.content);
        return payloadOf(change, ctx.cx.viewer?.id ?? null);
      },
    },
    {
      outputFields: (t) => ({
        reaction: t.field({
          type: ReactionRef,
          nullable: true,
          description: add ? 'The reaction (also when it already existed).' : 'Always null: the reaction is gone.',
          resolve: (p) => p.reaction,
        }),
        subject: t.field({ type: ReactableRef, resolve: (p) => p.subject }),
        reactionGroups: t.field({ type: [ReactionGroupRef], resolve: (p) => p.groups }),
      }),
    },
  );
}
