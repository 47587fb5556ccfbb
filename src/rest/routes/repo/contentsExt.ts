// Gitea 1.24's contents reads: file-contents (many files at once) and contents-ext (routers/api/v1/repo/file.go).
import { InvalidArgumentError } from '../../../errors.ts';
import * as fileContents from '../../../services/repo/fileContents.ts';
import { toApiContentsExt, toApiFilesContents } from '../../convert/contentsExt.ts';
import { defineRoute } from '../../route.ts';
import { ContentsExtQuery, ContentsQuery, FileContentsQuery, GetFilesOptions } from '../../structs/git.ts';

/** GET's `body` query: GetFilesOptions as JSON (Gitea answers 400 with the decoder's complaint). */
function decodeFilesOption(text: string | undefined): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text ?? '');
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : 'invalid JSON in body', { query: 'body' });
  }
  const parsed = GetFilesOptions.safeParse(value ?? {});
  if (!parsed.success) throw new InvalidArgumentError('body: files must be a list of strings', { query: 'body' });
  return parsed.data.files ?? [];
}

export const contentsExtRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/file-contents',
    operationId: 'repoGetFileContents',
    summary: 'Get the metadata and contents of requested files',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: FileContentsQuery,
    success: { status: 200, schema: '[ContentsResponse]' },
    errors: [400, 404],
    handler: async ({ cx, params, query }) =>
      toApiFilesContents(
        await fileContents.getFilesContents(cx, params.owner ?? '', params.repo ?? '', decodeFilesOption(query.body), query.ref),
        cx.config.rootUrl,
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/file-contents',
    operationId: 'repoGetFileContentsPost',
    summary: 'Get the metadata and contents of requested files',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ContentsQuery,
    body: GetFilesOptions,
    success: { status: 200, schema: '[ContentsResponse]' },
    errors: [404, 422],
    handler: async ({ cx, params, query, body }) =>
      toApiFilesContents(
        await fileContents.getFilesContents(cx, params.owner ?? '', params.repo ?? '', body.files ?? [], query.ref),
        cx.config.rootUrl,
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/contents-ext/{filepath}',
    operationId: 'repoGetContentsExt',
    summary: 'The extended "contents" API, to get file metadata and/or content, or list a directory.',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'filepath',
    query: ContentsExtQuery,
    success: { status: 200, schema: 'ContentsExtResponse' },
    errors: [400, 404],
    handler: async ({ cx, params, query }) => {
      const { contents, includes } = await fileContents.getContentsExt(
        cx,
        params.owner ?? '',
        params.repo ?? '',
        params.filepath ?? '',
        query.ref,
        query.includes,
      );
      return toApiContentsExt(contents, includes, cx.config.rootUrl);
    },
  }),
];
