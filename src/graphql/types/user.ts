import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { isSiteAdmin } from '../../services/access/guards.ts';
import * as userService from '../../services/user/user.ts';
import { canSeePrivateUserFields, visibleEmail } from '../../permissions/userVisibility.ts';
import { userReadWhere } from '../../services/user/visibility.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { dbId, opt } from '../ids.ts';
import { checkedBy, filteredBy } from '../policy.ts';
import { ActorRef, RepositoryOwnerRef } from './repositoryOwner.ts';
import { sharedConnection } from '../sharedConnection.ts';
import type { GraphQLContext } from '../context.ts';
import { withInputFieldNames } from '../errors.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { ProjectOwnerRef } from './githubInterfaces.ts';
import { adminRenameUser } from '../../services/org/accountRename.ts';

export const UserVisibilityEnum = builder.enumType('UserVisibility', {
  description: 'Who may see an account.',
  values: { PUBLIC: { value: 'PUBLIC' }, LIMITED: { value: 'LIMITED' }, PRIVATE: { value: 'PRIVATE' } } as const,
});

/** Private fields are shown only to the user and site admins (the rule REST's converter uses too). */
function isSelfOrAdmin(user: Models.User, ctx: GraphQLContext): boolean {
  return isSiteAdmin(ctx.cx) || canSeePrivateUserFields(ctx.cx.viewer, user);
}

export const UserRef = builder.prismaNode('User', {
  description: 'A user account.',
  interfaces: [RepositoryOwnerRef, ActorRef, ProjectOwnerRef],
  id: { field: 'id' },
  // node(id:) honours account visibility: an invisible user is simply absent.
  ...filteredBy('userReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), type: { not: 'ORGANIZATION' }, AND: [userReadWhere(ctx.cx)] }),
  // node(id:) of an invisible user is null, not findUniqueOrThrow's internal error.
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    login: t.exposeString('name'),
    name: t.string({ nullable: true, description: 'Full name.', resolve: (u) => u.fullName || null }),
    email: t.string({
      description: 'The public e-mail address; empty when private and the viewer is not the user or an admin.',
      resolve: (u, _args, ctx) => (isSiteAdmin(ctx.cx) ? u.email : (visibleEmail(ctx.cx.viewer, u) ?? '')),
    }),
    location: t.string({ nullable: true, resolve: (u) => u.location || null }),
    websiteUrl: t.field({ type: 'URI', nullable: true, resolve: (u) => u.website || null }),
    bio: t.string({ nullable: true, resolve: (u) => u.description || null }),
    visibility: t.field({ type: UserVisibilityEnum, resolve: (u) => u.visibility }),
    isSiteAdmin: t.boolean({ resolve: (u, _a, ctx) => (isSelfOrAdmin(u, ctx) ? u.isAdmin : false) }),
    isRestricted: t.exposeBoolean('isRestricted'),
    isViewer: t.boolean({ resolve: (u, _a, ctx) => ctx.cx.viewer?.id === u.id }),
    isActive: t.boolean({
      nullable: true,
      description: 'Only for the user and site admins.',
      resolve: (u, _a, ctx) => (isSelfOrAdmin(u, ctx) ? u.isActive : null),
    }),
    prohibitLogin: t.boolean({
      nullable: true,
      description: 'Only for the user and site admins.',
      resolve: (u, _a, ctx) => (isSelfOrAdmin(u, ctx) ? u.prohibitLogin : null),
    }),
    lastLoginAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Only for the user and site admins.',
      resolve: (u, _a, ctx) => (isSelfOrAdmin(u, ctx) ? u.lastLoginAt : null),
    }),
    followersCount: t.exposeInt('numFollowers'),
    followingCount: t.exposeInt('numFollowing'),
    starredRepositoriesCount: t.exposeInt('numStars'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
tokenReadScope(UserRef, 'user');

/** GitHub's UserEdge, shared by UserConnection and the follower connections (FollowerConnection, FollowingConnection). */
export const UserEdgeRef = builder.edgeObject({ type: UserRef, name: 'UserEdge' });

/** GitHub's UserConnection: assignees, watchers… */
export const UserConnectionRef = sharedConnection(UserRef, 'UserConnection', UserEdgeRef);

/**
 * The user a row names (a poster, an author): the one a preloader attached (`loaded`, preload/plan.ts), at once,
 * else through the request's loader (a page's users in one statement). A plain field resolving through this skips
 * plugin-prisma's relation planning, the costliest part of resolving a relation per row. Null for none or a
 * deleted account.
 */
export function userNamed(
  ctx: GraphQLContext,
  loaded: Models.User | null | undefined,
  id: number | null,
): Models.User | null | Promise<Models.User | null> {
  if (loaded !== undefined) return loaded;
  return id === null ? null : ctx.cx.loaders.userById.load(id);
}

builder.queryFields((t) => ({
  viewer: t.prismaField({
    type: 'User',
    description: 'The currently authenticated user.',
    ...checkedBy('getViewer'),
    resolve: async (query, _root, _args, ctx) => {
      const viewer = userService.getViewer(ctx.cx);
      return ctx.cx.db.user.findUniqueOrThrow({ ...query, where: { id: viewer.id } });
    },
  }),
  user: t.prismaField({
    type: 'User',
    nullable: true,
    description: 'Look up a user by login; null when absent or not visible.',
    ...checkedBy('getUserByName'),
    args: { login: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      try {
        const user = await userService.getUserByName(ctx.cx, args.login);
        return ctx.cx.db.user.findUnique({ ...query, where: { id: user.id } });
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw err;
      }
    },
  }),
  users: t.prismaConnection({
    type: 'User',
    cursor: 'id',
    description: 'Every individual user (site admins only).',
    ...checkedBy('adminUserFilter (site admins)'),
    authScopes: { siteAdmin: true },
    args: { query: t.arg.string({ required: false, description: 'Matches login, full name or e-mail.' }) },
    totalCount: (_parent, args, ctx) => ctx.cx.db.user.count({ where: userService.adminUserFilter(ctx.cx, { q: opt(args.query) }) }),
    resolve: (query, _root, args, ctx) =>
      ctx.cx.db.user.findMany({ ...query, where: userService.adminUserFilter(ctx.cx, { q: opt(args.query) }), orderBy: { id: 'asc' } }),
  }),
}));

builder.relayMutationField(
  'createUser',
  {
    inputFields: (t) => ({
      login: t.string({ required: true }),
      email: t.string({ required: true }),
      password: t.string({ required: true }),
      name: t.string(),
      mustChangePassword: t.boolean({ description: 'Defaults to true, as Gitea.' }),
      isRestricted: t.boolean(),
      isSiteAdmin: t.boolean(),
      visibility: t.field({ type: UserVisibilityEnum }),
    }),
  },
  {
    description: 'Create a user (site admins). Same service as POST /api/v1/admin/users.',
    ...writeScope('admin'),
    resolve: async (_root, { input }, ctx) => {
      const u = input;
      const user = await withInputFieldNames({ username: 'login', full_name: 'name' }, () =>
        userService.createUser(ctx.cx, {
          username: u.login,
          email: u.email,
          password: u.password,
          fullName: opt(u.name),
          mustChangePassword: opt(u.mustChangePassword),
          restricted: opt(u.isRestricted),
          admin: opt(u.isSiteAdmin),
          visibility: opt(u.visibility),
        }),
      );
      return { user };
    },
  },
  { outputFields: (t) => ({ user: t.field({ type: UserRef, resolve: (p) => p.user }) }) },
);

builder.relayMutationField(
  'renameUser',
  { inputFields: (t) => ({ login: t.string({ required: true }), newLogin: t.string({ required: true }) }) },
  {
    description: 'Rename a user; the old login redirects (site admins; as POST /api/v1/admin/users/{username}/rename).',
    ...writeScope('admin'),
    resolve: async (_root, { input }, ctx) => ({
      user: await withInputFieldNames({ new_username: 'newLogin' }, () => adminRenameUser(ctx.cx, input.login, input.newLogin)),
    }),
  },
  { outputFields: (t) => ({ user: t.field({ type: UserRef, resolve: (p) => p.user }) }) },
);

builder.relayMutationField(
  'updateUser',
  {
    inputFields: (t) => ({
      login: t.string({ required: true, description: 'The user to edit.' }),
      loginName: t.string(),
      password: t.string(),
      mustChangePassword: t.boolean(),
      prohibitLogin: t.boolean(),
      email: t.string(),
      name: t.string(),
      websiteUrl: t.string(),
      location: t.string(),
      bio: t.string(),
      isActive: t.boolean(),
      isSiteAdmin: t.boolean(),
      visibility: t.field({ type: UserVisibilityEnum }),
      allowGitHook: t.boolean(),
      allowImportLocal: t.boolean(),
      maxRepoCreation: t.int(),
      allowCreateOrganization: t.boolean(),
      isRestricted: t.boolean(),
    }),
  },
  {
    description: 'Edit a user (site admins). Same service as PATCH /api/v1/admin/users/{username}.',
    ...writeScope('admin'),
    resolve: async (_root, { input }, ctx) => {
      const u = input;
      const names = { full_name: 'name', website: 'websiteUrl', description: 'bio' };
      const user = await withInputFieldNames(names, () =>
        userService.editUser(ctx.cx, u.login, {
          loginName: opt(u.loginName),
          password: opt(u.password),
          mustChangePassword: opt(u.mustChangePassword),
          prohibitLogin: opt(u.prohibitLogin),
          email: opt(u.email),
          fullName: opt(u.name),
          website: opt(u.websiteUrl),
          location: opt(u.location),
          description: opt(u.bio),
          active: opt(u.isActive),
          admin: opt(u.isSiteAdmin),
          visibility: opt(u.visibility),
          allowGitHook: opt(u.allowGitHook),
          allowImportLocal: opt(u.allowImportLocal),
          maxRepoCreation: opt(u.maxRepoCreation),
          allowCreateOrganization: opt(u.allowCreateOrganization),
          restricted: opt(u.isRestricted),
        }),
      );
      return { user };
    },
  },
  { outputFields: (t) => ({ user: t.field({ type: UserRef, resolve: (p) => p.user }) }) },
);

builder.relayMutationField(
  'deleteUser',
  {
    inputFields: (t) => ({
      login: t.string({ required: true }),
      purge: t.boolean({ description: 'Also delete the repositories and memberships the user has.' }),
    }),
  },
  {
    description: 'Delete a user (site admins). Same service as DELETE /api/v1/admin/users/{username}.',
    ...writeScope('admin'),
    resolve: async (_root, { input }, ctx) => {
      await userService.deleteUser(ctx.cx, input.login, { purge: input.purge ?? false });
      return { login: input.login };
    },
  },
  { outputFields: (t) => ({ deletedLogin: t.string({ resolve: (p) => p.login }) }) },
);
