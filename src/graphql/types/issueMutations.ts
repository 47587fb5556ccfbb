// GitHub's createIssue and updateIssue, through the issue services (POST and PATCH /repos/{o}/{r}/issues).
import { ValidationError } from '../../errors.ts';
import * as createService from '../../services/issue/create.ts';
import * as editService from '../../services/issue/edit.ts';
import { locateIssueById } from '../../services/issue/issue.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, opt, requireDbIdOf, type GlobalId } from '../ids.ts';
import { IssueRef, IssueStateEnum } from './issue.ts';

/** The database id of a global id of `typename`; another type's id names nothing. @throws NotFoundError */
const idOf = (id: GlobalId, typename: string, what: string): number => requireDbIdOf(id, typename, `${what} does not exist [id: 0]`);

builder.relayMutationField(
  'createIssue',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({ required: true, description: 'The Repository.' }),
      title: t.string({ required: true }),
      body: t.string(),
      assigneeIds: t.globalIDList({ description: 'Users to assign (writers only; each must be assignable, as REST `assignees`).' }),
      labelIds: t.globalIDList({
        description: 'Labels (writers only): repository labels, or organization labels for organization repositories; others are dropped.',
      }),
      milestoneId: t.globalID({ description: "A milestone of the repository (writers only; another repository's is dropped)." }),
      projectIds: t.globalIDList({ description: 'Projects: honoured for every caller; each must be a project the repository may use.' }),
      dueOn: t.field({ type: 'DateTime', description: 'Writers only.' }),
      closed: t.boolean({ description: 'Open the issue closed.' }),
      issueTemplate: t.string({
        description:
          'An issue template of the default branch (by name or file name): its labels and assignees join the given ones (writers only).',
      }),
      parentIssueId: t.globalID({ description: 'Refused when given: Gitea has no sub-issues (dependencies are addIssueDependency).' }),
    }),
  },
  {
    description: 'Open an issue (as POST /api/v1/repos/{o}/{r}/issues: non-writers cannot set labels, milestone, assignees or due date).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      if (input.parentIssueId)
        throw new ValidationError('parentIssueId: not supported (Gitea has no sub-issues; use issue dependencies)', {
          field: 'parentIssueId',
        });
      const view = await createService.createIssueInRepo(ctx.cx, idOf(input.repositoryId, 'Repository', 'repository'), {
        title: input.title,
        body: opt(input.body),
        assigneeIds: input.assigneeIds?.map((id) => idOf(id, 'User', 'user')),
        labels: input.labelIds?.map((id) => idOf(id, 'Label', 'label')),
        milestone: input.milestoneId ? idOf(input.milestoneId, 'Milestone', 'milestone') : undefined,
        projects: input.projectIds?.map((id) => idOf(id, 'Project', 'project')),
        dueDate: opt(input.dueOn),
        closed: opt(input.closed),
        template: opt(input.issueTemplate),
      });
      return { issue: view.issue };
    },
  },
  { outputFields: (t) => ({ issue: t.field({ type: IssueRef, resolve: (p) => p.issue }) }) },
);

async function editByIssueId(ctx: { cx: Parameters<typeof editService.editIssue>[0] }, issueId: string, input: editService.EditIssueInput) {
  // Unknown or invisible ids fall through to the service, which answers NotFound the REST way.
  const { ref, index } = await locateIssueById(ctx.cx, dbId(issueId));
  return (await editService.editIssue(ctx.cx, ref, index, input)).issue;
}

builder.relayMutationField(
  'updateIssue',
  {
    inputFields: (t) => ({
      id: t.globalID({ required: true }),
      title: t.string(),
      body: t.string(),
      contentVersion: t.int({ description: 'The content version last read; with `body`, a different current version is a ConflictError.' }),
      state: t.field({ type: IssueStateEnum }),
      assigneeIds: t.globalIDList({ description: 'The new assignees (writers only), with any assigneeLogins; [] removes all.' }),
      assigneeLogins: t.stringList(),
      labelIds: t.globalIDList({
        description: "Labels replacing the issue's labels (writers only; [] removes all; others' labels are dropped).",
      }),
      milestoneId: t.globalID({ description: 'A milestone of the repository (writers only); null removes the milestone.' }),
      projectIds: t.globalIDList({ description: "Projects replacing the issue's projects (writers only; [] removes all)." }),
    }),
  },
  {
    description: 'Edit an issue (poster or writer; as PATCH /api/v1/repos/{o}/{r}/issues/{index}). Only given fields change.',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      issue: await editByIssueId(ctx, String(input.id.id), {
        title: opt(input.title),
        body: opt(input.body),
        contentVersion: opt(input.contentVersion),
        state: input.state ? input.state.toLowerCase() : undefined,
        assignees: opt(input.assigneeLogins),
        assigneeIds: input.assigneeIds?.map((id) => idOf(id, 'User', 'user')),
        labels: input.labelIds?.map((id) => idOf(id, 'Label', 'label')),
        milestone: input.milestoneId === null ? 0 : input.milestoneId && idOf(input.milestoneId, 'Milestone', 'milestone'),
        projects: input.projectIds?.map((id) => idOf(id, 'Project', 'project')),
      }),
    }),
  },
  { outputFields: (t) => ({ issue: t.field({ type: IssueRef, resolve: (p) => p.issue }) }) },
);

/** GitHub's reasons to close an issue; Gitea closes as completed only. */
const IssueClosedStateReasonEnum = builder.enumType('IssueClosedStateReason', {
  description: 'Why an issue is closed. Gitea records no reason: only COMPLETED is accepted.',
  values: { COMPLETED: { value: 'COMPLETED' }, DUPLICATE: { value: 'DUPLICATE' }, NOT_PLANNED: { value: 'NOT_PLANNED' } } as const,
});

/** closeIssue's GitHub fields Gitea cannot record. @throws ValidationError for another reason or a duplicate */
function assertClosedAsCompleted(input: { stateReason?: string | null; duplicateIssueId?: unknown }): void {
  if (input.stateReason != null && input.stateReason !== 'COMPLETED')
    throw new ValidationError(`stateReason: only COMPLETED is supported (Gitea does not record ${input.stateReason})`, {
      field: 'stateReason',
    });
  if (input.duplicateIssueId != null)
    throw new ValidationError('duplicateIssueId: not supported (Gitea does not mark duplicates)', { field: 'duplicateIssueId' });
}

for (const [name, state] of [
  ['closeIssue', 'closed'],
  ['reopenIssue', 'open'],
] as const) {
  builder.relayMutationField(
    name,
    {
      inputFields: (t) => ({
        issueId: t.globalID({ required: true }),
        ...(state === 'closed'
          ? {
              stateReason: t.field({
                type: IssueClosedStateReasonEnum,
                description: 'Only COMPLETED: Gitea does not record why an issue was closed.',
              }),
              duplicateIssueId: t.globalID({ description: 'Only null: Gitea does not mark duplicates.' }),
            }
          : {}),
      }),
    },
    {
      description: `${state === 'closed' ? 'Close' : 'Reopen'} an issue (the same service as PATCH … {"state":"${state}"}).`,
      ...writeScope('issue'),
      resolve: async (_root, { input }, ctx) => {
        assertClosedAsCompleted(input as { stateReason?: string | null; duplicateIssueId?: unknown });
        return { issue: await editByIssueId(ctx, String(input.issueId.id), { state }) };
      },
    },
    { outputFields: (t) => ({ issue: t.field({ type: IssueRef, resolve: (p) => p.issue }) }) },
  );
}
