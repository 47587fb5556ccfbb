import { NotFoundError } from '../../../errors.ts';
import { listPullCommits, listPullFiles, pullDiffStream } from '../../../services/pull/compare.ts';
import { createPullRequest } from '../../../services/pull/create.ts';
import { listPullRequests } from '../../../services/pull/list.ts';
import { getPullRequest, getPullRequestByBaseHead } from '../../../services/pull/pull.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiChangedFile, toApiCommit, toApiPullRequest, toApiPullRequestList } from '../../convert/pull.ts';
import { defineList } from '../../list.ts';
import { indexParam, intParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreatePullRequestOption, ListPullRequestsQuery, PullCommitsQuery, PullDiffQuery, PullFilesQuery } from '../../structs/pull.ts';

/** Label ids of `labels=1&labels=2` (Gitea StringsToInt64s; non-numbers and ids beyond the id range are ignored here). */
const labelIds = (labels: string[] | undefined): number[] =>
  (labels ?? [])
    .flatMap((l) => l.split(','))
    .map((l) => intParam(l.trim()))
    .filter((id) => id > 0);

/** /repos/{o}/{r}/pulls: create, list, get (by number or by base/head), files, commits, .diff/.patch. */
export const pullRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/pulls',
    operationId: 'repoListPullRequests',
    summary: "List a repo's pull requests",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ListPullRequestsQuery,
    headers: 'link',
    schema: '[PullRequest]',
    errors: [400, 404],
    load: ({ cx, params, query, page }) =>
      listPullRequests(
        cx,
        repoRef(params),
        {
          state: query.state?.trim(),
          sort: query.sort?.trim(),
          labels: labelIds(query.labels),
          milestone: query.milestone !== undefined && query.milestone > 0 ? query.milestone : undefined,
          poster: query.poster,
          baseBranch: query.base_branch?.trim(),
        },
        page,
      ),
    convert: (result, { cx }) => toApiPullRequestList(result.items, cx.viewer, convertOptions(cx)),
  }),
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
      const view = await createPullRequest(cx, repoRef(params), {
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
        reviewers: body.reviewers ?? undefined,
        teamReviewers: body.team_reviewers ?? undefined,
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
    handler: async ({ cx, params }) =>
      toApiPullRequest(await getPullRequest(cx, repoRef(params), indexParam(params)), cx.viewer, convertOptions(cx)),
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
      toApiPullRequest(
        await getPullRequestByBaseHead(cx, repoRef(params), params.base ?? '', params.head ?? ''),
        cx.viewer,
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{index}.{diffType}',
    operationId: 'repoDownloadPullDiffOrPatch',
    summary: 'Get a pull request diff or patch',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: PullDiffQuery,
    success: { status: 200, contentType: 'text/plain', description: 'the diff or patch' },
    errors: [404],
    handler: async ({ cx, params, reply }) => {
      const kind = params.diffType;
      if (kind !== 'diff' && kind !== 'patch') throw new NotFoundError('not found');
      const stream = await pullDiffStream(cx, repoRef(params), indexParam(params), kind);
      return reply.code(200).type('text/plain; charset=utf-8').send(stream);
    },
  }),
  defineList({
    path: '/repos/{owner}/{repo}/pulls/{index}/files',
    operationId: 'repoGetPullRequestFiles',
    summary: 'Get changed files for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: PullFilesQuery,
    headers: 'pages',
    schema: '[ChangedFile]',
    errors: [404],
    load: ({ cx, params, query, page }) =>
      listPullFiles(cx, repoRef(params), indexParam(params), { skipTo: query['skip-to'] || undefined, page }),
    convert: (result, { cx }) => result.files.map((f) => toApiChangedFile(f, result.view.baseRepo.repo, result.head, convertOptions(cx))),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/pulls/{index}/commits',
    operationId: 'repoGetPullRequestCommits',
    summary: 'Get commits for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: PullCommitsQuery,
    headers: 'pages',
    schema: '[Commit]',
    errors: [404],
    load: ({ cx, params, query, page }) =>
      listPullCommits(cx, repoRef(params), indexParam(params), {
        page,
        files: (query.stat ?? true) || (query.files ?? true),
        verification: query.verification ?? true,
      }),
    convert: (result, { cx, query }) => {
      const opts = {
        ...convertOptions(cx),
        verification: query.verification ?? true,
        stat: query.stat ?? true,
        files: query.files ?? true,
      };
      return result.commits.map((c) => toApiCommit(c, result.view.baseRepo.repo, cx.viewer, opts));
    },
  }),
];
