import * as gitRead from '../../../services/repo/gitRead.ts';
import * as gitTree from '../../../services/repo/gitTree.ts';
import { toApiGitTree, toApiReference } from '../../convert/files.ts';
import { toApiGitBlob } from '../../convert/git.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { TreeQuery } from '../../structs/files.ts';

/** /repos/{owner}/{repo}/git/*: raw git objects, trees and refs (Gitea routers/api/v1/repo/blob.go, tree.go, git_ref.go). */
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
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/trees/{sha}',
    operationId: 'GetTree',
    summary: 'Gets the tree of a repository.',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: TreeQuery,
    success: { status: 200, schema: 'GitTreeResponse' },
    errors: [400, 404],
    handler: async ({ cx, params, query }) =>
      toApiGitTree(
        await gitTree.getTree(cx, repoRef(params), params.sha ?? '', {
          recursive: query.recursive ?? false,
          page: query.page ?? 1,
          perPage: query.per_page ?? gitTree.DEFAULT_TREE_PAGE,
        }),
        cx.config.rootUrl,
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/refs',
    operationId: 'repoListAllGitRefs',
    summary: "Get specified ref or filtered repository's refs",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[Reference]' },
    errors: [404],
    handler: async ({ cx, params }) => {
      const { repo, refs } = await gitTree.listGitRefs(cx, repoRef(params), '');
      return refs.map((r) => toApiReference(repo, r, cx.config.rootUrl));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/refs/{ref}',
    operationId: 'repoListGitRefs',
    summary: "Get specified ref or filtered repository's refs",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'ref',
    success: { status: 200, schema: '[Reference]' },
    also: [{ status: 200, schema: 'Reference' }],
    errors: [404],
    handler: async ({ cx, params }) => {
      const { repo, refs, exact } = await gitTree.listGitRefs(cx, repoRef(params), params.ref ?? '');
      const out = refs.map((r) => toApiReference(repo, r, cx.config.rootUrl));
      return exact ? out[0] : out;
    },
  }),
];
