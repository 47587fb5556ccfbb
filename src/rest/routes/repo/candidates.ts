import * as candidateService from '../../../services/pull/candidates.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

// Repository routes answer 404 for an invisible repository before 401 (Gitea repoAssignment runs before
// reqToken), so their gate is `none` and the service asks for a signed-in viewer after the lookup.

/** /repos/{owner}/{repo}/assignees[/{assignee}] and /reviewers: who can be assigned, who can be asked to review. */
export const repoCandidateRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/assignees',
    operationId: 'repoGetAssignees',
    summary: 'Return all users that have write access and can be assigned to issues',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[User]' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiUserList(await candidateService.listRepoAssignees(cx, repoRef(params)), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/assignees/{assignee}',
    operationId: 'repoCheckAssignee',
    summary: 'Check if a user can be assigned to issues in a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await candidateService.checkRepoAssignee(cx, repoRef(params), params.assignee ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/reviewers',
    operationId: 'repoGetReviewers',
    summary: 'Return all users that can be requested to review in this repo',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[User]' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiUserList(await candidateService.listRepoReviewers(cx, repoRef(params)), cx.viewer, convertOptions(cx)),
  }),
];
