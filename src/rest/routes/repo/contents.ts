import * as gitRead from '../../../services/repo/gitRead.ts';
import { toApiContents } from '../../convert/git.ts';
import { defineRoute } from '../../route.ts';
import { ContentsQuery } from '../../structs/git.ts';

/** /repos/{owner}/{repo}/contents[/{filepath}] (Gitea routers/api/v1/repo/file.go GetContents). */
export const contentsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/contents',
    operationId: 'repoGetContentsList',
    summary: 'Gets the metadata of all the entries of the root dir',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ContentsQuery,
    success: { status: 200, schema: '[ContentsResponse]' },
    errors: [404],
    handler: async ({ cx, params, query }) =>
      toApiContents(await gitRead.getContents(cx, params.owner ?? '', params.repo ?? '', '', query.ref), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/contents/{filepath}',
    operationId: 'repoGetContents',
    summary: 'Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'filepath',
    query: ContentsQuery,
    success: { status: 200, schema: 'ContentsResponse' },
    errors: [404],
    handler: async ({ cx, params, query }) =>
      toApiContents(
        await gitRead.getContents(cx, params.owner ?? '', params.repo ?? '', params.filepath ?? '', query.ref),
        cx.config.rootUrl,
      ),
  }),
];
