import * as issueLabelService from '../../../services/issue/issueLabel.ts';
import { toApiLabelList } from '../../convert/label.ts';
import { idParam, indexParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { IssueLabelsOption } from '../../structs/issueLabel.ts';

const target = (params: Record<string, string>) => ({ ref: repoRef(params), index: indexParam(params) });

/** /repos/{o}/{r}/issues/{index}/labels: list, add, replace, clear, remove one (Gitea issue_label.go). */
export const issueLabelRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/labels',
    operationId: 'issueGetLabels',
    summary: "Get an issue's labels",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: '[Label]' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiLabelList(await issueLabelService.listIssueLabels(cx, repoRef(params), indexParam(params)), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/labels',
    operationId: 'issueAddLabel',
    summary: 'Add a label to an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: IssueLabelsOption,
    success: { status: 200, schema: '[Label]' },
    errors: [400, 401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const { labels } = await issueLabelService.addIssueLabels(cx, target(params), body.labels ?? []);
      return toApiLabelList(labels, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/issues/{index}/labels',
    operationId: 'issueReplaceLabels',
    summary: "Replace an issue's labels",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: IssueLabelsOption,
    success: { status: 200, schema: '[Label]' },
    errors: [400, 401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const { labels } = await issueLabelService.replaceIssueLabels(cx, target(params), body.labels ?? []);
      return toApiLabelList(labels, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/labels',
    operationId: 'issueClearLabels',
    summary: 'Remove all labels from an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await issueLabelService.clearIssueLabels(cx, target(params));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/labels/{id}',
    operationId: 'issueRemoveLabel',
    summary: 'Remove a label from an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOf('label') },
    success: { status: 204 },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params }) => {
      await issueLabelService.removeIssueLabels(cx, target(params), [idParam(params)]);
    },
  }),
];
