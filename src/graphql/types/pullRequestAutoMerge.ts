// GitHub's auto-merge and draft mutations over Gitea's scheduled merges (merge_when_checks_succeed) and
// work-in-progress title prefixes.
import { cancelAutoMerge } from '../../services/pull/autoMerge.ts';
import { setPullDraft } from '../../services/pull/draft.ts';
import * as editService from '../../services/pull/edit.ts';
import * as mergeService from '../../services/pull/merge.ts';
import type { MergeDo } from '../../services/pull/types.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { opt, requireDbIdOf, type GlobalId } from '../ids.ts';
import { inherits } from '../policy.ts';
import { withUserScalars } from '../selection.ts';
import { PullRequestRef } from './pullRequest.ts';
import { PullRequestMergeMethodEnum } from './pullRequestMerge.ts';
import { ActorRef } from './repositoryOwner.ts';

const pullIdOf = (id: GlobalId) => requireDbIdOf(id, 'PullRequest', 'pull request does not exist [id: 0]');

const AutoMergeRequestRef = builder.prismaObject('PullAutoMerge', {
  name: 'AutoMergeRequest',
  description: 'A merge scheduled to happen once required checks and approvals pass (Gitea merge_when_checks_succeed).',
  fields: (t) => ({
    enabledAt: t.expose('createdAt', { type: 'DateTime' }),
    enabledBy: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Who scheduled it (the merge runs as them); null once the account is deleted.',
      ...inherits('the timeline shows who scheduled the merge to readers of the pull request'),
      select: (_a, _c, nested) => ({ doer: withUserScalars(nested(true)) }),
      resolve: (a) => a.doer,
    }),
    mergeMethod: t.field({ type: PullRequestMergeMethodEnum, resolve: (a) => a.mergeStyle as MergeDo }),
    commitHeadline: t.string({ description: 'The first line of the merge message.', resolve: (a) => a.message.split('\n', 1)[0] ?? '' }),
    commitBody: t.string({
      description: 'The merge message after its first line and the blank line.',
      resolve: (a) => a.message.split('\n').slice(1).join('\n').replace(/^\n/, ''),
    }),
    deleteBranch: t.exposeBoolean('deleteBranchAfterMerge'),
    authorEmail: t.string({
      nullable: true,
      description: "The e-mail address the merge commit will carry, shown to its scheduler only (null: their git signature's).",
      resolve: (a, _args, ctx) => (a.doerId !== null && a.doerId === ctx.cx.viewer?.id && a.authorEmail ? a.authorEmail : null),
    }),
  }),
});

builder.prismaObjectFields(PullRequestRef, (t) => ({
  autoMergeRequest: t.relation('autoMerge', {
    type: AutoMergeRequestRef,
    nullable: true,
    description: 'The scheduled merge, if any.',
    ...inherits('the timeline shows the scheduling to readers of the pull request'),
  }),
}));

builder.relayMutationField(
  'enablePullRequestAutoMerge',
  {
    inputFields: (t) => ({
      pullRequestId: t.globalID({ required: true }),
      mergeMethod: t.field({ type: PullRequestMergeMethodEnum, defaultValue: 'merge' }),
      commitHeadline: t.string(),
      commitBody: t.string(),
      expectedHeadOid: t.field({
        type: 'GitObjectID',
        description: 'The head commit the viewer reviewed; a different current head is a ConflictError.',
      }),
      deleteBranch: t.boolean(),
      authorEmail: t.string({ description: "One of the viewer's activated e-mail addresses for the merge commit." }),
    }),
  },
  {
    description:
      'Schedule the merge for when required checks and approvals pass (the service of POST …/pulls/{index}/merge with merge_when_checks_succeed; the same gates as mergePullRequest). Already scheduled: ConflictError.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const loc = await editService.locatePullById(ctx.cx, pullIdOf(input.pullRequestId));
      const result = await mergeService.mergePullRequest(ctx.cx, loc.ref, loc.index, {
        do: input.mergeMethod ?? 'merge',
        mergeTitleField: opt(input.commitHeadline),
        mergeMessageField: opt(input.commitBody),
        headCommitId: opt(input.expectedHeadOid),
        deleteBranchAfterMerge: opt(input.deleteBranch),
        authorEmail: opt(input.authorEmail),
        mergeWhenChecksSucceed: true,
      });
      return { pullId: result.pull.id };
    },
  },
  {
    outputFields: (t) => ({
      pullRequest: t.prismaField({
        type: PullRequestRef,
        nullable: true,
        resolve: (query, p, _a, ctx) => ctx.cx.db.pullRequest.findUnique({ ...query, where: { id: p.pullId } }),
      }),
    }),
  },
);

builder.relayMutationField(
  'disablePullRequestAutoMerge',
  { inputFields: (t) => ({ pullRequestId: t.globalID({ required: true }) }) },
  {
    description: 'Cancel a scheduled merge (its scheduler or a repository admin; the service of DELETE …/pulls/{index}/merge).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const pullId = pullIdOf(input.pullRequestId);
      const loc = await editService.locatePullById(ctx.cx, pullId);
      await cancelAutoMerge(ctx.cx, loc.ref, loc.index);
      return { pullId };
    },
  },
  {
    outputFields: (t) => ({
      pullRequest: t.prismaField({
        type: PullRequestRef,
        nullable: true,
        resolve: (query, p, _a, ctx) => ctx.cx.db.pullRequest.findUnique({ ...query, where: { id: p.pullId } }),
      }),
    }),
  },
);

type PullStateChange = (cx: Parameters<typeof setPullDraft>[0], loc: editService.PullLocation) => ReturnType<typeof setPullDraft>;
const TITLE_EDIT = 'A title edit through the service of PATCH …/pulls/{index} (poster or writer).';
const STATE_EDIT = 'Through the service of PATCH …/pulls/{index} (poster or writer).';

for (const [name, description, change] of [
  [
    'markPullRequestReadyForReview',
    `Take a pull request out of work in progress: its WIP prefix is removed from the title. ${TITLE_EDIT}`,
    (cx, loc) => setPullDraft(cx, loc.ref, loc.index, false),
  ],
  [
    'convertPullRequestToDraft',
    `Mark a pull request as work in progress: its title gets the \`WIP: \` prefix. ${TITLE_EDIT}`,
    (cx, loc) => setPullDraft(cx, loc.ref, loc.index, true),
  ],
  [
    'closePullRequest',
    `Close a pull request without merging it. ${STATE_EDIT}`,
    (cx, loc) => editService.editPullRequest(cx, loc.ref, loc.index, { state: 'closed' }),
  ],
  [
    'reopenPullRequest',
    `Reopen a closed pull request. ${STATE_EDIT}`,
    (cx, loc) => editService.editPullRequest(cx, loc.ref, loc.index, { state: 'open' }),
  ],
] as const satisfies ReadonlyArray<readonly [string, string, PullStateChange]>) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ pullRequestId: t.globalID({ required: true }) }) },
    {
      description,
      ...writeScope('repository'),
      resolve: async (_root, { input }, ctx) => {
        const loc = await editService.locatePullById(ctx.cx, pullIdOf(input.pullRequestId));
        const view = await change(ctx.cx, loc);
        return { pullId: view.pull.id };
      },
    },
    {
      outputFields: (t) => ({
        pullRequest: t.prismaField({
          type: PullRequestRef,
          nullable: true,
          resolve: (query, p, _a, ctx) => ctx.cx.db.pullRequest.findUnique({ ...query, where: { id: p.pullId } }),
        }),
      }),
    },
  );
}
