// GET /repos/{o}/{r}/languages (Gitea routers/api/v1/repo/repo.go GetLanguages).
import { getLanguages } from '../../../services/repo/languages.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

export const languageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/languages',
    operationId: 'repoGetLanguages',
    summary: 'Get languages and number of bytes of code written',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'LanguageStatistics' },
    errors: [403, 404],
    handler: async ({ cx, params }) => {
      // Gitea encodes a Go map: keys in byte order.
      const sizes = await getLanguages(cx, repoRef(params));
      const sorted = [...sizes].sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0));
      return Object.fromEntries(sorted.map((s) => [s.language, s.size]));
    },
  }),
];
