import { createIssue } from '../../../services/issue/create.ts';
import { setIssueDeadline } from '../../../services/issue/deadline.ts';
import { deleteIssue } from '../../../services/issue/delete.ts';
import { editIssue } from '../../../services/issue/edit.ts';
import { getIssue } from '../../../services/issue/issue.ts';
import { listIssues, searchIssues, type IssueFilters } from '../../../services/issue/list.ts';
import { toApiIssue, toApiIssueList } from '../../convert/issue.ts';
import { apiTime } from '../../convert/time.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { indexParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateIssueOption, EditDeadlineOption, EditIssueOption, ListIssuesQuery, SearchIssuesQuery } from '../../structs/issue.ts';

/** The filters both issue lists share (GET /repos/issues/search and GET /repos/{o}/{r}/issues). */
function issueFilters(query: {
  state: IssueFilters['state'];
  labels?: string[] | undefined;
  milestones?: string[] | undefined;
  q?: string | undefined;
  type?: IssueFilters['type'] | undefined;
  since?: Date | undefined;
  before?: Date | undefined;
}): IssueFilters {
  return {
    state: query.state,
    labels: query.labels,
    milestones: query.milestones,
    q: query.q,
    type: query.type,
    since: query.since,
    before: query.before,
  };
}

/** /repos/{o}/{r}/issues (list, create, get, edit) and /repos/issues/search. */
export const issueRoutes = [
  defineList({
    path: '/repos/issues/search',
    operationId: 'issueSearchIssues',
    summary: 'Search for issues across the repositories that the user has access to',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: SearchIssuesQuery,
    headers: 'link',
    schema: '[Issue]',
    errors: [404, 422],
    load: ({ cx, query, page }) =>
      searchIssues(cx, {
        ...issueFilters(query),
        assigned: query.assigned,
        created: query.created,
        mentioned: query.mentioned,
        owner: query.owner,
        page,
      }),
    convert: (result, { cx }) => toApiIssueList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/issues',
    operationId: 'issueListIssues',
    summary: "List a repository's issues",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: ListIssuesQuery,
    headers: 'link',
    schema: '[Issue]',
    errors: [404, 422],
    load: ({ cx, params, query, page }) =>
      listIssues(cx, repoRef(params), {
        ...issueFilters(query),
        createdBy: query.created_by,
        assignedBy: query.assigned_by,
        mentionedBy: query.mentioned_by,
        page,
      }),
    convert: (result, { cx }) => toApiIssueList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues',
    operationId: 'issueCreateIssue',
    summary: 'Create an issue. If using deadline only the date will be taken into account, and time of day ignored.',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: CreateIssueOption,
    success: { status: 201, schema: 'Issue' },
    errors: [400, 401, 403, 404, 412, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await createIssue(cx, repoRef(params), {
        title: body.title,
        body: body.body,
        ref: body.ref,
        assignee: body.assignee,
        assignees: body.assignees ?? undefined,
        dueDate: body.due_date ? new Date(body.due_date) : null,
        milestone: body.milestone ?? undefined,
        labels: body.labels ?? undefined,
        projects: body.projects ?? undefined,
        closed: body.closed,
      });
      return toApiIssue(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}',
    operationId: 'issueGetIssue',
    summary: 'Get an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: 'Issue' },
    errors: [404],
    handler: async ({ cx, params }) => toApiIssue(await getIssue(cx, repoRef(params), indexParam(params)), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/issues/{index}',
    operationId: 'issueEditIssue',
    summary: 'Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditIssueOption,
    success: { status: 201, schema: 'Issue' },
    errors: [400, 401, 403, 404, 409, 412, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await editIssue(cx, repoRef(params), indexParam(params), {
        title: body.title,
        body: body.body ?? undefined,
        contentVersion: body.content_version ?? undefined,
        ref: body.ref ?? undefined,
        assignee: body.assignee ?? undefined,
        assignees: body.assignees ?? undefined,
        milestone: body.milestone ?? undefined,
        state: body.state ?? undefined,
        dueDate: body.due_date ?? undefined,
        unsetDueDate: body.unset_due_date ?? undefined,
        projects: body.projects ?? undefined,
      });
      return toApiIssue(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}',
    operationId: 'issueDelete',
    summary: 'Delete an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await deleteIssue(cx, repoRef(params), indexParam(params));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/deadline',
    operationId: 'issueEditIssueDeadline',
    summary:
      'Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditDeadlineOption,
    success: { status: 201, schema: 'IssueDeadline' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const deadline = await setIssueDeadline(cx, repoRef(params), indexParam(params), body.due_date);
      return { due_date: deadline ? apiTime(deadline) : null };
    },
  }),
];
