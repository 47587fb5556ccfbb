import type { Models } from '../../db/client.ts';
import { builder } from '../builder.ts';

type Where = Models.Prisma.CommentWhereInput;

/**
 * The kinds of timeline items stored as Comment rows, under GitHub's item type names: those of issues, then the
 * pull request's own. Each is shown as the GitHub type of its name (`CLOSED_EVENT` → ClosedEvent).
 */
const ISSUE_ITEMS = [
  'ISSUE_COMMENT',
  'CLOSED_EVENT',
  'REOPENED_EVENT',
  'LABELED_EVENT',
  'UNLABELED_EVENT',
  'ASSIGNED_EVENT',
  'UNASSIGNED_EVENT',
  'MILESTONED_EVENT',
  'DEMILESTONED_EVENT',
  'RENAMED_TITLE_EVENT',
  'LOCKED_EVENT',
  'UNLOCKED_EVENT',
  'PINNED_EVENT',
  'UNPINNED_EVENT',
] as const;
const PULL_ITEMS = ['MERGED_EVENT', 'HEAD_REF_DELETED_EVENT'] as const;
export type IssueItemType = (typeof ISSUE_ITEMS)[number];
export type ItemType = IssueItemType | (typeof PULL_ITEMS)[number];
export const ISSUE_ITEM_TYPES: readonly ItemType[] = ISSUE_ITEMS;
export const PULL_ITEM_TYPES: readonly ItemType[] = [...ISSUE_ITEMS, ...PULL_ITEMS];

/**
 * The rows of each item type (Gitea keeps added/removed in one comment type, told apart by a column). A label
 * event whose label was deleted is no item at all (GitHub's `label` is non-null); filtering it here keeps the
 * page and its totalCount in agreement.
 */
const ITEM_WHERE: Record<ItemType, Where> = {
  ISSUE_COMMENT: { type: 'COMMENT' },
  CLOSED_EVENT: { type: 'CLOSE' },
  REOPENED_EVENT: { type: 'REOPEN' },
  LABELED_EVENT: { type: 'LABEL', content: '1', labelId: { not: null } },
  UNLABELED_EVENT: { type: 'LABEL', NOT: { content: '1' }, labelId: { not: null } },
  ASSIGNED_EVENT: { type: 'ASSIGNEES', removedAssignee: false },
  UNASSIGNED_EVENT: { type: 'ASSIGNEES', removedAssignee: true },
  MILESTONED_EVENT: { type: 'MILESTONE', milestoneId: { not: null } },
  DEMILESTONED_EVENT: { type: 'MILESTONE', milestoneId: null },
  RENAMED_TITLE_EVENT: { type: 'CHANGE_TITLE' },
  LOCKED_EVENT: { type: 'LOCK' },
  UNLOCKED_EVENT: { type: 'UNLOCK' },
  PINNED_EVENT: { type: 'PIN' },
  UNPINNED_EVENT: { type: 'UNPIN' },
  MERGED_EVENT: { type: 'MERGE_PULL' },
  HEAD_REF_DELETED_EVENT: { type: 'DELETE_BRANCH' },
};

/** The rows of one kind of item. */
export const itemWhere = (item: ItemType): Where => ITEM_WHERE[item];

/** GraphQL type name of an item type: `CLOSED_EVENT` → `ClosedEvent`. */
export const typeNameOf = (item: ItemType): string =>
  item
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The member a Comment row is shown as (rows are loaded only when they match one of ITEM_WHERE). */
export function itemTypeOf(c: Pick<Models.Comment, 'type' | 'content' | 'removedAssignee' | 'milestoneId'>): ItemType {
  switch (c.type) {
    case 'CLOSE':
      return 'CLOSED_EVENT';
    case 'REOPEN':
      return 'REOPENED_EVENT';
    case 'LABEL':
      return c.content === '1' ? 'LABELED_EVENT' : 'UNLABELED_EVENT';
    case 'ASSIGNEES':
      return c.removedAssignee ? 'UNASSIGNED_EVENT' : 'ASSIGNED_EVENT';
    case 'MILESTONE':
      return c.milestoneId !== null ? 'MILESTONED_EVENT' : 'DEMILESTONED_EVENT';
    case 'CHANGE_TITLE':
      return 'RENAMED_TITLE_EVENT';
    case 'LOCK':
      return 'LOCKED_EVENT';
    case 'UNLOCK':
      return 'UNLOCKED_EVENT';
    case 'PIN':
      return 'PINNED_EVENT';
    case 'UNPIN':
      return 'UNPINNED_EVENT';
    case 'MERGE_PULL':
      return 'MERGED_EVENT';
    case 'DELETE_BRANCH':
      return 'HEAD_REF_DELETED_EVENT';
    default:
      return 'ISSUE_COMMENT';
  }
}

/** The name of the interface below: the type a timeline's union selection is planned as (timelineConnection.ts). */
export const TIMELINE_ITEM = 'TimelineItem';

/**
 * Every timeline member stored as a Comment row implements this interface. GitHub's timelines are unions
 * (IssueTimelineItems, PullRequestTimelineItems), which plugin-prisma cannot plan through; their selections are
 * planned as this interface instead, so a whole page of items, whatever their types, loads as one query.
 */
export const TimelineItemRef = builder.prismaInterface('Comment', {
  variant: TIMELINE_ITEM,
  description: 'An item of an issue or pull request timeline stored as a comment row: a comment or an event.',
  fields: (t) => ({
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the item was created.' }),
  }),
  resolveType: (row) => typeNameOf(itemTypeOf(row)),
});

/**
 * The Comment rows of a timeline holding `kinds`: those of the asked item types among them (all by default;
 * GitHub's kinds we never store match nothing), created at or after `since`.
 */
export function timelineWhere(kinds: readonly ItemType[], args: { itemTypes?: readonly string[] | null; since?: Date | null }): Where {
  const asked = args.itemTypes?.length ? args.itemTypes : kinds;
  const items = [...new Set(asked)].filter((i): i is ItemType => (kinds as readonly string[]).includes(i));
  // Only kinds this timeline never holds: nothing (an empty OR would match everything).
  const match: Where = items.length ? { OR: items.map(itemWhere) } : { id: { in: [] } };
  return { AND: [match, ...(args.since ? [{ createdAt: { gte: args.since } }] : [])] };
}
