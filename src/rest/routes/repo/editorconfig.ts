// GET /repos/{o}/{r}/editorconfig/{filepath} (Gitea routers/api/v1/repo/file.go GetEditorConfig).
import { getEditorConfig } from '../../../services/repo/editorconfig.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { ContentsQuery } from '../../structs/git.ts';

export const editorConfigRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/editorconfig/{filepath}',
    operationId: 'repoGetEditorConfig',
    summary: 'Get the EditorConfig definitions of a file in a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'filepath',
    query: ContentsQuery,
    success: { status: 200, schema: 'EditorConfigDefinition' },
    errors: [404],
    handler: async ({ cx, params, query }) => getEditorConfig(cx, repoRef(params), params.filepath ?? '', query.ref),
  }),
];
