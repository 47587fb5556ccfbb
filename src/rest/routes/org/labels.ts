import * as labelService from '../../../services/label/label.ts';
import { toApiLabel, toApiLabelList } from '../../convert/label.ts';
import { labelFields } from '../../labelParams.ts';
import { defineList } from '../../list.ts';
import { idParam } from '../../params.ts';
import { idOf, idOrName } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateLabelOption, EditLabelOption, ListLabelsQuery } from '../../structs/label.ts';

/** /orgs/{org}/labels: list, create, get, edit, delete (Gitea's org label routes). */
export const orgLabelRoutes = [
  defineList({
    path: '/orgs/{org}/labels',
    operationId: 'orgListLabels',
    summary: "List an organization's labels",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    query: ListLabelsQuery,
    // Gitea sets X-Total-Count but no Link header on this list.
    headers: 'count',
    schema: '[Label]',
    errors: [404],
    load: ({ cx, params, query, page }) => labelService.listLabels(cx, { org: params.org ?? '' }, { sort: query.sort, page }),
    convert: (result, { cx }) => toApiLabelList(result.items, cx.config.rootUrl),
  }),
  defineRoute({
    method: 'POST',
    path: '/orgs/{org}/labels',
    operationId: 'orgCreateLabel',
    summary: 'Create a label for an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    body: CreateLabelOption,
    success: { status: 201, schema: 'Label' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const label = await labelService.createLabel(cx, { org: params.org ?? '' }, labelFields(body));
      return toApiLabel(label, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/orgs/{org}/labels/{id}',
    operationId: 'orgGetLabel',
    summary: 'Get a single label',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    params: { id: idOrName('label') },
    success: { status: 200, schema: 'Label' },
    errors: [401, 404],
    handler: async ({ cx, params }) =>
      toApiLabel(await labelService.getLabel(cx, { org: params.org ?? '' }, params.id ?? ''), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/orgs/{org}/labels/{id}',
    operationId: 'orgEditLabel',
    summary: 'Update a label',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    params: { id: idOf('label') },
    body: EditLabelOption,
    success: { status: 200, schema: 'Label' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const label = await labelService.updateLabel(cx, { org: params.org ?? '' }, idParam(params), labelFields(body));
      return toApiLabel(label, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/orgs/{org}/labels/{id}',
    operationId: 'orgDeleteLabel',
    summary: 'Delete a label',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    params: { id: idOf('label') },
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await labelService.deleteLabel(cx, { org: params.org ?? '' }, idParam(params));
    },
  }),
];
