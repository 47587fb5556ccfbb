import * as assigneeService from '../../../services/issue/assignee.ts';
import { toApiIssue } from '../../convert/issue.ts';
import { convertOptions } from '../../convert/options.ts';
import { indexParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { IssueAssigneesOption } from '../../structs/issueAssignee.ts';

/** /repos/{o}/{r}/issues/{index}/assignees: add, remove, and check assignability (Gitea issue_assignee.go). */
export const issueAssigneeRoutes = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/assignees',
    operationId: 'issueAddAssignees',
    summary: 'Add assignees to an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: IssueAssigneesOption,
    success: { status: 201, schema: 'Issue' },
    errors: [400, 401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await assigneeService.addAssignees(cx, { ref: repoRef(params), index: indexParam(params) }, body.assignees ?? []);
      return toApiIssue(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/assignees',
    operationId: 'issueRemoveAssignees',
    summary: 'Remove assignees from an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: IssueAssigneesOption,
    success: { status: 200, schema: 'Issue' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await assigneeService.removeAssignees(cx, { ref: repoRef(params), index: indexParam(params) }, body.assignees ?? []);
      return toApiIssue(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/assignees/{assignee}',
    operationId: 'issueCheckAssignee',
    summary: 'Check if a user can be assigned to an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 204 },
    errors: [400, 404],
    handler: async ({ cx, params }) => {
      await assigneeService.checkAssignee(cx, repoRef(params), indexParam(params), params.assignee ?? '');
    },
  }),
];
