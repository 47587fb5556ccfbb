import * as attachmentService from '../../../services/attachment/attachment.ts';
import { toApiAttachment } from '../../convert/attachment.ts';
import { convertOptions } from '../../convert/options.ts';
import { idParam, indexParam, intParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { EditAttachmentOptions, UploadQuery } from '../../structs/release.ts';

const attachmentId = (params: Record<string, string>) => intParam(params.attachment_id);

/** /repos/{o}/{r}/issues/{index}/assets and /issues/comments/{id}/assets (Gitea issue_attachment.go, issue_comment_attachment.go). */
export const issueAttachmentRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/assets',
    operationId: 'issueListIssueAttachments',
    summary: "List issue's attachments",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: '[Attachment]' },
    errors: [404],
    handler: async ({ cx, params }) =>
      (await attachmentService.listIssueAttachments(cx, repoRef(params), indexParam(params))).map((a) =>
        toApiAttachment(a, convertOptions(cx)),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/assets',
    operationId: 'issueCreateIssueAttachment',
    summary: 'Create an issue attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    upload: true,
    query: UploadQuery,
    success: { status: 201, schema: 'Attachment' },
    errors: [400, 403, 404, 413, 422, 423],
    handler: async ({ cx, params, query, upload }) => {
      const file = upload!;
      const a = await attachmentService.createIssueAttachment(cx, repoRef(params), indexParam(params), {
        name: query.name || file.filename,
        content: file.content,
      });
      return toApiAttachment(a, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}',
    operationId: 'issueGetIssueAttachment',
    summary: 'Get an issue attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: 'Attachment' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiAttachment(
        await attachmentService.getIssueAttachment(cx, repoRef(params), indexParam(params), attachmentId(params)),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}',
    operationId: 'issueEditIssueAttachment',
    summary: 'Edit an issue attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    body: EditAttachmentOptions,
    success: { status: 201, schema: 'Attachment' },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiAttachment(
        await attachmentService.editIssueAttachment(cx, repoRef(params), indexParam(params), attachmentId(params), body.name ?? undefined),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}',
    operationId: 'issueDeleteIssueAttachment',
    summary: 'Delete an issue attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    success: { status: 204 },
    errors: [403, 404, 423],
    handler: async ({ cx, params }) => {
      await attachmentService.deleteIssueAttachment(cx, repoRef(params), indexParam(params), attachmentId(params));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/assets',
    operationId: 'issueListIssueCommentAttachments',
    summary: "List comment's attachments",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: '[Attachment]' },
    errors: [404],
    handler: async ({ cx, params }) =>
      (await attachmentService.listCommentAttachments(cx, repoRef(params), idParam(params))).map((a) =>
        toApiAttachment(a, convertOptions(cx)),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/assets',
    operationId: 'issueCreateIssueCommentAttachment',
    summary: 'Create a comment attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    upload: true,
    query: UploadQuery,
    success: { status: 201, schema: 'Attachment' },
    errors: [400, 403, 404, 413, 422, 423],
    handler: async ({ cx, params, query, upload }) => {
      const file = upload!;
      const a = await attachmentService.createCommentAttachment(cx, repoRef(params), idParam(params), {
        name: query.name || file.filename,
        content: file.content,
      });
      return toApiAttachment(a, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}',
    operationId: 'issueGetIssueCommentAttachment',
    summary: 'Get a comment attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: 'Attachment' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiAttachment(
        await attachmentService.getCommentAttachment(cx, repoRef(params), idParam(params), attachmentId(params)),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}',
    operationId: 'issueEditIssueCommentAttachment',
    summary: 'Edit a comment attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    body: EditAttachmentOptions,
    success: { status: 201, schema: 'Attachment' },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiAttachment(
        await attachmentService.editCommentAttachment(cx, repoRef(params), idParam(params), attachmentId(params), body.name ?? undefined),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}',
    operationId: 'issueDeleteIssueCommentAttachment',
    summary: 'Delete a comment attachment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    success: { status: 204 },
    errors: [403, 404, 423],
    handler: async ({ cx, params }) => {
      await attachmentService.deleteCommentAttachment(cx, repoRef(params), idParam(params), attachmentId(params));
    },
  }),
];
