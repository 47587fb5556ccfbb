// The timeline's events: each a variant of the Comment rows, named and shaped as GitHub's event type.
import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { commentReadWhere } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { dbId } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { withIssueScalars, withLabelScalars, withUserScalars } from '../selection.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { AssignableRef, ClosableRef, LabelableRef, LockableRef } from './githubInterfaces.ts';
import { IssueRef } from './issue.ts';
import { LabelRef } from './label.ts';
import { PullRequestRef } from './pullRequest.ts';
import { ActorRef } from './repositoryOwner.ts';
import { itemWhere, type ItemType, PULL_ITEM_TYPES, TimelineItemRef, typeNameOf } from './timelineItem.ts';
import { UserRef } from './user.ts';

/** Users an event names (poster, assignee): REST shows them with the event, as Gitea does. */
const SHOWN = inherits('REST shows the users a comment or event names with it');
/** The issue of an event: readable when the event is (commentReadWhere is the issue's policy). */
const OF_ISSUE = inherits('a readable comment or event implies a readable issue');

/** node(id:) of a timeline event: rows of that kind on issues the viewer may see. */
const eventWhere = (item: ItemType) => (id: string, ctx: GraphQLContext) =>
  ({ id: dbId(id), AND: [itemWhere(item), commentReadWhere(ctx.cx)] }) as Models.Prisma.CommentWhereUniqueInput;

/** The object type of each event kind, for the timeline unions (timelineConnection.ts). */
export const EVENT_REFS: Partial<Record<ItemType, unknown>> = {};
const registered = <T>(item: ItemType, ref: T): T => {
  EVENT_REFS[item] = ref;
  return ref;
};

const EVENT = { id: { field: 'id' } as const, nullable: true as const, interfaces: [TimelineItemRef], ...filteredBy('commentReadWhere') };

/** The options every event type shares: a nullable Comment variant named as GitHub's type, found under its policy. */
const eventOptions = (item: ItemType, description: string) => ({
  ...EVENT,
  variant: typeNameOf(item),
  description,
  findUnique: eventWhere(item),
});

/** An event's actor: the user who posted it, as GitHub's Actor (null for a deleted user). */
function actorOfEvent() {
  return {
    type: ActorRef,
    nullable: true,
    ...SHOWN,
    select: (_a: unknown, _c: unknown, nested: (selection: true) => Models.Prisma.UserDefaultArgs | true) => ({
      poster: withUserScalars(nested(true)),
    }),
    resolve: (c: { poster: Models.User | null }) => c.poster,
  } as const;
}

/** The event's issue as one of GitHub's issue interfaces (Closable, Labelable …). */
function issueAs<T>(type: T) {
  return {
    type,
    ...OF_ISSUE,
    select: (_a: unknown, _c: unknown, nested: (selection: true) => Models.Prisma.IssueDefaultArgs | true) => ({
      issue: withIssueScalars(nested(true)),
    }),
    resolve: (c: { issue: Models.Issue }) => c.issue,
  } as const;
}

// Every event type reads with the issue scope, as comments do.
for (const item of PULL_ITEM_TYPES) if (item !== 'ISSUE_COMMENT') tokenReadScope({ name: typeNameOf(item) }, 'issue');

for (const [item, description] of [
  ['CLOSED_EVENT', 'The issue was closed.'],
  ['REOPENED_EVENT', 'The issue was reopened.'],
] as const) {
  registered(
    item,
    builder.prismaNode('Comment', {
      ...eventOptions(item, description),
      fields: (t) => ({ actor: t.field(actorOfEvent()), closable: t.field(issueAs(ClosableRef)) }),
    }),
  );
}

for (const [item, description] of [
  ['LABELED_EVENT', 'A label was added.'],
  ['UNLABELED_EVENT', 'A label was removed.'],
] as const) {
  registered(
    item,
    builder.prismaNode('Comment', {
      ...eventOptions(item, `${description} Events of labels since deleted are not listed.`),
      fields: (t) => ({
        actor: t.field(actorOfEvent()),
        label: t.field({
          type: LabelRef,
          ...inherits("a label on a readable issue is one of its repository's or organization's (REST shows it in the timeline)"),
          select: (_a, _c, nested) => ({ label: withLabelScalars(nested(true)) }),
          // The rows are selected with their label present (timelineItem.ts); a label deleted meanwhile is gone.
          resolve: (c) => {
            if (!c.label) throw new NotFoundError('the label of this event was deleted', { commentId: c.id });
            return c.label;
          },
        }),
        labelable: t.field(issueAs(LabelableRef)),
      }),
    }),
  );
}

/** GitHub's Assignee: whom an issue can be assigned to (users here; GitHub also has bots and mannequins). */
const AssigneeUnion = builder.unionType('Assignee', {
  description: 'Types that can be assigned to issues.',
  types: [UserRef],
  resolveType: () => UserRef,
});

for (const [item, description] of [
  ['ASSIGNED_EVENT', 'A user was assigned.'],
  ['UNASSIGNED_EVENT', 'A user was unassigned.'],
] as const) {
  registered(
    item,
    builder.prismaNode('Comment', {
      ...eventOptions(item, description),
      fields: (t) => ({
        actor: t.field(actorOfEvent()),
        assignee: t.field({
          type: AssigneeUnion,
          nullable: true,
          ...SHOWN,
          select: (_a, _c, nested) => ({ assignee: withUserScalars(nested(true)) }),
          resolve: (c) => c.assignee,
        }),
        assignable: t.field(issueAs(AssignableRef)),
      }),
    }),
  );
}

/** MilestonedEvent (its `subject`, an issue or a pull request, is added by timelineSubject.ts). */
export const MilestonedEventRef = registered(
  'MILESTONED_EVENT',
  builder.prismaNode('Comment', {
    ...eventOptions('MILESTONED_EVENT', 'The issue was added to a milestone.'),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      milestoneTitle: t.string({ select: { milestone: { select: { name: true } } }, resolve: (c) => c.milestone?.name ?? '' }),
    }),
  }),
);

/** DemilestonedEvent (its `subject`, an issue or a pull request, is added by timelineSubject.ts). */
export const DemilestonedEventRef = registered(
  'DEMILESTONED_EVENT',
  builder.prismaNode('Comment', {
    ...eventOptions('DEMILESTONED_EVENT', 'The issue was removed from a milestone.'),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      milestoneTitle: t.string({ select: { oldMilestone: { select: { name: true } } }, resolve: (c) => c.oldMilestone?.name ?? '' }),
    }),
  }),
);

/** RenamedTitleEvent (its `subject`, an issue or a pull request, is added by timelineSubject.ts). */
export const RenamedTitleEventRef = registered(
  'RENAMED_TITLE_EVENT',
  builder.prismaNode('Comment', {
    ...eventOptions('RENAMED_TITLE_EVENT', 'The title changed.'),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      previousTitle: t.exposeString('oldTitle'),
      currentTitle: t.exposeString('newTitle'),
    }),
  }),
);

for (const [item, description] of [
  ['LOCKED_EVENT', 'The conversation was locked.'],
  ['UNLOCKED_EVENT', 'The conversation was unlocked.'],
] as const) {
  registered(
    item,
    builder.prismaNode('Comment', {
      ...eventOptions(item, description),
      fields: (t) => ({ actor: t.field(actorOfEvent()), lockable: t.field(issueAs(LockableRef)) }),
    }),
  );
}

for (const [item, description] of [
  ['PINNED_EVENT', 'The issue was pinned.'],
  ['UNPINNED_EVENT', 'The issue was unpinned.'],
] as const) {
  registered(
    item,
    builder.prismaNode('Comment', {
      ...eventOptions(item, description),
      fields: (t) => ({
        actor: t.field(actorOfEvent()),
        issue: t.relation('issue', { type: IssueRef, ...OF_ISSUE }),
      }),
    }),
  );
}

/** The pull request an event of its issue belongs to (the rows of pull request events are on pull requests only). */
function pullOfEvent() {
  return {
    type: PullRequestRef,
    ...inherits('a readable event of a pull request implies the readable pull request'),
    select: (_a: unknown, _c: unknown, nested: (selection: true) => Models.Prisma.PullRequestDefaultArgs | true) => ({
      issue: { select: { pullRequest: nested(true) } },
    }),
    resolve: (c: { id: number; issue: { pullRequest: Models.PullRequest | null } }) => {
      if (!c.issue.pullRequest) throw new NotFoundError('this event is not on a pull request', { commentId: c.id });
      return c.issue.pullRequest;
    },
  } as const;
}

/** The web address of an event: its anchor in the pull request's conversation (as Gitea's pages name it). */
const PULL_PAGE = { issue: { select: { index: true, repo: { select: { ownerName: true, name: true } } } } } as const;
const eventUrl = (ctx: GraphQLContext, c: { id: number; issue: { index: number; repo: { ownerName: string; name: string } } }) =>
  `${ctx.cx.config.rootUrl}${c.issue.repo.ownerName}/${c.issue.repo.name}/pulls/${c.issue.index}#issuecomment-${c.id}`;

registered(
  'MERGED_EVENT',
  builder.prismaNode('Comment', {
    ...eventOptions('MERGED_EVENT', 'The pull request was merged.'),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      pullRequest: t.field(pullOfEvent()),
      mergeRefName: t.string({
        description: 'The branch merged into (the base branch).',
        select: { issue: { select: { pullRequest: { select: { baseBranch: true } } } } },
        resolve: (c) => c.issue.pullRequest?.baseBranch ?? '',
      }),
      url: t.field({ type: 'URI', select: PULL_PAGE, resolve: (c, _a, ctx) => eventUrl(ctx, c) }),
    }),
  }),
);

registered(
  'HEAD_REF_DELETED_EVENT',
  builder.prismaNode('Comment', {
    ...eventOptions('HEAD_REF_DELETED_EVENT', "The pull request's head branch was deleted."),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      pullRequest: t.field(pullOfEvent()),
      headRefName: t.exposeString('oldRef', { description: 'The name of the deleted branch.' }),
    }),
  }),
);
