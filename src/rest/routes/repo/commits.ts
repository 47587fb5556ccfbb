import * as commitService from '../../../services/repo/commits.ts';
import * as noteService from '../../../services/repo/notes.ts';
import { getPullRequestByMergedCommit } from '../../../services/pull/pull.ts';
import { NotFoundError } from '../../../errors.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiCommit, toApiPullRequest } from '../../convert/pull.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CommitDetailQuery, CommitsQuery, NoteQuery } from '../../structs/files.ts';
import type { ServiceContext } from '../../../services/context.ts';

/** The Commit JSON options of a request (stat, verification and files default true). */
const commitOptions = (
  cx: ServiceContext,
  q: { stat?: boolean | undefined; verification?: boolean | undefined; files?: boolean | undefined },
) => ({
  ...convertOptions(cx),
  verification: q.verification ?? true,
  stat: q.stat ?? true,
  files: q.files ?? true,
});

/**
 * /repos/{owner}/{repo}/commits, commits/{sha}/pull, git/commits/{sha}[.diff|.patch], git/notes/{sha}, compare
 * (Gitea routers/api/v1/repo/commits.go, notes.go, compare.go).
 */
export const commitRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/commits',
    operationId: 'repoGetAllCommits',
    summary: 'Get a list of all commits from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: CommitsQuery,
    headers: 'pages',
    schema: '[Commit]',
    errors: [404, 409, 422],
    load: ({ cx, params, query, page }) =>
      commitService.listCommits(cx, repoRef(params), {
        ...(query.sha ? { sha: query.sha } : {}),
        ...(query.path ? { path: query.path } : {}),
        ...(query.not ? { not: query.not } : {}),
        ...(query.since ? { since: query.since } : {}),
        ...(query.until ? { until: query.until } : {}),
        files: (query.stat ?? true) || (query.files ?? true),
        verification: query.verification ?? true,
        page,
      }),
    convert: (result, { cx, query }) => {
      const opts = commitOptions(cx, query);
      return result.commits.map((c) => toApiCommit(c, result.repo, cx.viewer, opts));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/commits/{sha}',
    operationId: 'repoGetSingleCommit',
    summary: 'Get a single commit from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: CommitDetailQuery,
    success: { status: 200, schema: 'Commit' },
    errors: [404, 422],
    handler: async ({ cx, params, query }) => {
      const opts = commitOptions(cx, query);
      const { repo, commit } = await commitService.getCommit(
        cx,
        repoRef(params),
        params.sha ?? '',
        opts.stat || opts.files,
        opts.verification,
      );
      return toApiCommit(commit, repo, cx.viewer, opts);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/commits/{sha}.{diffType}',
    operationId: 'repoDownloadCommitDiffOrPatch',
    summary: "Get a commit's diff or patch",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, contentType: 'text/plain', description: 'the diff or patch' },
    errors: [404],
    handler: async ({ cx, params, reply }) => {
      const kind = params.diffType;
      if (kind !== 'diff' && kind !== 'patch') throw new NotFoundError('not found');
      const stream = await commitService.commitPatch(cx, repoRef(params), params.sha ?? '', kind);
      return reply.code(200).type('text/plain; charset=utf-8').send(stream);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/compare/{basehead}',
    operationId: 'repoCompareDiff',
    summary: 'Get commit comparison information',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'basehead',
    query: CommitDetailQuery,
    success: { status: 200, schema: 'Compare' },
    errors: [400, 404],
    handler: async ({ cx, params, query }) => {
      const opts = commitOptions(cx, query);
      const result = await commitService.compare(cx, repoRef(params), params.basehead ?? '', opts.stat || opts.files, opts.verification);
      return { total_commits: result.total, commits: result.commits.map((c) => toApiCommit(c, result.repo, cx.viewer, opts)) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{sha}/pull',
    operationId: 'repoGetCommitPullRequest',
    summary: 'Get the merged pull request of the commit',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'PullRequest' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiPullRequest(await getPullRequestByMergedCommit(cx, repoRef(params), params.sha ?? ''), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/notes/{sha}',
    operationId: 'repoGetNote',
    summary: 'Get a note corresponding to a single commit from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: NoteQuery,
    success: { status: 200, schema: 'Note' },
    errors: [404, 422],
    handler: async ({ cx, params, query }) => {
      const opts = commitOptions(cx, { ...query, stat: true });
      const note = await noteService.getNote(cx, repoRef(params), params.sha ?? '', opts.verification);
      return { message: note.message, commit: toApiCommit(note.commit, note.repo, cx.viewer, opts) };
    },
  }),
];
