import type { RepoRef } from '../../../services/access/repoAccess.ts';
import * as repoLabelService from '../../../services/label/repoLabel.ts';
import { toApiLabel, toApiLabelList } from '../../convert/label.ts';
import { setTotalCount } from '../../pagination.ts';
import { labelFields, labelId, labelPage } from '../../labelParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateLabelOption, EditLabelOption, ListLabelsQuery } from '../../structs/label.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** /repos/{owner}/{repo}/labels: list, create, get (by id or name), edit, delete. */
export const repoLabelRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/labels',
    operationId: 'issueListLabels',
    summary: "Get all of a repository's labels",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: ListLabelsQuery,
    success: { status: 200, schema: '[Label]' },
    errors: [404],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = await repoLabelService.listRepoLabels(cx, ref(params), {
        sort: query.sort,
        page: labelPage(req.query as Record<string, unknown>),
      });
      // Gitea sets X-Total-Count but no Link header on this list.
      setTotalCount(reply, page.total);
      return toApiLabelList(page.items, cx.config.rootUrl);
    },
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
      const label = await repoLabelService.createRepoLabel(cx, ref(params), labelFields(body));
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
    success: { status: 200, schema: 'Label' },
    errors: [404],
    handler: async ({ cx, params }) => toApiLabel(await repoLabelService.getRepoLabel(cx, ref(params), params.id ?? ''), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/labels/{id}',
    operationId: 'issueEditLabel',
    summary: 'Update a label',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditLabelOption,
    success: { status: 200, schema: 'Label' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const label = await repoLabelService.updateRepoLabel(cx, ref(params), labelId(params.id), labelFields(body));
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
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await repoLabelService.deleteRepoLabel(cx, ref(params), labelId(params.id));
    },
  }),
];
