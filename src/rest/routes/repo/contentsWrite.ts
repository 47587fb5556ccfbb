import type { z } from 'zod';
import * as diffPatchService from '../../../services/repo/diffPatch.ts';
import * as filesService from '../../../services/repo/files.ts';
import { toApiFileResponse, toApiFilesResponse } from '../../convert/files.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import {
  ApplyDiffPatchFileOptions,
  ChangeFilesOptions,
  CreateFileOptions,
  DeleteFileOptions,
  UpdateFileOptions,
} from '../../structs/files.ts';

type Common = z.output<typeof ChangeFilesOptions>;

/** The options every file write shares (Gitea's ChangeRepoFilesOptions from FileOptions). */
function common(body: Omit<Common, 'files'>): Omit<filesService.ChangeFilesInput, 'files'> {
  return {
    ...(body.branch ? { branch: body.branch } : {}),
    ...(body.new_branch ? { newBranch: body.new_branch } : {}),
    ...(body.message ? { message: body.message } : {}),
    ...(body.author ? { author: body.author } : {}),
    ...(body.committer ? { committer: body.committer } : {}),
    dates: {
      ...(body.dates?.author ? { author: new Date(body.dates.author) } : {}),
      ...(body.dates?.committer ? { committer: new Date(body.dates.committer) } : {}),
    },
    signoff: body.signoff ?? false,
  };
}

const WRITE_ERRORS = [401, 403, 404, 409, 422, 423];

/** POST|PUT|DELETE /repos/{owner}/{repo}/contents[/{filepath}] (Gitea routers/api/v1/repo/file.go) and POST …/diffpatch (patch.go). */
export const contentsWriteRoutes = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/contents',
    operationId: 'repoChangeFiles',
    summary: 'Modify multiple files in a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: ChangeFilesOptions,
    success: { status: 201, schema: 'FilesResponse' },
    errors: WRITE_ERRORS,
    handler: async ({ cx, params, body }) =>
      toApiFilesResponse(
        await filesService.changeFiles(cx, repoRef(params), {
          ...common(body),
          files: body.files.map((f) => ({
            operation: f.operation,
            path: f.path,
            ...(f.content !== undefined ? { content: f.content } : {}),
            ...(f.from_path ? { fromPath: f.from_path } : {}),
            ...(f.sha ? { sha: f.sha } : {}),
          })),
        }),
        cx.config.rootUrl,
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/contents/{filepath}',
    operationId: 'repoCreateFile',
    summary: 'Create a file in a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    tailParam: 'filepath',
    body: CreateFileOptions,
    success: { status: 201, schema: 'FileResponse' },
    errors: WRITE_ERRORS,
    handler: async ({ cx, params, body }) =>
      toApiFileResponse(
        await filesService.changeFiles(cx, repoRef(params), {
          ...common(body),
          files: [{ operation: 'create', path: params.filepath ?? '', content: body.content }],
        }),
        cx.config.rootUrl,
      ),
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/contents/{filepath}',
    operationId: 'repoUpdateFile',
    summary: 'Update a file in a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    tailParam: 'filepath',
    body: UpdateFileOptions,
    success: { status: 200, schema: 'FileResponse' },
    errors: WRITE_ERRORS,
    handler: async ({ cx, params, body }) =>
      toApiFileResponse(
        await filesService.changeFiles(cx, repoRef(params), {
          ...common(body),
          files: [
            {
              operation: 'update',
              path: params.filepath ?? '',
              content: body.content,
              sha: body.sha,
              ...(body.from_path ? { fromPath: body.from_path } : {}),
            },
          ],
        }),
        cx.config.rootUrl,
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/contents/{filepath}',
    operationId: 'repoDeleteFile',
    summary: 'Delete a file in a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    tailParam: 'filepath',
    body: DeleteFileOptions,
    success: { status: 200, schema: 'FileResponse' },
    errors: [400, ...WRITE_ERRORS],
    handler: async ({ cx, params, body }) =>
      toApiFileResponse(
        await filesService.changeFiles(cx, repoRef(params), {
          ...common(body),
          files: [{ operation: 'delete', path: params.filepath ?? '', sha: body.sha }],
        }),
        cx.config.rootUrl,
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/diffpatch',
    operationId: 'repoApplyDiffPatch',
    summary: 'Apply diff patch to repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: ApplyDiffPatchFileOptions,
    // Gitea's handler answers 201 (its swagger says 200).
    success: { status: 201, schema: 'FileResponse' },
    errors: WRITE_ERRORS,
    handler: async ({ cx, params, body }) =>
      toApiFileResponse(
        await diffPatchService.applyDiffPatch(cx, repoRef(params), { ...common(body), content: body.content }),
        cx.config.rootUrl,
      ),
  }),
];
