import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import * as assigneeService from '../../services/issue/assignee.ts';
import * as issueLabelService from '../../services/issue/issueLabel.ts';
import * as pullEditService from '../../services/pull/edit.ts';
import type { ServiceContext } from '../../services/context.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { dbIdOf, requireDbIdOf, type GlobalId } from '../ids.ts';
import { bothNodePaths, withIssueScalars } from '../selection.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { filteredBy } from '../policy.ts';
import {
  IssueConnectionRef,
  IssueFiltersInput,
  IssueOrderInput,
  IssueRef,
  IssueStateEnum,
  ISSUE_ORDER_DEFAULT,
  issueListWhere,
  issueOrderBy,
} from './issue.ts';
import { LabelRef } from './label.ts';
import { AssignableRef, LabelableRef } from './githubInterfaces.ts';
import { withTotal } from '../totalCount.ts';

/**
 * The issue of an Assignable/Labelable global id: an issue's, or a pull request's (located through its issue's
 * read policy); another type's id names nothing (NotFound, as the REST path).
 */
async function issueTarget(cx: ServiceContext, id: GlobalId): Promise<assigneeService.IssueTarget> {
  if (id.typename === 'PullRequest') return pullEditService.locatePullById(cx, dbIdOf(id, 'PullRequest'));
  return { issueId: dbIdOf(id, 'Issue') };
}

/** User database ids of User global ids. @throws NotFoundError for another type's id */
function userIds(ids: readonly GlobalId[]): number[] {
  return ids.map((id) => requireDbIdOf(id, 'User', 'user does not exist [uid: 0]'));
}

/** Label database ids of Label global ids. @throws NotFoundError for another type's id */
function labelIds(ids: readonly GlobalId[]): number[] {
  return ids.map((id) => requireDbIdOf(id, 'Label', 'label does not exist [label_id: 0]'));
}

builder.relayMutationField(
  'addAssigneesToAssignable',
  {
    inputFields: (t) => ({
      assignableId: t.globalID({ required: true, description: 'The issue or pull request to assign.' }),
      assigneeIds: t.globalIDList({ required: true, description: 'The users to add; those already assigned are skipped.' }),
      assigneeLogins: t.stringList({ description: 'More users to add, by login.' }),
    }),
  },
  {
    description: 'Add assignees to an issue or pull request (writers; as POST /api/v1/repos/{o}/{r}/issues/{index}/assignees).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      issue: (
        await assigneeService.addAssignees(
          ctx.cx,
          await issueTarget(ctx.cx, input.assignableId),
          input.assigneeLogins ?? [],
          userIds(input.assigneeIds),
        )
      ).issue,
    }),
  },
  {
    outputFields: (t) => ({
      assignable: t.field({ type: AssignableRef, description: 'The issue or pull request.', resolve: (p) => p.issue }),
    }),
  },
);

builder.relayMutationField(
  'removeAssigneesFromAssignable',
  {
    inputFields: (t) => ({
      assignableId: t.globalID({ required: true, description: 'The issue or pull request to unassign.' }),
      assigneeIds: t.globalIDList({ required: true, description: 'The users to remove; those not assigned are skipped.' }),
      assigneeLogins: t.stringList({ description: 'More users to remove, by login.' }),
    }),
  },
  {
    description: 'Remove assignees from an issue or pull request (writers; as DELETE /api/v1/repos/{o}/{r}/issues/{index}/assignees).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      issue: (
        await assigneeService.removeAssignees(
          ctx.cx,
          await issueTarget(ctx.cx, input.assignableId),
          input.assigneeLogins ?? [],
          userIds(input.assigneeIds),
        )
      ).issue,
    }),
  },
  {
    outputFields: (t) => ({
      assignable: t.field({ type: AssignableRef, description: 'The issue or pull request.', resolve: (p) => p.issue }),
    }),
  },
);

builder.relayMutationField(
  'addLabelsToLabelable',
  {
    inputFields: (t) => ({
      labelableId: t.globalID({ required: true, description: 'The issue or pull request to label.' }),
      labelIds: t.globalIDList({
        required: true,
        description:
          "Labels of the repository or of its organization; others are ignored. An exclusive label replaces the issue's labels of its scope.",
      }),
    }),
  },
  {
    description: 'Add labels to an issue or pull request (writers; as POST /api/v1/repos/{o}/{r}/issues/{index}/labels).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      issue: (await issueLabelService.addIssueLabels(ctx.cx, await issueTarget(ctx.cx, input.labelableId), labelIds(input.labelIds))).issue,
    }),
  },
  {
    outputFields: (t) => ({
      labelable: t.field({ type: LabelableRef, description: 'The issue or pull request.', resolve: (p) => p.issue }),
    }),
  },
);

builder.relayMutationField(
  'removeLabelsFromLabelable',
  {
    inputFields: (t) => ({
      labelableId: t.globalID({ required: true, description: 'The issue or pull request to unlabel.' }),
      labelIds: t.globalIDList({
        required: true,
        description: 'Labels of the repository or of its organization (another label is a ValidationError).',
      }),
    }),
  },
  {
    description: 'Remove labels from an issue or pull request (writers; as DELETE /api/v1/repos/{o}/{r}/issues/{index}/labels/{id}).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      issue: await issueLabelService.removeIssueLabels(ctx.cx, await issueTarget(ctx.cx, input.labelableId), labelIds(input.labelIds)),
    }),
  },
  {
    outputFields: (t) => ({
      labelable: t.field({ type: LabelableRef, description: 'The issue or pull request.', resolve: (p) => p.issue }),
    }),
  },
);

builder.relayMutationField(
  'clearLabelsFromLabelable',
  { inputFields: (t) => ({ labelableId: t.globalID({ required: true, description: 'The issue or pull request to clear.' }) }) },
  {
    description: 'Remove every label from an issue or pull request (writers; as DELETE /api/v1/repos/{o}/{r}/issues/{index}/labels).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      issue: await issueLabelService.clearIssueLabels(ctx.cx, await issueTarget(ctx.cx, input.labelableId)),
    }),
  },
  {
    outputFields: (t) => ({
      labelable: t.field({ type: LabelableRef, description: 'The issue or pull request.', resolve: (p) => p.issue }),
    }),
  },
);

const labelIssues = prismaConnectionHelpers(builder, 'IssueLabel', {
  cursor: 'id',
  select: (nodeSelection) => ({ issue: withIssueScalars(nodeSelection(true)) }),
  resolveNode: (row) => row.issue,
});

builder.prismaObjectFields(LabelRef, (t) => ({
  issues: t.connection(
    {
      type: IssueRef,
      description:
        'The issues (not pull requests) carrying the label that the viewer can see; newest first unless `orderBy` says otherwise.',
      ...filteredBy('issueReadWhere'),
      args: {
        states: t.arg({ type: [IssueStateEnum], required: false }),
        labels: t.arg.stringList({ description: 'Only issues also carrying every one of these label names.' }),
        orderBy: t.arg({ type: IssueOrderInput, defaultValue: ISSUE_ORDER_DEFAULT }),
        filterBy: t.arg({ type: IssueFiltersInput }),
      },
      select: (args, ctx, nested) => {
        // Visibility is decided per issue (its repository and unit), whatever the label's owner.
        const where = { issue: { AND: [{ isPull: false }, issueReadWhere(ctx.cx), issueListWhere(args, ctx.cx.viewer?.id)] } };
        const orderBy = issueOrderBy(args.orderBy).map((issue) => ({ issue }));
        return {
          issueLabels: { ...labelIssues.getQuery(args, ctx, bothNodePaths(nested)), where, orderBy },
          _count: { select: { issueLabels: { where } } },
        };
      },
      resolve: (label, args, ctx) => withTotal(labelIssues.resolve(label.issueLabels, args, ctx), label._count.issueLabels),
    },
    IssueConnectionRef,
  ),
}));
