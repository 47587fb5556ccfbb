import { z } from 'zod';
import * as emailService from '../../../services/user/email.ts';
import { toApiEmailSearch } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { qString } from '../../params.ts';

const SearchQuery = z.object({ q: qString('keyword') });

/** GET /admin/emails and /admin/emails/search (Gitea routers/api/v1/admin/email.go). */
export const adminEmailRoutes = [
  defineList({
    path: '/admin/emails',
    operationId: 'adminGetAllEmails',
    summary: 'List all emails',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    headers: 'link',
    schema: '[Email]',
    errors: [401, 403],
    load: ({ cx, page }) => emailService.adminSearchEmails(cx, { ...page, q: undefined }),
    convert: (result) => result.items.map(toApiEmailSearch),
  }),
  defineList({
    path: '/admin/emails/search',
    operationId: 'adminSearchEmails',
    summary: 'Search all emails',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: SearchQuery,
    headers: 'link',
    schema: '[Email]',
    errors: [401, 403],
    load: ({ cx, query, page }) => emailService.adminSearchEmails(cx, { ...page, q: query.q }),
    convert: (result) => result.items.map(toApiEmailSearch),
  }),
];
