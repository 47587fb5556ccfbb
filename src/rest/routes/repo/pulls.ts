import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RepoRef } from '../../../services/access/repoAccess.ts';
import type { ListOptions } from '../../../services/paging.ts';
import { listPullCommits, listPullFiles, pullDiffStream } from '../../../services/pull/compare.ts';
import { createPullRequest } from '../../../services/pull/create.ts';
import { listPullRequests } from '../../../services/pull/list.ts';
import { getPullRequest, getPullRequestByBaseHead } from '../../../services/pull/pull.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiChangedFile, toApiCommit, toApiPullRequest, toApiPullRequestList } from '../../convert/pull.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';
import { CreatePullRequestOption, ListPullRequestsQuery, PullCommitsQuery, PullDiffQuery, PullFilesQuery } from '../../structs/pull.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** Gitea ParamsInt64: anything but an integer reads as 0 (then 404). */
const indexOf = (params: Record<string, string>): number => (/^\d+$/.test(params.index ?? '') ? Number(params.index) : 0);

/** Gitea's extra page headers of the pull request files and commits lists (X-Page, X-PerPage, X-PageCount, X-HasMore). */
function setPageHeaders(req: FastifyRequest, reply: FastifyReply, rootUrl: string, total: number, page: ListOptions): void {
  setPaginationHeaders(req, reply, rootUrl, total, page);
  const pages = Math.ceil(total / page.pageSize);
  reply.header('X-Page', String(page.page));
  reply.header('X-PerPage', String(page.pageSize));
  reply.header('X-PageCount', String(pages));
  reply.header('X-HasMore', String(page.page < pages));
  const exposed = reply.getHeader('Access-Control-Expose-Headers');
  reply.header('Access-Control-Expose-Headers', `${exposed ? `${String(exposed)}, ` : ''}X-Page, X-PerPage, X-PageCount, X-HasMore`);
}

/** Label ids of `labels=1&labels=2` (Gitea StringsToInt64s; non-numbers are ignored here). */
const labelIds = (labels: string[] | undefined): number[] =>
  (labels ?? [])
    .flatMap((l) => l.split(','))
    .filter((l) => /^\d+$/.test(l.trim()))
    .map(Number);

/** /repos/{o}/{r}/pulls: create, list, get (by number or by base/head), files, commits, .diff/.patch. */
export const pullRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls',
    operationId: 'repoListPullRequests',
    summary: "List a repo's pull requests",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ListPullRequestsQuery,
    success: { status: 200, schema: '[PullRequest]' },
    errors: [400, 404],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const milestone = query.milestone && /^\d+$/.test(query.milestone) ? Number(query.milestone) : undefined;
      const result = await listPullRequests(
        cx,
        ref(params),
        {
          state: query.state?.trim(),
          sort: query.sort?.trim(),
          labels: labelIds(query.labels),
          milestone,
          poster: query.poster,
          baseBranch: query.base_branch?.trim(),
        },
        page,
      );
      setPaginationHeaders(req, reply, cx.config.rootUrl, result.total, page);
      return toApiPullRequestList(result.items, cx.viewer, convertOptions(cx));
    },
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
      toApiPullRequest(await getPullRequest(cx, ref(params), indexOf(params)), cx.viewer, convertOptions(cx)),
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
        await getPullRequestByBaseHead(cx, ref(params), params.base ?? '', params.head ?? ''),
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
    success: { status: 200 },
    errors: [404],
    handler: async ({ cx, params, reply }) => {
      const kind = params.diffType;
      if (kind !== 'diff' && kind !== 'patch')
        return reply.code(404).send({ message: 'not found', url: `${cx.config.rootUrl}api/swagger` });
      const stream = await pullDiffStream(cx, ref(params), indexOf(params), kind);
      return reply.code(200).type('text/plain; charset=utf-8').send(stream);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{index}/files',
    operationId: 'repoGetPullRequestFiles',
    summary: 'Get changed files for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: PullFilesQuery,
    success: { status: 200, schema: '[ChangedFile]' },
    errors: [404],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await listPullFiles(cx, ref(params), indexOf(params), { skipTo: query['skip-to'] || undefined, page });
      setPageHeaders(req, reply, cx.config.rootUrl, result.total, page);
      return result.files.map((f) => toApiChangedFile(f, result.view.baseRepo.repo, result.head, convertOptions(cx)));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{index}/commits',
    operationId: 'repoGetPullRequestCommits',
    summary: 'Get commits for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: PullCommitsQuery,
    success: { status: 200, schema: '[Commit]' },
    errors: [404],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const stat = query.stat ?? true;
      const files = query.files ?? true;
      const result = await listPullCommits(cx, ref(params), indexOf(params), { page, files: stat || files });
      setPageHeaders(req, reply, cx.config.rootUrl, result.total, page);
      const opts = { ...convertOptions(cx), verification: query.verification ?? true, stat, files };
      return result.commits.map((c) => toApiCommit(c, result.view.baseRepo.repo, cx.viewer, opts));
    },
  }),
];
