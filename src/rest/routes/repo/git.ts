import * as gitRead from '../../../services/repo/gitRead.ts';
import { toApiGitBlob } from '../../convert/git.ts';
import { defineRoute } from '../../route.ts';

/** /repos/{owner}/{repo}/git/*: raw git objects (Gitea routers/api/v1/repo/blob.go). */
export const gitRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/blobs/{sha}',
    operationId: 'GetBlob',
    summary: 'Gets the blob of a repository.',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'GitBlobResponse' },
    errors: [400, 404],
    handler: async ({ cx, params }) =>
      toApiGitBlob(await gitRead.getBlob(cx, params.owner ?? '', params.repo ?? '', params.sha ?? ''), cx.config.rootUrl),
  }),
];
