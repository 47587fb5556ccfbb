import { encodeGlobalID } from '@pothos/plugin-relay';
import { ValidationError } from '../../errors.ts';
import { exclusiveScope } from '../../services/label/color.ts';
import * as repoLabelService from '../../services/label/repoLabel.ts';
import * as labelService from '../../services/label/label.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import { labelReadWhere } from '../../services/label/visibility.ts';
import type { Models } from '../../db/client.ts';
import { builder } from '../builder.ts';
import { repoRefOf } from '../idInputs.ts';
import { OrderDirectionEnum } from './orderInput.ts';
import type { GraphQLContext } from '../context.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { writeScopeBy } from '../tokenWriteScopes.ts';
import { dbId, opt, requireDbIdOf } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { sharedConnection } from '../sharedConnection.ts';
import { OrganizationRef } from './organization.ts';

const LabelOrderFieldEnum = builder.enumType('LabelOrderField', {
  description: 'Properties by which label connections can be ordered.',
  values: { CREATED_AT: { value: 'CREATED_AT' }, NAME: { value: 'NAME' }, ISSUE_COUNT: { value: 'ISSUE_COUNT' } } as const,
});

export const LabelOrderInput = builder.inputType('LabelOrder', {
  description: 'Ordering options for label connections.',
  fields: (t) => ({
    field: t.field({ type: LabelOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
  }),
});

/**
 * The order of an issue's or pull request's labels (IssueLabel rows, by their label): the order they were added
 * unless `orderBy` says otherwise. A list, which Prisma takes; the connection helpers' type names one.
 */
export function carriedLabelsOrderBy(order: labelService.LabelOrder | null | undefined): Models.Prisma.IssueLabelOrderByWithRelationInput {
  // The default stays `{ id: 'asc' }` itself: the issue preloader (preload/issue.ts) recognises exactly that.
  if (!order) return { id: 'asc' };
  const list = [...labelService.labelOrderBy(order).map((label) => ({ label })), { id: 'asc' as const }];
  return list as unknown as Models.Prisma.IssueLabelOrderByWithRelationInput;
}

/** GitHub's arguments of a label connection (`orderBy`, `query`), shared by every label list. */
export const labelListArgs = builder.args((t) => ({
  orderBy: t.field({ type: LabelOrderInput, defaultValue: { field: 'CREATED_AT', direction: 'ASC' } }),
  query: t.string({ description: 'Only labels whose name contains this (case-insensitive).' }),
}));

/** The filter and order of a label list for `labelListArgs`, within what the viewer may read. */
export function labelListQuery(
  args: { orderBy?: labelService.LabelOrder | null; query?: string | null },
  ctx: GraphQLContext,
): { where: Models.Prisma.LabelWhereInput; orderBy: Models.Prisma.LabelOrderByWithRelationInput[] } {
  return {
    where: { AND: [labelService.labelSearchFilter(ctx.cx.config.dbProvider, { query: opt(args.query) }), labelReadWhere(ctx.cx)] },
    orderBy: labelService.labelOrderBy(opt(args.orderBy)),
  };
}

/** The Label node (GitHub's names plus Gitea's exclusive/archived). */
export const LabelRef = builder.prismaNode('Label', {
  description: 'A label for issues and pull requests: an organization label here (repository labels join later).',
  id: { field: 'id' },
  // node(id:): a label of an invisible organization (or of an unreadable repository) is simply absent.
  ...filteredBy('labelReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [labelReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    name: t.exposeString('name'),
    color: t.exposeString('color', { description: 'Six lower-case hex digits, without `#`.' }),
    description: t.string({ nullable: true, resolve: (l) => l.description || null }),
    isExclusive: t.exposeBoolean('exclusive', {
      description: 'A scoped label (`scope/name`): an issue carries at most one label of its scope.',
    }),
    exclusiveScope: t.string({
      nullable: true,
      description: 'The scope of an exclusive label (the name before its last `/`).',
      resolve: (l) => exclusiveScope(l),
    }),
    isArchived: t.boolean({ resolve: (l) => l.archivedAt !== null }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    issueCount: t.relationCount('issueLabels', {
      description: 'Issues and pull requests carrying the label that the viewer may see.',
      where: (_args, ctx) => ({ issue: issueReadWhere(ctx.cx) }),
    }),
    url: t.field({
      type: 'URI',
      description: "The web page listing the owner's labels.",
      select: { org: { select: { name: true } } },
      resolve: (l, _a, ctx) => (l.org ? `${ctx.cx.config.rootUrl}org/${encodeURIComponent(l.org.name)}/settings/labels` : ''),
    }),
    organization: t.relation('org', {
      type: OrganizationRef,
      nullable: true,
      description: 'The owning organization (organization labels).',
      ...inherits('a readable organization label implies a visible organization (labelReadWhere)'),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
tokenReadScope(LabelRef, (label) => (label.orgId !== null ? 'organization' : 'issue'));

/** GitHub's LabelConnection: a repository's, an issue's, a pull request's labels. */
export const LabelConnectionRef = sharedConnection(LabelRef, 'LabelConnection');

builder.prismaObjectFields(OrganizationRef, (t) => ({
  labels: t.relatedConnection('orgLabels', {
    cursor: 'id',
    totalCount: true,
    description: "The organization's labels (as GET /api/v1/orgs/{org}/labels).",
    ...filteredBy('labelReadWhere'),
    args: labelListArgs,
    query: labelListQuery,
  }),
  label: t.field({
    type: LabelRef,
    nullable: true,
    description: 'The label with exactly this name, if any.',
    ...filteredBy('labelReadWhere'),
    args: { name: t.arg.string({ required: true }) },
    select: (args, ctx, nestedSelection) => ({
      orgLabels: nestedSelection({
        where: { AND: [labelService.labelSearchFilter(ctx.cx.config.dbProvider, { name: args.name }), labelReadWhere(ctx.cx)] },
        orderBy: { id: 'asc' },
        take: 1,
      }),
    }),
    resolve: (org) => org.orgLabels[0] ?? null,
  }),
}));

/** The database id of a Label global id. @throws NotFoundError for another type's id */
function labelDbId(id: { typename: string; id: string }): number {
  return requireDbIdOf(id, 'Label', 'label does not exist [label_id: 0]');
}

/** A label known by its id is a repository's (`issue`, as …/repos/{o}/{r}/labels) or an organization's (`organization`). */
const LABEL_OWNERS = [['issue'], ['organization']] as const;

builder.relayMutationField(
  'createLabel',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({
        description: "The repository that owns the label (GitHub's field; or give repositoryOwner and repositoryName).",
      }),
      organizationLogin: t.string({ description: 'The organization that owns the label (or give repositoryOwner and repositoryName).' }),
      repositoryOwner: t.string({ description: 'With repositoryName: the repository that owns the label.' }),
      repositoryName: t.string(),
      name: t.string({ required: true }),
      color: t.string({ required: true, description: 'Hex colour, `#` optional, 3 or 6 digits.' }),
      description: t.string(),
      isExclusive: t.boolean(),
      isArchived: t.boolean(),
    }),
  },
  {
    description:
      'Create a label in an organization (owners; as POST /api/v1/orgs/{org}/labels) or a repository (issue writers; as POST /api/v1/repos/{o}/{r}/labels).',
    ...writeScopeBy((input: { repositoryId?: unknown; repositoryOwner?: string | null; repositoryName?: string | null }) =>
      input.repositoryId || (input.repositoryOwner && input.repositoryName) ? 'issue' : 'organization',
    ),
    resolve: async (_root, { input }, ctx) => {
      const fields = {
        name: input.name,
        color: input.color,
        description: opt(input.description),
        exclusive: opt(input.isExclusive),
        isArchived: opt(input.isArchived),
      };
      if (input.repositoryId)
        return { label: await repoLabelService.createRepoLabel(ctx.cx, await repoRefOf(ctx, input.repositoryId), fields) };
      if (input.repositoryOwner && input.repositoryName) {
        return {
          label: await repoLabelService.createRepoLabel(ctx.cx, { owner: input.repositoryOwner, repo: input.repositoryName }, fields),
        };
      }
      if (!input.organizationLogin) throw new ValidationError('Required', { field: 'organizationLogin', rule: 'Required' });
      return { label: await labelService.createLabel(ctx.cx, { org: input.organizationLogin }, fields) };
    },
  },
  { outputFields: (t) => ({ label: t.field({ type: LabelRef, resolve: (p) => p.label }) }) },
);

builder.relayMutationField(
  'updateLabel',
  {
    inputFields: (t) => ({
      id: t.globalID({ required: true }),
      name: t.string(),
      color: t.string(),
      description: t.string(),
      isExclusive: t.boolean(),
      isArchived: t.boolean(),
    }),
  },
  {
    description: 'Edit a label; only given fields change (owners; as PATCH /api/v1/orgs/{org}/labels/{id}).',
    ...writeScopeBy(() => LABEL_OWNERS),
    resolve: async (_root, { input }, ctx) => ({
      label: await repoLabelService.updateAnyLabelById(ctx.cx, labelDbId(input.id), {
        name: opt(input.name),
        color: opt(input.color),
        description: opt(input.description),
        exclusive: opt(input.isExclusive),
        isArchived: opt(input.isArchived),
      }),
    }),
  },
  { outputFields: (t) => ({ label: t.field({ type: LabelRef, resolve: (p) => p.label }) }) },
);

builder.relayMutationField(
  'deleteLabel',
  { inputFields: (t) => ({ id: t.globalID({ required: true }) }) },
  {
    description: 'Delete a label (owners; as DELETE /api/v1/orgs/{org}/labels/{id}).',
    ...writeScopeBy(() => LABEL_OWNERS),
    resolve: async (_root, { input }, ctx) => {
      await repoLabelService.deleteAnyLabelById(ctx.cx, labelDbId(input.id));
      return { id: encodeGlobalID('Label', input.id.id) };
    },
  },
  { outputFields: (t) => ({ deletedLabelId: t.id({ description: 'The global id of the deleted label.', resolve: (p) => p.id }) }) },
);
