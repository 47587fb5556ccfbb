import { z } from 'zod';
import * as userService from '../../../services/user/user.ts';
import { convertOptions, parseVisibility } from '../../convert/options.ts';
import { toApiUser, toApiUserList } from '../../convert/user.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';
import { CreateUserOption, EditUserOption } from '../../structs/user.ts';
import { zQueryBool, zQueryInt } from '../../validation.ts';

const AdminListUsersQuery = z.object({
  page: z.string().optional(),
  limit: z.string().optional(),
  q: z.string().optional(),
  source_id: zQueryInt,
  login_name: z.string().optional(),
  visibility: z.enum(['public', 'limited', 'private']).optional(),
  is_active: zQueryBool,
  is_admin: zQueryBool,
  is_restricted: zQueryBool,
  is_prohibit_login: zQueryBool,
  // Checked by the service, with Gitea's messages; `order` is ignored without `sort`.
  sort: z.string().optional(),
  order: z.string().optional(),
});

export const adminUserRoutes = [
  defineRoute({
    method: 'POST',
    path: '/admin/users',
    operationId: 'adminCreateUser',
    summary: 'Create a user',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    body: CreateUserOption,
    success: { status: 201, schema: 'User' },
    errors: [400, 401, 403, 422],
    handler: async ({ cx, body }) => {
      const user = await userService.createUser(cx, {
        username: body.username,
        email: body.email,
        password: body.password,
        fullName: body.full_name,
        loginName: body.login_name,
        sourceId: body.source_id,
        mustChangePassword: body.must_change_password,
        restricted: body.restricted,
        visibility: parseVisibility(body.visibility),
        createdAt: body.created_at ? new Date(body.created_at) : undefined,
      });
      return toApiUser(user, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/users',
    operationId: 'adminSearchUsers',
    summary: 'Search users according filter conditions',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: AdminListUsersQuery,
    success: { status: 200, schema: '[User]' },
    errors: [401, 403, 422],
    handler: async ({ cx, query, req, reply }) => {
      const opts = listOptions(req.query as Record<string, unknown>);
      const page = await userService.adminListUsers(cx, {
        ...opts,
        q: query.q,
        sourceId: query.source_id,
        loginName: query.login_name,
        visibility: parseVisibility(query.visibility),
        isActive: query.is_active,
        isAdmin: query.is_admin,
        isRestricted: query.is_restricted,
        isProhibitLogin: query.is_prohibit_login,
        sort: query.sort,
        order: query.order,
      });
      setPaginationHeaders(req, reply, cx.config.rootUrl, page.total, opts);
      return toApiUserList(page.items, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/admin/users/{username}',
    operationId: 'adminEditUser',
    summary: 'Edit an existing user',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    body: EditUserOption,
    success: { status: 200, schema: 'User' },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, body, params }) => {
      const user = await userService.editUser(cx, params.username ?? '', {
        loginName: body.login_name,
        sourceId: body.source_id,
        password: body.password,
        mustChangePassword: body.must_change_password,
        prohibitLogin: body.prohibit_login,
        email: body.email,
        fullName: body.full_name,
        website: body.website,
        location: body.location,
        description: body.description,
        active: body.active,
        admin: body.admin,
        visibility: parseVisibility(body.visibility),
        allowGitHook: body.allow_git_hook,
        allowImportLocal: body.allow_import_local,
        maxRepoCreation: body.max_repo_creation,
        allowCreateOrganization: body.allow_create_organization,
        restricted: body.restricted,
      });
      return toApiUser(user, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/users/{username}',
    operationId: 'adminDeleteUser',
    summary: 'Delete a user',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: z.object({ purge: z.string().optional() }),
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, query }) => {
      await userService.deleteUser(cx, params.username ?? '', { purge: query.purge === 'true' });
    },
  }),
];
