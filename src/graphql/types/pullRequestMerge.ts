import * as mergeService from '../../services/pull/merge.ts';
import * as editService from '../../services/pull/edit.ts';
import { mergeStateStatus, pullProtectionState } from '../../services/pull/protectionState.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { opt, requireDbIdOf, type GlobalId } from '../ids.ts';
import { PROTECTION_SELECT, PullRequestRef } from './pullRequest.ts';

/** The database id of a global id of `typename`; another type's id names nothing. @throws NotFoundError */
function idOf(id: GlobalId, typename: string, what: string): number {
  return requireDbIdOf(id, typename, `${what} does not exist [id: 0]`);
}

/** GitHub's PullRequestMergeMethod, with Gitea's other `Do` styles. */
export const PullRequestMergeMethodEnum = builder.enumType('PullRequestMergeMethod', {
  description:
    'How a pull request is merged (Gitea `Do`): MERGE, SQUASH and REBASE as GitHub; REBASE_MERGE, FAST_FORWARD_ONLY and MANUALLY_MERGED are Gitea styles.',
  values: {
    MERGE: { value: 'merge', description: 'A merge commit with the base and the head as parents.' },
    SQUASH: { value: 'squash', description: "One commit with the pull request's changes on top of the base." },
    REBASE: { value: 'rebase', description: "The head's commits replayed onto the base; the base fast-forwards to them." },
    REBASE_MERGE: { value: 'rebase-merge', description: "The head's commits replayed onto the base, then a merge commit." },
    FAST_FORWARD_ONLY: {
      value: 'fast-forward-only',
      description: 'The base moves to the head; refused unless the head contains the base.',
    },
    MANUALLY_MERGED: { value: 'manually-merged', description: 'Record a merge done outside Forgegraph (give mergeCommitOid).' },
  } as const,
});

/** GitHub's PullRequestUpdateState. */
export const PullRequestUpdateStateEnum = builder.enumType('PullRequestUpdateState', {
  description: 'The state updatePullRequest can set.',
  values: { OPEN: { value: 'open' }, CLOSED: { value: 'closed' } } as const,
});

const MergeStateStatusEnum = builder.enumType('MergeStateStatus', {
  description: "GitHub's MergeStateStatus: whether a merge would go through now, as the merge itself decides (branch protection included).",
  values: {
    BEHIND: { description: 'The head branch is behind the base and the rule blocks outdated branches.' },
    BLOCKED: {
      description: 'Branch protection blocks the merge (checks, approvals, requested changes, review requests, protected files).',
    },
    CLEAN: { description: 'Mergeable, with passing or no commit statuses.' },
    DIRTY: { description: 'The merge conflicts.' },
    DRAFT: { description: 'A work-in-progress pull request (WIP: or [WIP] title prefix).' },
    HAS_HOOKS: { description: 'Never returned: Forgegraph has no pre-merge hooks.' },
    UNKNOWN: { description: 'Not known yet (being checked), or the pull request is closed or merged.' },
    UNSTABLE: { description: 'Mergeable, but a commit status that is not required is not successful.' },
  } as const,
});

builder.prismaObjectFields(PullRequestRef, (t) => ({
  viewerCanMerge: t.boolean({
    description:
      "Whether the viewer may merge this pull request now: it is open and not merged, the viewer may merge into the base branch (code write, or its rule's merge whitelist), and branch protection lets it through (or the viewer is a repository admin who may override it with force). Conflicts and work in progress are mergeStateStatus's business.",
    select: PROTECTION_SELECT,
    resolve: async (p, _args, ctx) => (await pullProtectionState(ctx.cx, p)).viewerCanMerge,
  }),
  mergeStateStatus: t.field({
    type: MergeStateStatusEnum,
    description: 'From the cached trial merge and the same branch protection check a merge makes.',
    select: PROTECTION_SELECT,
    resolve: async (p, _args, ctx) => mergeStateStatus(p, await pullProtectionState(ctx.cx, p)),
  }),
}));

builder.relayMutationField(
  'updatePullRequest',
  {
    inputFields: (t) => ({
      pullRequestId: t.globalID({ required: true }),
      title: t.string(),
      body: t.string(),
      baseRefName: t.string({ description: 'The new base branch (of the same repository).' }),
      state: t.field({ type: PullRequestUpdateStateEnum }),
      maintainerCanModify: t.boolean({ description: 'Only the poster, with code write on the head repository, may change it.' }),
      assigneeLogins: t.stringList({ description: 'Replaces the assignees (writers only; [] removes them all).' }),
      assigneeIds: t.globalIDList({ description: 'The new assignees (writers only), with any assigneeLogins; [] removes all.' }),
      projectIds: t.globalIDList({ description: "Projects replacing the pull request's projects (writers only; [] removes all)." }),
      labelIds: t.globalIDList({
        description: 'Label ids replacing the labels (writers only; [] removes them all; unusable labels are dropped).',
      }),
      milestoneId: t.globalID({ description: 'The milestone to set (writers only); there is no way to remove it here, as in Gitea.' }),
      dueOn: t.field({ type: 'DateTime', description: 'Only the date counts; null removes the due date.' }),
      contentVersion: t.int({ description: 'The content version last read; a different current one is a ConflictError.' }),
    }),
  },
  {
    description:
      'Edit a pull request (poster or writer; the service of PATCH /api/v1/repos/{o}/{r}/pulls/{index}). Only given fields change.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const loc = await editService.locatePullById(ctx.cx, idOf(input.pullRequestId, 'PullRequest', 'pull request'));
      const view = await editService.editPullRequest(ctx.cx, loc.ref, loc.index, {
        title: opt(input.title),
        body: opt(input.body),
        base: opt(input.baseRefName),
        state: opt(input.state),
        allowMaintainerEdit: opt(input.maintainerCanModify),
        assignees: opt(input.assigneeLogins),
        assigneeIds: input.assigneeIds?.map((id) => idOf(id, 'User', 'user')),
        projects: input.projectIds?.map((id) => idOf(id, 'Project', 'project')),
        labels: input.labelIds ? input.labelIds.map((id) => idOf(id, 'Label', 'label')) : undefined,
        milestone: input.milestoneId ? idOf(input.milestoneId, 'Milestone', 'milestone') : undefined,
        dueDate: input.dueOn === undefined ? undefined : input.dueOn === null ? null : input.dueOn.toISOString(),
        unsetDueDate: input.dueOn === null ? true : undefined,
        contentVersion: opt(input.contentVersion),
      });
      return { pullId: view.pull.id };
    },
  },
  {
    outputFields: (t) => ({
      pullRequest: t.prismaField({
        type: PullRequestRef,
        nullable: true,
        resolve: (query, p, _args, ctx) => ctx.cx.db.pullRequest.findUnique({ ...query, where: { id: p.pullId } }),
      }),
    }),
  },
);

builder.relayMutationField(
  'mergePullRequest',
  {
    inputFields: (t) => ({
      pullRequestId: t.globalID({ required: true }),
      mergeMethod: t.field({ type: PullRequestMergeMethodEnum, defaultValue: 'merge' }),
      commitHeadline: t.string({ description: "The merge or squash commit's title (Gitea's default message when blank)." }),
      commitBody: t.string({ description: 'Appended to the headline after a blank line.' }),
      expectedHeadOid: t.field({
        type: 'GitObjectID',
        description: 'The head commit the viewer reviewed; a different current head is a ConflictError.',
      }),
      mergeCommitOid: t.string({ description: 'MANUALLY_MERGED only: the commit of the base branch that merged the head.' }),
      deleteBranch: t.boolean({
        description: "Delete the head branch afterwards (when allowed); the repository's deleteBranchOnMerge when absent.",
      }),
    }),
  },
  {
    description:
      'Merge a pull request (code writers of the base; the service of POST /api/v1/repos/{o}/{r}/pulls/{index}/merge). A refusal that REST answers with 405 is a PreconditionFailedError.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const loc = await editService.locatePullById(ctx.cx, idOf(input.pullRequestId, 'PullRequest', 'pull request'));
      const result = await mergeService.mergePullRequest(ctx.cx, loc.ref, loc.index, {
        do: input.mergeMethod ?? 'merge',
        mergeTitleField: opt(input.commitHeadline),
        mergeMessageField: opt(input.commitBody),
        headCommitId: opt(input.expectedHeadOid),
        mergeCommitId: opt(input.mergeCommitOid),
        deleteBranchAfterMerge: opt(input.deleteBranch),
      });
      return { pullId: result.pull.id };
    },
  },
  {
    outputFields: (t) => ({
      pullRequest: t.prismaField({
        type: PullRequestRef,
        nullable: true,
        resolve: (query, p, _args, ctx) => ctx.cx.db.pullRequest.findUnique({ ...query, where: { id: p.pullId } }),
      }),
    }),
  },
);
