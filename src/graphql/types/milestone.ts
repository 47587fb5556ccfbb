import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import * as milestoneService from '../../services/milestone/milestone.ts';
import { milestoneReadWhere } from '../../services/milestone/visibility.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, opt, requireDbIdOf } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import {
  IssueConnectionRef,
  IssueFiltersInput,
  IssueOrderInput,
  issueListWhere,
  issueOrderBy,
  IssueStateEnum,
  MilestoneStateEnum,
  MilestoneRef,
} from './issue.ts';
import { OrderDirectionEnum } from './orderInput.ts';
import { RepositoryRef } from './repository.ts';

const MilestoneOrderFieldEnum = builder.enumType('MilestoneOrderField', {
  description: 'Properties by which milestone connections can be ordered.',
  values: {
    CREATED_AT: { value: 'CREATED_AT' },
    DUE_DATE: { value: 'DUE_DATE' },
    NUMBER: { value: 'NUMBER' },
    UPDATED_AT: { value: 'UPDATED_AT' },
  } as const,
});

const MilestoneOrderInput = builder.inputType('MilestoneOrder', {
  description: "Ordering options for milestone connections (without one: Gitea's order, due date first, then title).",
  fields: (t) => ({
    field: t.field({ type: MilestoneOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
  }),
});

type MilestoneOrder = { field: 'CREATED_AT' | 'DUE_DATE' | 'NUMBER' | 'UPDATED_AT'; direction: 'ASC' | 'DESC' };

function milestoneOrderBy(order: MilestoneOrder | null | undefined): Models.Prisma.MilestoneOrderByWithRelationInput[] {
  if (!order) return milestoneService.MILESTONE_LIST_ORDER;
  const dir = order.direction === 'DESC' ? 'desc' : 'asc';
  switch (order.field) {
    case 'CREATED_AT':
      return [{ createdAt: dir }, { id: dir }];
    case 'UPDATED_AT':
      return [{ updatedAt: dir }, { id: dir }];
    case 'DUE_DATE':
      return [{ deadlineAt: { sort: dir, nulls: dir === 'asc' ? 'first' : 'last' } }, { id: dir }];
    case 'NUMBER':
      return [{ id: dir }];
  }
}

builder.prismaObjectFields(MilestoneRef, (t) => ({
  number: t.exposeInt('id', { description: 'Gitea milestones have no per-repository number: the database id.' }),
  closed: t.exposeBoolean('isClosed'),
  closedAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => (m.isClosed ? m.closedAt : null) }),
  progressPercentage: t.float({
    description: 'Closed issues and pull requests, in percent of all.',
    resolve: (m) => (m.numIssues ? (m.numClosedIssues * 100) / m.numIssues : 0),
  }),
  url: t.field({
    type: 'URI',
    description: 'The web URL.',
    select: { repo: { select: { ownerName: true, name: true } } },
    resolve: (m, _a, ctx) =>
      `${ctx.cx.config.rootUrl}${encodeURIComponent(m.repo.ownerName)}/${encodeURIComponent(m.repo.name)}/milestone/${m.id}`,
  }),
  repository: t.relation('repo', { type: RepositoryRef, ...inherits('a readable milestone implies a readable repository') }),
  createdAt: t.expose('createdAt', { type: 'DateTime' }),
  updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  issues: t.relatedConnection(
    'issues',
    {
      cursor: 'id',
      description:
        'Issues (not pull requests) in the milestone, newest first unless `orderBy` says otherwise; empty when the viewer cannot read the issues unit.',
      totalCount: true,
      ...filteredBy('issueReadWhere'),
      args: {
        states: t.arg({ type: [IssueStateEnum], required: false }),
        labels: t.arg.stringList({ description: 'Only issues carrying every one of these label names.' }),
        orderBy: t.arg({ type: IssueOrderInput }),
        filterBy: t.arg({ type: IssueFiltersInput }),
      },
      query: (args, ctx) => ({
        where: { AND: [{ isPull: false }, issueReadWhere(ctx.cx), issueListWhere(args, ctx.cx.viewer?.id)] },
        orderBy: args.orderBy ? issueOrderBy(args.orderBy) : [{ index: 'desc' as const }],
      }),
    },
    IssueConnectionRef,
  ),
}));

builder.prismaObjectFields(RepositoryRef, (t) => ({
  milestones: t.relatedConnection(
    'milestones',
    {
      cursor: 'id',
      description:
        "The repository's milestones (as GET /api/v1/repos/{o}/{r}/milestones); empty when the viewer can read neither issues nor pull requests.",
      totalCount: true,
      ...filteredBy('milestoneReadWhere'),
      args: {
        states: t.arg({ type: [MilestoneStateEnum], required: false }),
        orderBy: t.arg({ type: MilestoneOrderInput }),
        query: t.arg.string({ description: 'Only milestones whose title contains this (case-insensitive).' }),
      },
      query: (args, ctx) => ({
        where: {
          AND: [
            milestoneReadWhere(ctx.cx),
            milestoneService.milestoneFilter(ctx.cx, {
              state: args.states?.length === 1 ? (args.states[0] === 'CLOSED' ? 'closed' : 'open') : 'all',
              name: args.query ?? undefined,
            }),
          ],
        },
        orderBy: milestoneOrderBy(args.orderBy),
      }),
    },
    { name: 'MilestoneConnection' },
    { name: 'MilestoneEdge' },
  ),
  milestone: t.field({
    type: MilestoneRef,
    nullable: true,
    description: 'A milestone by number (its database id).',
    ...filteredBy('milestoneReadWhere'),
    args: { number: t.arg.int({ required: true }) },
    select: (args, ctx, nested) => ({
      milestones: { where: { AND: [{ id: dbId(String(args.number)) }, milestoneReadWhere(ctx.cx)] }, take: 1, ...nested(true) },
    }),
    resolve: (r) => r.milestones[0] ?? null,
  }),
}));

/** The database id of a Milestone global id. @throws NotFoundError for another type's id */
function milestoneDbId(id: { typename: string; id: string }): number {
  return requireDbIdOf(id, 'Milestone', 'not found');
}

builder.relayMutationField(
  'createMilestone',
  {
    inputFields: (t) => ({
      repositoryOwner: t.string({ required: true }),
      repositoryName: t.string({ required: true }),
      title: t.string({ required: true }),
      description: t.string(),
      dueOn: t.field({ type: 'DateTime', description: 'Kept as given.' }),
      state: t.field({ type: MilestoneStateEnum, description: 'CLOSED creates it closed.' }),
    }),
  },
  {
    description: 'Create a milestone (issue writers; as POST /api/v1/repos/{o}/{r}/milestones).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      milestone: await milestoneService.createMilestone(
        ctx.cx,
        { owner: input.repositoryOwner, repo: input.repositoryName },
        {
          title: input.title,
          description: opt(input.description),
          dueOn: opt(input.dueOn),
          state: input.state ? input.state.toLowerCase() : undefined,
        },
      ),
    }),
  },
  { outputFields: (t) => ({ milestone: t.field({ type: MilestoneRef, resolve: (p) => p.milestone }) }) },
);

builder.relayMutationField(
  'updateMilestone',
  {
    inputFields: (t) => ({
      id: t.globalID({ required: true }),
      title: t.string(),
      description: t.string(),
      dueOn: t.field({ type: 'DateTime', description: 'Only the date (UTC) counts: stored as 23:59:59 of that day.' }),
      clearDueOn: t.boolean({ description: 'Removes the due date.' }),
      state: t.field({ type: MilestoneStateEnum }),
    }),
  },
  {
    description: 'Edit a milestone; only given fields change (issue writers; as PATCH /api/v1/repos/{o}/{r}/milestones/{id}).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => ({
      milestone: await milestoneService.updateMilestoneById(ctx.cx, milestoneDbId(input.id), {
        title: opt(input.title),
        description: opt(input.description),
        dueOn: input.clearDueOn ? null : input.dueOn ? input.dueOn.toISOString() : undefined,
        state: input.state ? input.state.toLowerCase() : undefined,
      }),
    }),
  },
  { outputFields: (t) => ({ milestone: t.field({ type: MilestoneRef, resolve: (p) => p.milestone }) }) },
);

builder.relayMutationField(
  'deleteMilestone',
  { inputFields: (t) => ({ id: t.globalID({ required: true }) }) },
  {
    description: 'Delete a milestone; its issues lose it (issue writers; as DELETE /api/v1/repos/{o}/{r}/milestones/{id}).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      await milestoneService.deleteMilestoneById(ctx.cx, milestoneDbId(input.id));
      return { id: encodeGlobalID('Milestone', input.id.id) };
    },
  },
  { outputFields: (t) => ({ deletedMilestoneId: t.id({ description: 'The global id of the deleted milestone.', resolve: (p) => p.id }) }) },
);
