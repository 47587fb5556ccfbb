import * as emailService from '../../../services/user/email.ts';
import { toApiEmail } from '../../convert/user.ts';
import { defineRoute } from '../../route.ts';
import { CreateEmailOption, DeleteEmailOption } from '../../structs/user.ts';

export const emailRoutes = [
  defineRoute({
    method: 'GET',
    path: '/user/emails',
    operationId: 'userListEmails',
    summary: "List the authenticated user's email addresses",
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 200, schema: '[Email]' },
    errors: [401, 403],
    handler: async ({ cx }) => (await emailService.listEmails(cx)).map(toApiEmail),
  }),
  defineRoute({
    method: 'POST',
    path: '/user/emails',
    operationId: 'userAddEmail',
    summary: 'Add email addresses',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    body: CreateEmailOption,
    success: { status: 201, schema: '[Email]' },
    errors: [401, 403, 422],
    handler: async ({ cx, body }) => (await emailService.addEmails(cx, body.emails ?? [])).map(toApiEmail),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/user/emails',
    operationId: 'userDeleteEmail',
    summary: 'Delete email addresses',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    body: DeleteEmailOption,
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, body }) => {
      await emailService.deleteEmails(cx, body.emails ?? []);
    },
  }),
];
