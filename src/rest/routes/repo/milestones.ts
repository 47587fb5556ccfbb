import type { RepoRef } from '../../../services/access/repoAccess.ts';
import * as milestoneService from '../../../services/milestone/milestone.ts';
import { toApiMilestone } from '../../convert/issue.ts';
import { toApiMilestoneList } from '../../convert/milestone.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';
import { CreateMilestoneOption, EditMilestoneOption, ListMilestonesQuery } from '../../structs/milestone.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** /repos/{owner}/{repo}/milestones: list, create, get (by id or name), edit, delete. */
export const milestoneRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/milestones',
    operationId: 'issueGetMilestonesList',
    summary: "Get all of a repository's opened milestones",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: ListMilestonesQuery,
    success: { status: 200, schema: '[Milestone]' },
    errors: [404],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await milestoneService.listMilestones(cx, ref(params), { state: query.state, name: query.name, page });
      setPaginationHeaders(req, reply, cx.config.rootUrl, result.total, page);
      return toApiMilestoneList(result.items);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/milestones',
    operationId: 'issueCreateMilestone',
    summary: 'Create a milestone',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: CreateMilestoneOption,
    success: { status: 201, schema: 'Milestone' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const milestone = await milestoneService.createMilestone(cx, ref(params), {
        title: body.title,
        description: body.description,
        dueOn: body.due_on ? new Date(body.due_on) : null,
        state: body.state,
      });
      return toApiMilestone(milestone);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/milestones/{id}',
    operationId: 'issueGetMilestone',
    summary: 'Get a milestone',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: 'Milestone' },
    errors: [404],
    handler: async ({ cx, params }) => toApiMilestone(await milestoneService.getMilestone(cx, ref(params), params.id ?? '')),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/milestones/{id}',
    operationId: 'issueEditMilestone',
    summary: 'Update a milestone',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditMilestoneOption,
    success: { status: 200, schema: 'Milestone' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const milestone = await milestoneService.updateMilestone(cx, ref(params), params.id ?? '', {
        title: body.title ?? undefined,
        description: body.description ?? undefined,
        // Gitea's EditMilestone always sets the deadline from `due_on`: leaving it out removes the due date.
        dueOn: body.due_on ?? null,
        state: body.state ?? undefined,
      });
      return toApiMilestone(milestone);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/milestones/{id}',
    operationId: 'issueDeleteMilestone',
    summary: 'Delete a milestone',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await milestoneService.deleteMilestone(cx, ref(params), params.id ?? '');
    },
  }),
];
