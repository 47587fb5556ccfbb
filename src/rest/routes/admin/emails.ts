import { z } from 'zod';
import * as emailService from '../../../services/user/email.ts';
import { toApiEmailSearch } from '../../convert/user.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute, type ApiInput } from '../../route.ts';

async function listEmails({ cx, req, reply }: ApiInput<undefined, { q?: string | undefined }>, q: string | undefined) {
  const opts = listOptions(req.query as Record<string, unknown>);
  const page = await emailService.adminSearchEmails(cx, { ...opts, q });
  setPaginationHeaders(req, reply, cx.config.rootUrl, page.total, opts);
  return page.items.map(toApiEmailSearch);
}

const ListQuery = z.object({ q: z.string().optional() });

export const adminEmailRoutes = [
  defineRoute({
    method: 'GET',
    path: '/admin/emails',
    operationId: 'adminGetAllEmails',
    summary: 'List all emails',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: ListQuery,
    success: { status: 200, schema: '[Email]' },
    errors: [401, 403],
    handler: (input) => listEmails(input, undefined),
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/emails/search',
    operationId: 'adminSearchEmails',
    summary: 'Search all emails',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: ListQuery,
    success: { status: 200, schema: '[Email]' },
    errors: [401, 403],
    handler: (input) => listEmails(input, input.query.q),
  }),
];
