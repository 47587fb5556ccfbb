import * as orgService from '../../../services/org/org.ts';
import { deleteOrgRepos } from '../../../services/org/orgRepos.ts';
import { getUserOrgPermissions } from '../../../services/org/userPermissions.ts';
import { convertOptions, parseVisibility } from '../../convert/options.ts';
import { toApiOrganization } from '../../convert/org.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { defineList } from '../../list.ts';
import { defineRoute } from '../../route.ts';
import { CreateOrgOption, EditOrgOption, RenameOrgOption } from '../../structs/org.ts';
import { renameOrg } from '../../../services/org/accountRename.ts';

type ProfileBody = {
  full_name?: string | undefined;
  email?: string | undefined;
  description?: string | undefined;
  website?: string | undefined;
  location?: string | undefined;
  visibility?: '' | 'public' | 'limited' | 'private' | undefined;
  repo_admin_change_team_access?: boolean | undefined;
  restrict_visibility_changes_to_owners?: boolean | undefined;
};

function profile(body: ProfileBody): orgService.OrgProfileInput {
  return {
    fullName: body.full_name,
    email: body.email,
    description: body.description,
    website: body.website,
    location: body.location,
    visibility: parseVisibility(body.visibility),
    repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
    restrictVisibilityChangesToOwners: body.restrict_visibility_changes_to_owners,
  };
}

const orgList = (result: { items: Parameters<typeof toApiOrganization>[0][]; total: number }, { cx }: { cx: ServiceContext }) =>
  result.items.map((o) => toApiOrganization(o, convertOptions(cx)));

export const orgRoutes = [
  defineRoute({
    method: 'POST',
    path: '/orgs',
    operationId: 'orgCreate',
    summary: 'Create an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    body: CreateOrgOption,
    success: { status: 201, schema: 'Organization' },
    errors: [401, 403, 422],
    handler: async ({ cx, body }) => {
      const org = await orgService.createOrg(cx, { name: body.username, ...profile(body) });
      return toApiOrganization(org, convertOptions(cx));
    },
  }),
  defineList({
    path: '/orgs',
    operationId: 'orgGetAll',
    summary: 'Get list of organizations',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    headers: 'link',
    schema: '[Organization]',
    load: ({ cx, page }) => orgService.listOrgs(cx, page),
    convert: orgList,
  }),
  defineRoute({
    method: 'GET',
    path: '/orgs/{org}',
    operationId: 'orgGet',
    summary: 'Get an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    success: { status: 200, schema: 'Organization' },
    errors: [404],
    handler: async ({ cx, params }) => {
      const org = await orgService.getOrg(cx, params.org ?? '');
      return toApiOrganization({ ...org, email: orgService.visibleOrgEmail(cx, org) }, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/orgs/{org}',
    operationId: 'orgEdit',
    summary: 'Edit an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    body: EditOrgOption,
    success: { status: 200, schema: 'Organization' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) =>
      toApiOrganization(await orgService.editOrg(cx, params.org ?? '', profile(body)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/orgs/{org}',
    operationId: 'orgDelete',
    summary: 'Delete an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await orgService.deleteOrg(cx, params.org ?? '');
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/orgs/{org}/rename',
    operationId: 'renameOrg',
    summary: 'Rename an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    body: RenameOrgOption,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await renameOrg(cx, params.org ?? '', body.new_name);
    },
  }),
  defineList({
    path: '/user/orgs',
    operationId: 'orgListCurrentUserOrgs',
    summary: "List the current user's organizations",
    tag: 'organization',
    scopes: ['organization', 'user'],
    gate: 'token',
    headers: 'link',
    schema: '[Organization]',
    errors: [401],
    load: ({ cx, page }) => orgService.listUserOrgs(cx, cx.viewer?.name ?? '', page),
    convert: orgList,
  }),
  defineList({
    path: '/users/{username}/orgs',
    operationId: 'orgListUserOrgs',
    summary: "List a user's organizations",
    tag: 'organization',
    scopes: ['organization', 'user'],
    gate: 'none',
    headers: 'link',
    schema: '[Organization]',
    errors: [404],
    load: ({ cx, params, page }) => orgService.listUserOrgs(cx, params.username ?? '', page),
    convert: orgList,
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{username}/orgs/{org}/permissions',
    operationId: 'orgGetUserPermissions',
    summary: 'Get user permissions in organization',
    tag: 'organization',
    scopes: ['organization', 'user'],
    gate: 'none',
    success: { status: 200, schema: 'OrganizationPermissions' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      const p = await getUserOrgPermissions(cx, params.username ?? '', params.org ?? '');
      return {
        can_create_repository: p.canCreateRepository,
        can_read: p.canRead,
        can_write: p.canWrite,
        is_admin: p.isAdmin,
        is_owner: p.isOwner,
      };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/orgs/{org}/repos',
    operationId: 'orgDeleteRepos',
    summary: 'Delete all repositories in an organization',
    tag: 'organization',
    scopes: ['organization', 'repository'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await deleteOrgRepos(cx, params.org ?? '');
    },
  }),
  defineList({
    path: '/admin/orgs',
    operationId: 'adminGetAllOrgs',
    summary: 'List all organizations',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    headers: 'link',
    schema: '[Organization]',
    errors: [401, 403],
    load: ({ cx, page }) => orgService.adminListOrgs(cx, page),
    convert: orgList,
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/users/{username}/orgs',
    operationId: 'adminCreateOrg',
    summary: 'Create an organization',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    body: CreateOrgOption,
    success: { status: 201, schema: 'Organization' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const org = await orgService.adminCreateOrg(cx, params.username ?? '', { name: body.username, ...profile(body) });
      return toApiOrganization(org, convertOptions(cx));
    },
  }),
];
