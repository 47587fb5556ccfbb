// GitHub's timelines: Issue.timelineItems and PullRequest.timelineItems, unions of the comment and event types,
// over the issue's Comment rows.
import { prismaConnectionHelpers, type IndirectInclude } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { inherits } from '../policy.ts';
import { totalOf } from '../totalCount.ts';
import { IssueRef } from './issue.ts';
import { IssueCommentRef } from './issueComment.ts';
import { PullRequestRef } from './pullRequest.ts';
import { EVENT_REFS } from './timelineEvents.ts';
import {
  ISSUE_ITEM_TYPES,
  itemTypeOf,
  type ItemType,
  PULL_ITEM_TYPES,
  TIMELINE_ITEM,
  TimelineItemRef,
  timelineWhere,
  typeNameOf,
} from './timelineItem.ts';

/** GitHub's kinds of issue timeline items we never store: valid in `itemTypes`, where they match nothing. */
const GITHUB_ONLY_ISSUE_ITEMS = [
  'ADDED_TO_PROJECT_EVENT',
  'COMMENT_DELETED_EVENT',
  'CONNECTED_EVENT',
  'CONVERTED_NOTE_TO_ISSUE_EVENT',
  'CONVERTED_TO_DISCUSSION_EVENT',
  'CROSS_REFERENCED_EVENT',
  'DISCONNECTED_EVENT',
  'MARKED_AS_DUPLICATE_EVENT',
  'MENTIONED_EVENT',
  'MOVED_COLUMNS_IN_PROJECT_EVENT',
  'PARENT_ISSUE_ADDED_EVENT',
  'PARENT_ISSUE_REMOVED_EVENT',
  'REFERENCED_EVENT',
  'REMOVED_FROM_PROJECT_EVENT',
  'SUBSCRIBED_EVENT',
  'SUB_ISSUE_ADDED_EVENT',
  'SUB_ISSUE_REMOVED_EVENT',
  'TRANSFERRED_EVENT',
  'UNMARKED_AS_DUPLICATE_EVENT',
  'UNSUBSCRIBED_EVENT',
  'USER_BLOCKED_EVENT',
];

/** The same for pull request timelines: GitHub's pull request-only kinds we never store, besides the above. */
const GITHUB_ONLY_PULL_ITEMS = [
  'ADDED_TO_MERGE_QUEUE_EVENT',
  'AUTOMATIC_BASE_CHANGE_FAILED_EVENT',
  'AUTOMATIC_BASE_CHANGE_SUCCEEDED_EVENT',
  'AUTO_MERGE_DISABLED_EVENT',
  'AUTO_MERGE_ENABLED_EVENT',
  'AUTO_REBASE_ENABLED_EVENT',
  'AUTO_SQUASH_ENABLED_EVENT',
  'BASE_REF_CHANGED_EVENT',
  'BASE_REF_DELETED_EVENT',
  'BASE_REF_FORCE_PUSHED_EVENT',
  'CONVERT_TO_DRAFT_EVENT',
  'DEPLOYED_EVENT',
  'DEPLOYMENT_ENVIRONMENT_CHANGED_EVENT',
  'HEAD_REF_FORCE_PUSHED_EVENT',
  'HEAD_REF_RESTORED_EVENT',
  'PULL_REQUEST_COMMIT',
  'PULL_REQUEST_COMMIT_COMMENT_THREAD',
  'PULL_REQUEST_REVIEW',
  'PULL_REQUEST_REVIEW_THREAD',
  'PULL_REQUEST_REVISION_MARKER',
  'READY_FOR_REVIEW_EVENT',
  'REMOVED_FROM_MERGE_QUEUE_EVENT',
  'REVIEW_DISMISSED_EVENT',
  'REVIEW_REQUEST_REMOVED_EVENT',
  'REVIEW_REQUESTED_EVENT',
];

const itemTypeEnum = (name: string, description: string, values: readonly string[]) =>
  builder.enumType(name, {
    description,
    values: Object.fromEntries([...values].sort().map((v) => [v, { value: v }])),
  });

const IssueItemTypeEnum = itemTypeEnum('IssueTimelineItemsItemType', 'The kinds of issue timeline items.', [
  ...ISSUE_ITEM_TYPES,
  ...GITHUB_ONLY_ISSUE_ITEMS,
]);
const PullItemTypeEnum = itemTypeEnum('PullRequestTimelineItemsItemType', 'The kinds of pull request timeline items.', [
  ...PULL_ITEM_TYPES,
  ...GITHUB_ONLY_ISSUE_ITEMS,
  ...GITHUB_ONLY_PULL_ITEMS,
]);

/** The union of the object types of `kinds` (a Comment row resolves to the type of its kind). */
const timelineUnion = (name: string, description: string, kinds: readonly ItemType[]) =>
  builder.unionType(name, {
    description,
    types: kinds.map((k) => {
      const ref = k === 'ISSUE_COMMENT' ? IssueCommentRef : EVENT_REFS[k];
      if (!ref) throw new Error(`no object type is registered for the timeline item ${k}`);
      return ref as typeof IssueCommentRef;
    }),
    resolveType: (row: Models.Comment) => typeNameOf(itemTypeOf(row)),
  });

const IssueItemsUnion = timelineUnion('IssueTimelineItems', 'An item in an issue timeline.', ISSUE_ITEM_TYPES);
const PullItemsUnion = timelineUnion('PullRequestTimelineItems', 'An item in a pull request timeline.', PULL_ITEM_TYPES);

/**
 * Where the union's selection is under the connection, planned as the TimelineItem interface (plugin-prisma
 * plans no union): a fragment on any member type then adds that member's selection to the one Comment query.
 */
const NODES_AS_ITEMS: IndirectInclude = {
  getType: () => TIMELINE_ITEM,
  paths: [[{ name: 'edges' }, { name: 'node' }], [{ name: 'nodes' }]],
};

type TimelineArgs = {
  itemTypes?: readonly string[] | null;
  since?: Date | null;
  skip?: number | null;
  first?: number | null;
  last?: number | null;
  before?: string | null;
  after?: string | null;
};
type Nested = (selection: true, path: IndirectInclude) => unknown;

/** The page query, its count's filter and the result of a timeline holding `kinds`. */
function timelineHelpers(kinds: readonly ItemType[]) {
  const helper = prismaConnectionHelpers(builder, TimelineItemRef, {
    cursor: 'id',
    query: (args: TimelineArgs) => ({ where: timelineWhere(kinds, args), orderBy: { id: 'asc' as const } }),
  });
  return {
    /** The Comment rows' query: the page after skipping `skip` items from where the page starts. */
    query(args: TimelineArgs, ctx: GraphQLContext, nested: Nested) {
      const q = helper.getQuery(args, ctx, () => nested(true, NODES_AS_ITEMS) as never);
      return { ...q, skip: (q.skip ?? 0) + (args.skip ?? 0) };
    },
    countWhere: (args: TimelineArgs) => timelineWhere(kinds, args),
    /** The connection of the loaded rows: items were skipped before the page when `skip` passed over any. */
    resolve(rows: Models.Comment[], args: TimelineArgs, ctx: GraphQLContext, total: number) {
      const conn = helper.resolve(rows, args, ctx);
      const skipped = (args.skip ?? 0) > 0 && total > 0;
      const backward = args.before != null || args.last != null;
      if (skipped && backward) conn.pageInfo.hasNextPage = true;
      if (skipped && !backward) conn.pageInfo.hasPreviousPage = true;
      return { ...conn, total };
    },
  };
}

const SKIP = 'Skips the first _n_ items of the page, counted from the cursor (or the start, or the end with `last`).';

const issueTimeline = timelineHelpers(ISSUE_ITEM_TYPES);
const pullTimeline = timelineHelpers(PULL_ITEM_TYPES);

builder.prismaObjectFields(IssueRef, (t) => ({
  timelineItems: t.connection(
    {
      type: IssueItemsUnion,
      description: 'Comments and events, oldest first.',
      ...inherits('the timeline of a readable issue (as GET …/issues/{index}/timeline)'),
      args: {
        itemTypes: t.arg({ type: [IssueItemTypeEnum], required: false, description: 'Only these kinds of items.' }),
        since: t.arg({ type: 'DateTime', required: false, description: 'Only items created at or after this time.' }),
        skip: t.arg.int({ required: false, description: SKIP }),
      },
      select: (args, ctx, nested) => ({
        comments: issueTimeline.query(args, ctx, nested as unknown as Nested),
        _count: { select: { comments: { where: issueTimeline.countWhere(args) } } },
      }),
      resolve: (i, args, ctx) => issueTimeline.resolve(i.comments, args, ctx, i._count.comments),
    },
    { name: 'IssueTimelineItemsConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'IssueTimelineItemsEdge' },
  ),
}));

builder.prismaObjectFields(PullRequestRef, (t) => ({
  timelineItems: t.connection(
    {
      type: PullItemsUnion,
      description: "Comments and events of the pull request's issue, its merge and head branch deletion included, oldest first.",
      ...inherits('the timeline of a readable pull request'),
      args: {
        itemTypes: t.arg({ type: [PullItemTypeEnum], required: false, description: 'Only these kinds of items.' }),
        since: t.arg({ type: 'DateTime', required: false, description: 'Only items created at or after this time.' }),
        skip: t.arg.int({ required: false, description: SKIP }),
      },
      select: (args, ctx, nested) => ({
        issue: {
          select: {
            comments: pullTimeline.query(args, ctx, nested as unknown as Nested),
            _count: { select: { comments: { where: pullTimeline.countWhere(args) } } },
          },
        },
      }),
      resolve: (p, args, ctx) => pullTimeline.resolve(p.issue.comments, args, ctx, p.issue._count.comments),
    },
    { name: 'PullRequestTimelineItemsConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'PullRequestTimelineItemsEdge' },
  ),
}));
