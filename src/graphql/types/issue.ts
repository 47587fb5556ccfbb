import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import * as createService from '../../services/issue/create.ts';
import * as editService from '../../services/issue/edit.ts';
import { visibleIssueFilter } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { MUTATION_ERRORS } from '../errors.ts';
import { withLabelScalars, withUserScalars } from '../selection.ts';
import { LabelRef } from './label.ts';
import { RepositoryRef } from './repository.ts';
import { dbId, opt, UserRef } from './user.ts';

export const IssueStateEnum = builder.enumType('IssueState', {
  description: 'Whether an issue is open or closed.',
  values: { OPEN: { value: 'OPEN' }, CLOSED: { value: 'CLOSED' } } as const,
});

export const MilestoneRef = builder.prismaObject('Milestone', {
  description: 'A milestone of a repository.',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    title: t.exposeString('name'),
    description: t.string({ nullable: true, resolve: (m) => m.content || null }),
    state: t.field({ type: IssueStateEnum, resolve: (m) => (m.isClosed ? 'CLOSED' : 'OPEN') }),
    dueOn: t.expose('deadlineAt', { type: 'DateTime', nullable: true }),
    openIssueCount: t.int({ resolve: (m) => m.numIssues - m.numClosedIssues }),
    closedIssueCount: t.exposeInt('numClosedIssues'),
  }),
});

const issueLabels = prismaConnectionHelpers(builder, 'IssueLabel', {
  cursor: 'id',
  select: (nodeSelection) => ({ label: withLabelScalars(nodeSelection(true)) }),
  query: () => ({ orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.label,
});

const issueAssignees = prismaConnectionHelpers(builder, 'IssueAssignee', {
  cursor: 'id',
  select: (nodeSelection) => ({ assignee: withUserScalars(nodeSelection(true)) }),
  query: () => ({ orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.assignee,
});

/** An issue (pull requests share the numbering). node(id:) answers only issues the viewer may see. */
export const IssueRef = builder.prismaNode('Issue', {
  description: 'An issue in a repository.',
  id: { field: 'id' },
  authScopes: { tokenRead: 'issue' },
  findUnique: (id, ctx) => ({ id: dbId(id), ...visibleIssueFilter(ctx.cx) }) as Models.Prisma.IssueWhereUniqueInput,
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    number: t.exposeInt('index'),
    title: t.exposeString('title'),
    body: t.exposeString('content'),
    state: t.field({ type: IssueStateEnum, resolve: (i) => (i.isClosed ? 'CLOSED' : 'OPEN') }),
    closed: t.exposeBoolean('isClosed'),
    locked: t.exposeBoolean('isLocked'),
    isPullRequest: t.exposeBoolean('isPull'),
    url: t.string({
      select: { repo: { select: { ownerName: true, name: true } } },
      resolve: (i, _a, ctx) => `${ctx.cx.config.rootUrl}${i.repo.ownerName}/${i.repo.name}/${i.isPull ? 'pulls' : 'issues'}/${i.index}`,
    }),
    author: t.relation('poster', { type: UserRef, nullable: true, description: 'Null for a deleted (ghost) author.' }),
    repository: t.relation('repo', { type: RepositoryRef }),
    milestone: t.relation('milestone', { nullable: true }),
    commentCount: t.exposeInt('numComments'),
    dueOn: t.expose('deadlineAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
    labels: t.connection(
      {
        type: LabelRef,
        select: (args, ctx, nested) => ({ labels: issueLabels.getQuery(args, ctx, nested), _count: { select: { labels: true } } }),
        resolve: (i, args, ctx) => ({ ...issueLabels.resolve(i.labels, args, ctx), total: i._count.labels }),
      },
      { fields: (c) => ({ totalCount: c.int({ resolve: (conn) => (conn as { total: number }).total }) }) },
    ),
    assignees: t.connection(
      {
        type: UserRef,
        select: (args, ctx, nested) => ({ assignees: issueAssignees.getQuery(args, ctx, nested), _count: { select: { assignees: true } } }),
        resolve: (i, args, ctx) => ({ ...issueAssignees.resolve(i.assignees, args, ctx), total: i._count.assignees }),
      },
      { fields: (c) => ({ totalCount: c.int({ resolve: (conn) => (conn as { total: number }).total }) }) },
    ),
  }),
});

builder.prismaObjectFields(RepositoryRef, (t) => ({
  issues: t.relatedConnection('issues', {
    cursor: 'id',
    description: 'Issues (not pull requests), newest first; empty when the issues unit is disabled.',
    totalCount: true,
    args: { states: t.arg({ type: [IssueStateEnum], required: false }) },
    query: (args) => ({
      where: {
        isPull: false,
        repo: { units: { some: { type: 'ISSUES' } } },
        ...(args.states?.length === 1 ? { isClosed: args.states[0] === 'CLOSED' } : {}),
      },
      orderBy: { index: 'desc' as const },
    }),
  }),
  issue: t.field({
    type: IssueRef,
    nullable: true,
    description: 'An issue by number (null for pull requests and when the issues unit is disabled).',
    args: { number: t.arg.int({ required: true }) },
    select: (args, _ctx, nested) => ({ issues: { where: { index: args.number, isPull: false, repo: { units: { some: { type: 'ISSUES' } } } }, take: 1, ...nested(true) } }),
    resolve: (r) => r.issues[0] ?? null,
  }),
}));

builder.relayMutationField(
  'createIssue',
  {
    inputFields: (t) => ({
      repositoryOwner: t.string({ required: true }),
      repositoryName: t.string({ required: true }),
      title: t.string({ required: true }),
      body: t.string(),
      assigneeLogins: t.stringList(),
      labelIds: t.intList({ description: 'Label REST ids (repository labels, or organization labels for organization repositories).' }),
      milestoneId: t.int(),
      dueOn: t.field({ type: 'DateTime' }),
      closed: t.boolean(),
    }),
  },
  {
    description: 'Open an issue (as POST /api/v1/repos/{o}/{r}/issues: non-writers cannot set labels, milestone, assignees or due date).',
    errors: { types: MUTATION_ERRORS },
    resolve: async (_root, { input }, ctx) => {
      const view = await createService.createIssue(ctx.cx, { owner: input.repositoryOwner, repo: input.repositoryName }, {
        title: input.title,
        body: opt(input.body),
        assignees: opt(input.assigneeLogins),
        labels: opt(input.labelIds),
        milestone: opt(input.milestoneId),
        dueDate: opt(input.dueOn),
        closed: opt(input.closed),
      });
      return { issue: view.issue };
    },
  },
  { outputFields: (t) => ({ issue: t.field({ type: IssueRef, resolve: (p) => p.issue }) }) },
);

async function editByIssueId(ctx: { cx: Parameters<typeof editService.editIssue>[0] }, issueId: string, input: editService.EditIssueInput) {
  const row = await ctx.cx.db.issue.findFirst({ where: { id: dbId(issueId), ...visibleIssueFilter(ctx.cx) }, select: { index: true, repo: { select: { ownerName: true, name: true } } } });
  // Unknown or invisible ids fall through to the service, which answers NotFound the REST way.
  const ref = row ? { owner: row.repo.ownerName, repo: row.repo.name } : { owner: '', repo: '' };
  return (await editService.editIssue(ctx.cx, ref, row?.index ?? 0, input)).issue;
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
      assigneeLogins: t.stringList(),
      milestoneId: t.int({ description: '0 removes the milestone.' }),
    }),
  },
  {
    description: 'Edit an issue (poster or writer; as PATCH /api/v1/repos/{o}/{r}/issues/{index}). Only given fields change.',
    errors: { types: MUTATION_ERRORS },
    resolve: async (_root, { input }, ctx) => ({
      issue: await editByIssueId(ctx, String(input.id.id), {
        title: opt(input.title),
        body: opt(input.body),
        contentVersion: opt(input.contentVersion),
        state: input.state ? input.state.toLowerCase() : undefined,
        assignees: opt(input.assigneeLogins),
        milestone: opt(input.milestoneId),
      }),
    }),
  },
  { outputFields: (t) => ({ issue: t.field({ type: IssueRef, resolve: (p) => p.issue }) }) },
);

for (const [name, state] of [['closeIssue', 'closed'], ['reopenIssue', 'open']] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ issueId: t.globalID({ required: true }) }) },
    {
      description: `${state === 'closed' ? 'Close' : 'Reopen'} an issue (the same service as PATCH … {"state":"${state}"}).`,
      errors: { types: MUTATION_ERRORS },
      resolve: async (_root, { input }, ctx) => ({ issue: await editByIssueId(ctx, String(input.issueId.id), { state }) }),
    },
    { outputFields: (t) => ({ issue: t.field({ type: IssueRef, resolve: (p) => p.issue }) }) },
  );
}
