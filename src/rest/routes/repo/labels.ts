import * as repoLabelService from '../../../services/label/repoLabel.ts';
import { toApiLabel, toApiLabelList } from '../../convert/label.ts';
import { labelFields } from '../../labelParams.ts';
import { defineList } from '../../list.ts';
import { idParam, repoRef } from '../../params.ts';
import { idOf, idOrName } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateLabelOption, EditLabelOption, ListLabelsQuery } from '../../structs/label.ts';

/** /repos/{owner}/{repo}/labels: list, create, get (by id or name), edit, delete. */
export const repoLabelRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/labels',
    operationId: 'issueListLabels',
    summary: "Get all of a repository's labels",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: ListLabelsQuery,
    // Gitea sets X-Total-Count but no Link header on this list.
    headers: 'count',
    schema: '[Label]',
    errors: [404],
    load: ({ cx, params, query, page }) => repoLabelService.listRepoLabels(cx, repoRef(params), { sort: query.sort, page }),
    convert: (result, { cx }) => toApiLabelList(result.items, cx.config.rootUrl),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/labels',
    operationId: 'issueCreateLabel',
    summary: 'Create a label',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: CreateLabelOption,
    success: { status: 201, schema: 'Label' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const label = await repoLabelService.createRepoLabel(cx, repoRef(params), labelFields(body));
      return toApiLabel(label, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/labels/{id}',
    operationId: 'issueGetLabel',
    summary: 'Get a single label',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOrName('label') },
    success: { status: 200, schema: 'Label' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiLabel(await repoLabelService.getRepoLabel(cx, repoRef(params), params.id ?? ''), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/labels/{id}',
    operationId: 'issueEditLabel',
    summary: 'Update a label',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOf('label') },
    body: EditLabelOption,
    success: { status: 200, schema: 'Label' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const label = await repoLabelService.updateRepoLabel(cx, repoRef(params), idParam(params), labelFields(body));
      return toApiLabel(label, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/labels/{id}',
    operationId: 'issueDeleteLabel',
    summary: 'Delete a label',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOf('label') },
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await repoLabelService.deleteRepoLabel(cx, repoRef(params), idParam(params));
    },
  }),
];
