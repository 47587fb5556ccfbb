// Locks and pins in the graph: Issue.activeLockReason / isPinned, lockLockable, unlockLockable, pinIssue, unpinIssue
// (GitHub's names), through the services of PUT/DELETE …/issues/{index}/lock and POST/DELETE …/pin.
import * as lockService from '../../services/issue/lock.ts';
import { locateIssueById, type IssueLocation } from '../../services/issue/issue.ts';
import * as pinService from '../../services/issue/pin.ts';
import { locatePullById } from '../../services/pull/edit.ts';
import type { ServiceContext } from '../../services/context.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId } from '../ids.ts';
import { IssueRef } from './issue.ts';
import { LockableRef } from './githubInterfaces.ts';

/** GitHub's LockReason ↔ Gitea's default lock reasons ([repository.issue] LOCK_REASONS). */
const REASONS = { OFF_TOPIC: 'Off-topic', RESOLVED: 'Resolved', SPAM: 'Spam', TOO_HEATED: 'Too heated' } as const;
type LockReason = keyof typeof REASONS;

const LockReasonEnum = builder.enumType('LockReason', {
  description: 'Why a conversation was locked (Gitea stores the text of the reason in the LOCK timeline comment).',
  values: Object.keys(REASONS) as LockReason[],
});

/** The GitHub enum of a stored reason; null for a free-text or empty reason. */
function reasonEnum(content: string): LockReason | null {
  const hit = Object.entries(REASONS).find(([, text]) => text.toLowerCase() === content.trim().toLowerCase());
  return hit ? (hit[0] as LockReason) : null;
}

builder.prismaObjectFields('Issue', (t) => ({
  activeLockReason: t.field({
    type: LockReasonEnum,
    nullable: true,
    description: 'The reason of the active lock, when it is one of the known reasons.',
    select: { isLocked: true, comments: { where: { type: 'LOCK' }, orderBy: { id: 'desc' }, take: 1, select: { content: true } } },
    resolve: (i) => (i.isLocked && i.comments[0] ? reasonEnum(i.comments[0].content) : null),
  }),
  isPinned: t.boolean({ description: 'Whether the issue is pinned to its repository.', resolve: (i) => i.pinOrder > 0 }),
  pinOrder: t.exposeInt('pinOrder', { description: 'Gitea pin_order: 1.. among the pinned issues, 0 when not pinned.' }),
}));

builder.prismaObjectFields('PullRequest', (t) => ({
  activeLockReason: t.field({
    type: LockReasonEnum,
    nullable: true,
    description: 'The reason of the active lock, when it is one of the known reasons.',
    select: {
      issue: {
        select: { isLocked: true, comments: { where: { type: 'LOCK' }, orderBy: { id: 'desc' }, take: 1, select: { content: true } } },
      },
    },
    resolve: (p) => (p.issue.isLocked && p.issue.comments[0] ? reasonEnum(p.issue.comments[0].content) : null),
  }),
  isPinned: t.boolean({
    description: 'Whether the pull request is pinned to its repository.',
    select: { issue: { select: { pinOrder: true } } },
    resolve: (p) => p.issue.pinOrder > 0,
  }),
}));

/** An Issue or PullRequest global id → where the issue lives (an unknown or invisible id answers NotFound later). */
function locate(cx: ServiceContext, id: { typename: string; id: string }): Promise<IssueLocation> {
  return id.typename === 'PullRequest' ? locatePullById(cx, dbId(id.id)) : locateIssueById(cx, id.typename === 'Issue' ? dbId(id.id) : 0);
}

builder.relayMutationField(
  'lockLockable',
  {
    inputFields: (t) => ({
      lockableId: t.globalID({ required: true, description: 'An Issue or PullRequest.' }),
      lockReason: t.field({ type: LockReasonEnum }),
    }),
  },
  {
    description: 'Lock the conversation of an issue or pull request (as PUT /api/v1/repos/{o}/{r}/issues/{index}/lock).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      const { ref, index } = await locate(ctx.cx, input.lockableId);
      return { issue: await lockService.lockIssue(ctx.cx, ref, index, input.lockReason ? REASONS[input.lockReason] : '') };
    },
  },
  {
    outputFields: (t) => ({
      lockedRecord: t.field({ type: LockableRef, description: 'The issue (of a pull request: its issue).', resolve: (p) => p.issue }),
    }),
  },
);

builder.relayMutationField(
  'unlockLockable',
  { inputFields: (t) => ({ lockableId: t.globalID({ required: true, description: 'An Issue or PullRequest.' }) }) },
  {
    description: 'Unlock the conversation of an issue or pull request (as DELETE /api/v1/repos/{o}/{r}/issues/{index}/lock).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      const { ref, index } = await locate(ctx.cx, input.lockableId);
      return { issue: await lockService.unlockIssue(ctx.cx, ref, index) };
    },
  },
  { outputFields: (t) => ({ unlockedRecord: t.field({ type: LockableRef, resolve: (p) => p.issue }) }) },
);

for (const [name, pin] of [
  ['pinIssue', true],
  ['unpinIssue', false],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ issueId: t.globalID({ required: true, description: 'An Issue or PullRequest.' }) }) },
    {
      description: `${pin ? 'Pin' : 'Unpin'} an issue or pull request (as ${pin ? 'POST' : 'DELETE'} /api/v1/repos/{o}/{r}/issues/{index}/pin; repository admins).`,
      ...writeScope('issue'),
      resolve: async (_root, { input }, ctx) => {
        const { ref, index } = await locate(ctx.cx, input.issueId);
        return { issue: await (pin ? pinService.pinIssue : pinService.unpinIssue)(ctx.cx, ref, index) };
      },
    },
    { outputFields: (t) => ({ issue: t.field({ type: IssueRef, resolve: (p) => p.issue }) }) },
  );
}
