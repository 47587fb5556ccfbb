import { z } from 'zod';
import * as unadopted from '../../../services/repo/unadopted.ts';
import { defineList } from '../../list.ts';
import { qString } from '../../params.ts';
import { defineRoute } from '../../route.ts';

const admin = { tag: 'admin', scopes: ['admin' as const], gate: 'admin' as const };
const params = {
  owner: { schema: { type: 'string' as const }, description: 'owner of the repo' },
  repo: { schema: { type: 'string' as const }, description: 'name of the repo' },
};

/** /admin/unadopted (Gitea routers/api/v1/admin/adopt.go). */
export const adminUnadoptedRoutes = [
  defineList({
    path: '/admin/unadopted',
    operationId: 'adminUnadoptedList',
    summary: 'List unadopted repositories',
    ...admin,
    // Gitea pages the directory listing in memory and sends X-Total-Count only.
    headers: 'count',
    query: z.object({
      query: qString('pattern of repositories to search for: owner-glob or owner-glob/repo-glob (what Gitea reads)'),
      pattern: qString('pattern of repositories to search for (the name in Gitea’s swagger; `query` wins)'),
    }),
    schema: 'StringSlice',
    errors: [400, 401, 403],
    load: ({ cx, query, page }) => unadopted.listUnadopted(cx, query.query ?? query.pattern ?? '', page),
    convert: (result) => result.items,
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/unadopted/{owner}/{repo}',
    operationId: 'adminAdoptRepository',
    summary: 'Adopt unadopted files as a repository',
    ...admin,
    params,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params: p }) => {
      await unadopted.adoptRepository(cx, p.owner ?? '', p.repo ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/unadopted/{owner}/{repo}',
    operationId: 'adminDeleteUnadoptedRepository',
    summary: 'Delete unadopted files',
    ...admin,
    params,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params: p }) => {
      await unadopted.deleteUnadopted(cx, p.owner ?? '', p.repo ?? '');
    },
  }),
];
