import * as assetService from '../../../services/release/asset.ts';
import { toApiAttachment } from '../../convert/attachment.ts';
import { convertOptions } from '../../convert/options.ts';
import { idParam, intParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { EditAttachmentOptions, UploadQuery } from '../../structs/release.ts';

/** /repos/{owner}/{repo}/releases/{id}/assets: list, upload (multipart or raw body), get, rename, delete. */
export const releaseAssetRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/releases/{id}/assets',
    operationId: 'repoListReleaseAttachments',
    summary: "List release's attachments",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[Attachment]' },
    errors: [404],
    handler: async ({ cx, params }) => {
      const assets = await assetService.listReleaseAssets(cx, repoRef(params), idParam(params));
      return assets.map((a) => toApiAttachment(a, convertOptions(cx)));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/releases/{id}/assets',
    operationId: 'repoCreateReleaseAttachment',
    summary: 'Create a release attachment',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    upload: true,
    query: UploadQuery,
    success: { status: 201, schema: 'Attachment' },
    errors: [400, 403, 404, 413, 423],
    handler: async ({ cx, params, query, upload }) => {
      const file = upload!;
      const asset = await assetService.createReleaseAsset(cx, repoRef(params), idParam(params), {
        name: query.name || file.filename,
        content: file.content,
      });
      return toApiAttachment(asset, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}',
    operationId: 'repoGetReleaseAttachment',
    summary: 'Get a release attachment',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'Attachment' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiAttachment(
        await assetService.getReleaseAsset(cx, repoRef(params), idParam(params), intParam(params.attachment_id)),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}',
    operationId: 'repoEditReleaseAttachment',
    summary: 'Edit a release attachment',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: EditAttachmentOptions,
    success: { status: 201, schema: 'Attachment' },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiAttachment(
        await assetService.editReleaseAsset(cx, repoRef(params), idParam(params), intParam(params.attachment_id), body.name ?? undefined),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}',
    operationId: 'repoDeleteReleaseAttachment',
    summary: 'Delete a release attachment',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [403, 404, 423],
    handler: async ({ cx, params }) => {
      await assetService.deleteReleaseAsset(cx, repoRef(params), idParam(params), intParam(params.attachment_id));
    },
  }),
];
