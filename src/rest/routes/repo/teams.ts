import * as repoTeamService from '../../../services/org/repoTeam.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiTeam, toApiTeamList } from '../../convert/team.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

// Repository routes answer 404 for an invisible repository before 401 (Gitea repoAssignment runs before
// reqToken), so their gate is `none` and the service asks for a signed-in viewer after the lookup.

const TEAM = { team: { schema: { type: 'string' }, description: 'team name' } };

/** /repos/{owner}/{repo}/teams[/{team}]: an organization repository's teams (Gitea repo/teams.go). */
export const repoTeamRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/teams',
    operationId: 'repoListTeams',
    summary: "List a repository's teams",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[Team]' },
    errors: [401, 403, 404, 405],
    handler: async ({ cx, params }) => toApiTeamList(await repoTeamService.listRepoTeams(cx, repoRef(params)), false, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/teams/{team}',
    operationId: 'repoCheckTeam',
    summary: 'Check if a team is assigned to a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: TEAM,
    success: { status: 200, schema: 'Team' },
    errors: [401, 403, 404, 405],
    handler: async ({ cx, params }) =>
      toApiTeam(await repoTeamService.getRepoTeam(cx, repoRef(params), params.team ?? ''), null, convertOptions(cx)),
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/teams/{team}',
    operationId: 'repoAddTeam',
    summary: 'Add a team to a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: TEAM,
    success: { status: 204 },
    errors: [401, 403, 404, 405, 422],
    handler: async ({ cx, params }) => {
      await repoTeamService.addRepoTeam(cx, repoRef(params), params.team ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/teams/{team}',
    operationId: 'repoDeleteTeam',
    summary: 'Delete a team from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: TEAM,
    success: { status: 204 },
    errors: [401, 403, 404, 405, 422],
    handler: async ({ cx, params }) => {
      await repoTeamService.removeRepoTeam(cx, repoRef(params), params.team ?? '');
    },
  }),
];
