import * as milestoneService from '../../../services/milestone/milestone.ts';
import { toApiMilestone } from '../../convert/issue.ts';
import { toApiMilestoneList } from '../../convert/milestone.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { idOrName } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateMilestoneOption, EditMilestoneOption, ListMilestonesQuery } from '../../structs/milestone.ts';

/** /repos/{owner}/{repo}/milestones: list, create, get (by id or name), edit, delete. */
export const milestoneRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/milestones',
    operationId: 'issueGetMilestonesList',
    summary: "Get all of a repository's opened milestones",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: ListMilestonesQuery,
    headers: 'link',
    schema: '[Milestone]',
    errors: [404],
    load: ({ cx, params, query, page }) =>
      milestoneService.listMilestones(cx, repoRef(params), { state: query.state, name: query.name, page }),
    convert: (result) => toApiMilestoneList(result.items),
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
      const milestone = await milestoneService.createMilestone(cx, repoRef(params), {
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
    params: { id: idOrName('milestone') },
    success: { status: 200, schema: 'Milestone' },
    errors: [404],
    handler: async ({ cx, params }) => toApiMilestone(await milestoneService.getMilestone(cx, repoRef(params), params.id ?? '')),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/milestones/{id}',
    operationId: 'issueEditMilestone',
    summary: 'Update a milestone',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOrName('milestone') },
    body: EditMilestoneOption,
    success: { status: 200, schema: 'Milestone' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const milestone = await milestoneService.updateMilestone(cx, repoRef(params), params.id ?? '', {
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
    params: { id: idOrName('milestone') },
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await milestoneService.deleteMilestone(cx, repoRef(params), params.id ?? '');
    },
  }),
];
