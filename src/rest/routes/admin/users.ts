import { z } from 'zod';
import * as userService from '../../../services/user/user.ts';
import { convertOptions, parseVisibility } from '../../convert/options.ts';
import { toApiUser, toApiUserList } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { qBool, qInt, qStrictEnum, qString } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateUserOption, EditUserOption, RenameUserOption } from '../../structs/user.ts';
import { adminRenameUser } from '../../../services/org/accountRename.ts';

const AdminListUsersQuery = z.object({
  q: qString('search by username, full name or e-mail address'),
  source_id: qInt("ID of the user's login source to search for"),
  login_name: qString("user's login name to search for"),
  visibility: qStrictEnum(['public', 'limited', 'private'], 'visibility of the users'),
  is_active: qBool('filter by active status'),
  is_admin: qBool('filter by site-admin status'),
  is_restricted: qBool('filter by restricted status'),
  is_prohibit_login: qBool('filter by login-prohibited status'),
  // Checked by the service, with Gitea's messages (422 otherwise); `order` is ignored without `sort`.
  sort: qString('sort users by attribute', { enum: ['name', 'email', 'id', 'created', 'updated'] }),
  order: qString('sort order, either "asc" (ascending) or "desc" (descending)', { enum: ['asc', 'desc'] }),
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
  defineList({
    path: '/admin/users',
    operationId: 'adminSearchUsers',
    summary: 'Search users according filter conditions',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: AdminListUsersQuery,
    headers: 'link',
    schema: '[User]',
    errors: [401, 403, 422],
    load: ({ cx, query, page }) =>
      userService.adminListUsers(cx, {
        ...page,
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
      }),
    convert: (result, { cx }) => toApiUserList(result.items, cx.viewer, convertOptions(cx)),
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
    query: z.object({ purge: qBool('purge the user from the system completely (with their repositories)') }),
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, query }) => {
      await userService.deleteUser(cx, params.username ?? '', { purge: query.purge === true });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/users/{username}/rename',
    operationId: 'adminRenameUser',
    summary: 'Rename a user',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    body: RenameUserOption,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await adminRenameUser(cx, params.username ?? '', body.new_username);
    },
  }),
];
