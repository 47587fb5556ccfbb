import { z } from 'zod';
import * as teamService from '../../../services/org/team.ts';
import { searchTeams } from '../../../services/org/teamSearch.ts';
import * as teamMemberService from '../../../services/org/teamMember.ts';
import * as teamRepoService from '../../../services/org/teamRepo.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepository, toApiRepositoryList } from '../../convert/repo.ts';
import { toApiTeam, toApiTeamList } from '../../convert/team.ts';
import { toApiUser, toApiUserList } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { idParam, qBool, qString } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateTeamOption, EditTeamOption } from '../../structs/team.ts';

// Team routes answer 404 for an unknown team before 401 (Gitea orgAssignment runs before reqToken), so
// their gate is `none` and the service asks for a signed-in viewer after the lookup.

/** The `{id}` path parameter: the team. */
const teamId = idParam;
const TEAM_ID = { id: idOf('team') };

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

const repoPath = '/teams/{id}/repos/{org}/{repo}';

/** Gitea's team operations: /orgs/{org}/teams, /user/teams and /teams/{id}/… (members, repos). */
export const teamRoutes = [
  defineRoute({
    method: 'POST',
    path: '/orgs/{org}/teams',
    operationId: 'orgCreateTeam',
    summary: 'Create a team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    body: CreateTeamOption,
    success: { status: 201, schema: 'Team' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const team = await teamService.createTeam(cx, params.org ?? '', {
        name: body.name,
        description: body.description,
        permission: body.permission,
        units: body.units,
        unitsMap: body.units_map,
        includesAllRepositories: body.includes_all_repositories,
        canCreateOrgRepo: body.can_create_org_repo,
        visibility: body.visibility,
      });
      return toApiTeam(team, team.org, convertOptions(cx));
    },
  }),
  defineList({
    path: '/orgs/{org}/teams',
    operationId: 'orgListTeams',
    summary: "List an organization's teams",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    headers: 'link',
    schema: '[Team]',
    errors: [401, 403, 404],
    load: ({ cx, params, page }) => teamService.listTeams(cx, params.org ?? '', page),
    convert: (result, { cx }) => toApiTeamList(result.items, false, convertOptions(cx)),
  }),
  defineList({
    path: '/orgs/{org}/teams/search',
    operationId: 'teamSearch',
    summary: 'Search for teams within an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    query: z.object({
      q: qString('keywords to search'),
      include_desc: qBool('include search within team description (defaults to true)', true),
    }),
    headers: 'link',
    schema: 'TeamSearchResults',
    errors: [401, 403, 404],
    load: ({ cx, params, query, page }) =>
      searchTeams(cx, params.org ?? '', { q: query.q ?? '', includeDesc: query.include_desc !== false }, page),
    convert: (result, { cx }) => ({ ok: true, data: toApiTeamList(result.items, false, convertOptions(cx)) }),
  }),
  defineList({
    path: '/user/teams',
    operationId: 'userListTeams',
    summary: 'List all the teams a user belongs to',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    headers: 'link',
    schema: '[Team]',
    errors: [401, 403],
    load: ({ cx, page }) => teamService.listUserTeams(cx, page),
    convert: (result, { cx }) => toApiTeamList(result.items, true, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/teams/{id}',
    operationId: 'orgGetTeam',
    summary: 'Get a team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 200, schema: 'Team' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      const team = await teamService.getTeam(cx, teamId(params));
      return toApiTeam(team, team.org, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/teams/{id}',
    operationId: 'orgEditTeam',
    summary: 'Edit a team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    body: EditTeamOption,
    success: { status: 200, schema: 'Team' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const team = await teamService.editTeam(cx, teamId(params), {
        name: body.name,
        description: opt(body.description),
        permission: body.permission,
        units: body.units,
        unitsMap: body.units_map,
        includesAllRepositories: opt(body.includes_all_repositories),
        canCreateOrgRepo: opt(body.can_create_org_repo),
        visibility: opt(body.visibility),
      });
      // Gitea's EditTeam converts without loading the organization.
      return toApiTeam(team, null, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/teams/{id}',
    operationId: 'orgDeleteTeam',
    summary: 'Delete a team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await teamService.deleteTeam(cx, teamId(params));
    },
  }),
  defineList({
    path: '/teams/{id}/members',
    operationId: 'orgListTeamMembers',
    summary: "List a team's members",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    headers: 'link',
    schema: '[User]',
    errors: [401, 403, 404],
    load: ({ cx, params, page }) => teamMemberService.listTeamMembers(cx, teamId(params), page),
    convert: (result, { cx }) => toApiUserList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/teams/{id}/members/{username}',
    operationId: 'orgListTeamMember',
    summary: 'List a particular member of team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 200, schema: 'User' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiUser(await teamMemberService.getTeamMember(cx, teamId(params), params.username ?? ''), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'PUT',
    path: '/teams/{id}/members/{username}',
    operationId: 'orgAddTeamMember',
    summary: 'Add a team member',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await teamMemberService.addTeamMember(cx, teamId(params), params.username ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/teams/{id}/members/{username}',
    operationId: 'orgRemoveTeamMember',
    summary: 'Remove a team member',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await teamMemberService.removeTeamMember(cx, teamId(params), params.username ?? '');
    },
  }),
  defineList({
    path: '/teams/{id}/repos',
    operationId: 'orgListTeamRepos',
    summary: "List a team's repos",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    headers: 'link',
    schema: '[Repository]',
    errors: [401, 403, 404],
    load: ({ cx, params, page }) => teamRepoService.listTeamRepos(cx, teamId(params), page),
    convert: (result, { cx }) => toApiRepositoryList(result.items, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: repoPath,
    operationId: 'orgListTeamRepo',
    summary: 'List a particular repo of team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 200, schema: 'Repository' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      const { repo, perm } = await teamRepoService.getTeamRepo(cx, teamId(params), params.org ?? '', params.repo ?? '');
      return toApiRepository(repo, repo.owner, perm, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'PUT',
    path: repoPath,
    operationId: 'orgAddTeamRepository',
    summary: 'Add a repository to a team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await teamRepoService.addTeamRepo(cx, teamId(params), params.org ?? '', params.repo ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: repoPath,
    operationId: 'orgRemoveTeamRepository',
    summary: 'Remove a repository from a team',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    params: TEAM_ID,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await teamRepoService.removeTeamRepo(cx, teamId(params), params.org ?? '', params.repo ?? '');
    },
  }),
];
