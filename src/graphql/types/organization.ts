import { createContextCache } from '@pothos/core';
import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import { membershipCountLoader, orgOwnerIdsLoader, userMembershipCountLoader } from '../../loaders/orgLoaders.ts';
import * as memberService from '../../services/org/member.ts';
import { canSeeOrg, orgAccess } from '../../services/access/orgAccess.ts';
import * as orgService from '../../services/org/org.ts';
import { orgMemberReadWhere, orgReadWhere, userOrgReadWhere } from '../../services/org/visibility.ts';
import { getUserByName } from '../../services/user/user.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { dbId, opt } from '../ids.ts';
import { orNull } from '../nullable.ts';
import type { GraphQLContext } from '../context.ts';
import { withInputFieldNames } from '../errors.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { checkedBy, filteredBy } from '../policy.ts';
import { bothNodePaths, withUserScalars } from '../selection.ts';
import { ActorRef, RepositoryOwnerRef } from './repositoryOwner.ts';
import { UserRef, UserVisibilityEnum } from './user.ts';
import { ProjectOwnerRef } from './githubInterfaces.ts';
import { directionOf, orderInput } from './orderInput.ts';
import { renameOrg } from '../../services/org/accountRename.ts';

async function visible(org: Models.User, ctx: GraphQLContext): Promise<boolean> {
  return canSeeOrg(ctx.cx, await orgAccess(ctx.cx, org));
}

export const OrganizationRef = builder.prismaNode('User', {
  variant: 'Organization',
  description: 'An organization: shared ownership of repositories, with teams.',
  interfaces: [RepositoryOwnerRef, ActorRef, ProjectOwnerRef],
  id: { field: 'id' },
  // node(id:): a private organization is simply absent for outsiders.
  ...filteredBy('orgReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [orgReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    name: t.string({ nullable: true, description: 'Full name.', resolve: (o) => o.fullName || null }),
    email: t.string({ nullable: true, resolve: (o, _a, ctx) => orgService.visibleOrgEmail(ctx.cx, o) || null }),
    description: t.string({ nullable: true, resolve: (o) => o.description || null }),
    websiteUrl: t.field({ type: 'URI', nullable: true, resolve: (o) => o.website || null }),
    location: t.string({ nullable: true, resolve: (o) => o.location || null }),
    visibility: t.field({ type: UserVisibilityEnum, resolve: (o) => o.visibility }),
    repoAdminChangeTeamAccess: t.exposeBoolean('repoAdminChangeTeamAccess'),
    restrictVisibilityChangesToOwners: t.exposeBoolean('restrictVisibilityChangesToOwners'),
    viewerIsAMember: t.boolean({ resolve: async (o, _a, ctx) => (await ctx.cx.loaders.orgStanding.load(o.id)).isMember }),
    viewerIsAnOwner: t.boolean({ resolve: async (o, _a, ctx) => (await orgAccess(ctx.cx, o)).isOwner }),
    viewerCanAdminister: t.boolean({ resolve: async (o, _a, ctx) => (await orgAccess(ctx.cx, o)).isOwner }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
tokenReadScope(OrganizationRef, 'organization');

builder.queryFields((t) => ({
  organization: t.prismaField({
    type: OrganizationRef,
    nullable: true,
    description: 'Look up an organization by login; null when absent or not visible.',
    ...checkedBy('getOrg'),
    args: { login: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) =>
      orNull(async () => {
        const org = await orgService.getOrg(ctx.cx, args.login);
        return ctx.cx.db.user.findUniqueOrThrow({ ...query, where: { id: org.id } });
      }),
  }),
  repositoryOwner: t.field({
    type: RepositoryOwnerRef,
    nullable: true,
    description: 'Look up a user or an organization by login.',
    ...checkedBy('canSeeOrg, getUserByName'),
    args: { login: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const owner = await ctx.cx.db.user.findUnique({ where: { lowerName: args.login.toLowerCase() } });
      if (!owner) return null;
      if (owner.type === 'ORGANIZATION') return (await visible(owner, ctx)) ? owner : null;
      return orNull(() => getUserByName(ctx.cx, args.login));
    },
  }),
  organizations: t.prismaConnection({
    type: OrganizationRef,
    cursor: 'id',
    description: 'Organizations the viewer may list (as GET /api/v1/orgs).',
    ...checkedBy('orgListFilter'),
    totalCount: (_p, _a, ctx) => ctx.cx.db.user.count({ where: orgService.orgListFilter(ctx.cx) }),
    resolve: (query, _root, _args, ctx) =>
      ctx.cx.db.user.findMany({ ...query, where: orgService.orgListFilter(ctx.cx), orderBy: { id: 'asc' } }),
  }),
}));

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The profile fields createOrganization and updateOrganization share. */
function profileInputFields(t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) {
  return {
    name: t.string({ description: 'Full name.' }),
    email: t.string(),
    description: t.string(),
    websiteUrl: t.string(),
    location: t.string(),
    visibility: t.field({ type: UserVisibilityEnum }),
    repoAdminChangeTeamAccess: t.boolean(),
    restrictVisibilityChangesToOwners: t.boolean({ description: 'Only organization owners may change repository privacy.' }),
  };
}

interface ProfileInput {
  name?: string | null;
  email?: string | null;
  description?: string | null;
  websiteUrl?: string | null;
  location?: string | null;
  visibility?: Models.Visibility | null;
  repoAdminChangeTeamAccess?: boolean | null;
  restrictVisibilityChangesToOwners?: boolean | null;
}

function profileFromInput(input: ProfileInput): orgService.OrgProfileInput {
  return {
    fullName: opt(input.name),
    email: opt(input.email),
    description: opt(input.description),
    website: opt(input.websiteUrl),
    location: opt(input.location),
    visibility: opt(input.visibility),
    repoAdminChangeTeamAccess: opt(input.repoAdminChangeTeamAccess),
    restrictVisibilityChangesToOwners: opt(input.restrictVisibilityChangesToOwners),
  };
}

/** The service's (Gitea's) field names → the mutation inputs', for `ValidationError.field`. */
const ORG_INPUT_FIELDS = { username: 'login', full_name: 'name', website: 'websiteUrl' };

builder.relayMutationField(
  'createOrganization',
  {
    inputFields: (t) => ({
      login: t.string({ required: true }),
      ...profileInputFields(t),
    }),
  },
  {
    description: 'Create an organization owned by the viewer (as POST /api/v1/orgs).',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => ({
      organization: await withInputFieldNames(ORG_INPUT_FIELDS, () =>
        orgService.createOrg(ctx.cx, { name: input.login, ...profileFromInput(input) }),
      ),
    }),
  },
  { outputFields: (t) => ({ organization: t.field({ type: OrganizationRef, resolve: (p) => p.organization }) }) },
);

builder.relayMutationField(
  'updateOrganization',
  {
    inputFields: (t) => ({
      login: t.string({ required: true }),
      ...profileInputFields(t),
    }),
  },
  {
    description: "Edit an organization's profile (owners; as PATCH /api/v1/orgs/{org}).",
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => ({
      organization: await withInputFieldNames(ORG_INPUT_FIELDS, () => orgService.editOrg(ctx.cx, input.login, profileFromInput(input))),
    }),
  },
  { outputFields: (t) => ({ organization: t.field({ type: OrganizationRef, resolve: (p) => p.organization }) }) },
);

builder.relayMutationField(
  'renameOrganization',
  { inputFields: (t) => ({ login: t.string({ required: true }), newLogin: t.string({ required: true }) }) },
  {
    description: 'Rename an organization; the old name redirects (owners; as POST /api/v1/orgs/{org}/rename).',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => ({
      organization: await withInputFieldNames({ new_name: 'newLogin' }, () => renameOrg(ctx.cx, input.login, input.newLogin)),
    }),
  },
  { outputFields: (t) => ({ organization: t.field({ type: OrganizationRef, resolve: (p) => p.organization }) }) },
);

builder.relayMutationField(
  'deleteOrganization',
  { inputFields: (t) => ({ login: t.string({ required: true }) }) },
  {
    description: 'Delete an organization that owns no repositories (owners; as DELETE /api/v1/orgs/{org}).',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => {
      await orgService.deleteOrg(ctx.cx, input.login);
      return { login: input.login };
    },
  },
  { outputFields: (t) => ({ deletedLogin: t.string({ resolve: (p) => p.login }) }) },
);

const OrganizationMemberRoleEnum = builder.enumType('OrganizationMemberRole', {
  description: "A member's role in an organization: ADMIN for members of the Owners team.",
  values: { ADMIN: { value: 'ADMIN' }, MEMBER: { value: 'MEMBER' } } as const,
});

const membersConnection = prismaConnectionHelpers(builder, 'OrgUser', {
  cursor: 'id',
  // Every user scalar: only `edges { node }` is planned, so `nodes { … }` alone would select nothing (Prisma rejects
  // an empty select), and interface fields (login) declare no columns.
  select: (nodeSelection) => ({ orgId: true, userId: true, user: withUserScalars(nodeSelection(true)) }),
  query: (_args, ctx) => ({ where: orgMemberReadWhere(ctx.cx), orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.user,
});

const ownerIds = createContextCache((ctx: GraphQLContext) => orgOwnerIdsLoader(ctx.cx.db));
const memberCounts = createContextCache((ctx: GraphQLContext) => membershipCountLoader(ctx.cx.db, orgMemberReadWhere(ctx.cx)));

builder.prismaObjectFields(OrganizationRef, (t) => ({
  membersWithRole: t.connection(
    {
      type: UserRef,
      description: 'Members the viewer may see (members see everyone; others see public members), with their role.',
      ...filteredBy('orgMemberReadWhere'),
      select: (args, ctx, nestedSelection) => ({ orgMembers: membersConnection.getQuery(args, ctx, bothNodePaths(nestedSelection)) }),
      resolve: (org, args, ctx) => Object.assign(membersConnection.resolve(org.orgMembers, args, ctx), { orgId: org.id }),
    },
    {
      name: 'OrganizationMemberConnection',
      fields: (c) => ({ totalCount: c.int({ resolve: (conn, _a, ctx) => memberCounts(ctx).load((conn as { orgId: number }).orgId) }) }),
    },
    {
      name: 'OrganizationMemberEdge',
      fields: (e) => ({
        role: e.field({
          type: OrganizationMemberRoleEnum,
          resolve: async (edge, _a, ctx) => ((await ownerIds(ctx).load(edge.orgId)).has(edge.userId) ? 'ADMIN' : 'MEMBER'),
        }),
      }),
    },
  ),
}));

const OrganizationOrderInput = orderInput('OrganizationOrder', ['CREATED_AT', 'LOGIN'] as const, 'organization connections');

const userOrgsConnection = prismaConnectionHelpers(builder, 'OrgUser', {
  cursor: 'id',
  args: (t) => ({ orderBy: t.field({ type: OrganizationOrderInput, description: 'In the order the user joined them when absent.' }) }),
  select: (nodeSelection) => ({ userId: true, org: withUserScalars(nodeSelection(true)) }),
  query: (args, ctx) => ({
    where: userOrgReadWhere(ctx.cx),
    orderBy: args.orderBy
      ? { org: { [args.orderBy.field === 'LOGIN' ? 'lowerName' : 'createdAt']: directionOf(args.orderBy) } }
      : { id: 'asc' as const },
  }),
  resolveNode: (row) => row.org,
});

const userOrgCounts = createContextCache((ctx: GraphQLContext) => userMembershipCountLoader(ctx.cx.db, userOrgReadWhere(ctx.cx)));

builder.prismaObjectFields(UserRef, (t) => ({
  organizations: t.connection(
    {
      type: OrganizationRef,
      description: 'Organizations the user belongs to, as the viewer may see them (as GET /api/v1/users/{username}/orgs).',
      args: userOrgsConnection.getArgs(),
      ...filteredBy('userOrgReadWhere'),
      select: (args, ctx, nestedSelection) => ({ orgMemberships: userOrgsConnection.getQuery(args, ctx, bothNodePaths(nestedSelection)) }),
      resolve: (user, args, ctx) => Object.assign(userOrgsConnection.resolve(user.orgMemberships, args, ctx), { userId: user.id }),
    },
    {
      name: 'OrganizationConnection',
      fields: (c) => ({ totalCount: c.int({ resolve: (conn, _a, ctx) => userOrgCounts(ctx).load((conn as { userId: number }).userId) }) }),
    },
    { name: 'OrganizationEdge' },
  ),
}));

builder.relayMutationField(
  'removeOrganizationMember',
  { inputFields: (t) => ({ organizationLogin: t.string({ required: true }), login: t.string({ required: true }) }) },
  {
    description: 'Remove a member from an organization and all its teams (owners; as DELETE /api/v1/orgs/{org}/members/{username}).',
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => {
      await memberService.removeMember(ctx.cx, input.organizationLogin, input.login);
      return { login: input.login };
    },
  },
  { outputFields: (t) => ({ removedLogin: t.string({ resolve: (p) => p.login }) }) },
);

builder.relayMutationField(
  'setOrganizationMembershipVisibility',
  {
    inputFields: (t) => ({
      organizationLogin: t.string({ required: true }),
      isPublic: t.boolean({ required: true, description: 'Publicize (true) or conceal (false) the viewer’s own membership.' }),
    }),
  },
  {
    description: "Publicize or conceal the viewer's membership (as PUT/DELETE /api/v1/orgs/{org}/public_members/{username}).",
    ...writeScope('organization'),
    resolve: async (_root, { input }, ctx) => {
      await memberService.setMembershipVisibility(ctx.cx, input.organizationLogin, ctx.cx.viewer?.name ?? '', input.isPublic);
      return { isPublic: input.isPublic };
    },
  },
  { outputFields: (t) => ({ isPublic: t.boolean({ resolve: (p) => p.isPublic }) }) },
);
