import { createPullRequest } from '../../../services/pull/create.ts';
import { getPullRequest, getPullRequestByBaseHead } from '../../../services/pull/pull.ts';
import type { RepoRef } from '../../../services/repo/collaborator.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPullRequest } from '../../convert/pull.ts';
import { defineRoute } from '../../route.ts';
import { CreatePullRequestOption } from '../../structs/pull.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** Gitea ParamsInt64: anything but an integer reads as 0 (then 404). */
const indexOf = (params: Record<string, string>): number => (/^\d+$/.test(params.index ?? '') ? Number(params.index) : 0);

/** /repos/{o}/{r}/pulls: create, list, get (by number or by base/head), files, commits, .diff/.patch. */
export const pullRoutes = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls',
    operationId: 'repoCreatePullRequest',
    summary: 'Create a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: CreatePullRequestOption,
    success: { status: 201, schema: 'PullRequest' },
    errors: [403, 404, 409, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await createPullRequest(cx, ref(params), {
        head: body.head,
        base: body.base,
        title: body.title,
        body: body.body,
        assignee: body.assignee,
        assignees: body.assignees ?? undefined,
        labels: body.labels ?? undefined,
        milestone: body.milestone ?? undefined,
        dueDate: body.due_date ? new Date(body.due_date) : null,
        allowMaintainerEdit: body.allow_maintainer_edit ?? undefined,
      });
      return toApiPullRequest(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{index}',
    operationId: 'repoGetPullRequest',
    summary: 'Get a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'PullRequest' },
    errors: [404],
    handler: async ({ cx, params }) => toApiPullRequest(await getPullRequest(cx, ref(params), indexOf(params)), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{base}/{head}',
    operationId: 'repoGetPullRequestByBaseHead',
    summary: 'Get a pull request by base and head',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'head',
    success: { status: 200, schema: 'PullRequest' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiPullRequest(await getPullRequestByBaseHead(cx, ref(params), params.base ?? '', params.head ?? ''), cx.viewer, convertOptions(cx)),
  }),
];
