// GET /repos/{o}/{r}/licenses (Gitea routers/api/v1/repo/license.go GetLicenses).
import { getRepoLicenses } from '../../../services/repo/licenses.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

export const repoLicenseRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/licenses',
    operationId: 'repoGetLicenses',
    summary: 'Get repo licenses',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'LicensesList' },
    errors: [404],
    handler: async ({ cx, params }) => getRepoLicenses(cx, repoRef(params)),
  }),
];
