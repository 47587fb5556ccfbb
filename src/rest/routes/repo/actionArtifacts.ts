import { z } from 'zod';
import * as artifacts from '../../../services/actions/artifacts.ts';
import { toApiArtifact } from '../../convert/artifact.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { intParam, qString, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

const artifactId = { artifact_id: { schema: { type: 'string' as const }, description: 'id of the artifact' } };
const run = { run: { schema: { type: 'integer' as const, format: 'int64' }, description: 'runid of the workflow run' } };
const nameQuery = z.object({ name: qString('name of the artifact') });
const rawQuery = z.object({ sig: qString('signature of the URL'), expires: qString('expiry of the URL (unix seconds)') });

/** /repos/{owner}/{repo}/actions/artifacts… (Gitea routers/api/v1/repo/action.go, artifacts of the v4 protocol). */
export const repoActionArtifactRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/actions/artifacts',
    operationId: 'getArtifacts',
    summary: 'Lists all artifacts for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    query: nameQuery,
    schema: 'ActionArtifactsResponse',
    errors: [400, 404],
    load: ({ cx, params, query, page }) => artifacts.listArtifacts(cx, repoRef(params), { runId: null, name: query.name ?? '' }, page),
    convert: (r, { cx }) => ({ artifacts: r.items.map((a) => toApiArtifact(a, r.repo, convertOptions(cx))), total_count: r.total }),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/actions/runs/{run}/artifacts',
    operationId: 'getArtifactsOfRun',
    summary: 'Lists all artifacts for a repository run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    params: run,
    query: nameQuery,
    schema: 'ActionArtifactsResponse',
    errors: [400, 404],
    load: ({ cx, params, query, page }) =>
      artifacts.listArtifacts(cx, repoRef(params), { runId: intParam(params.run), name: query.name ?? '' }, page),
    convert: (r, { cx }) => ({ artifacts: r.items.map((a) => toApiArtifact(a, r.repo, convertOptions(cx))), total_count: r.total }),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}',
    operationId: 'getArtifact',
    summary: 'Gets a specific artifact for a workflow run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: artifactId,
    success: { status: 200, schema: 'ActionArtifact' },
    errors: [400, 404],
    handler: async ({ cx, params }) => {
      const { art, repo } = await artifacts.getArtifact(cx, repoRef(params), intParam(params.artifact_id));
      return toApiArtifact(art, repo, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}',
    operationId: 'deleteArtifact',
    summary: 'Deletes a specific artifact for a workflow run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: artifactId,
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await artifacts.deleteArtifact(cx, repoRef(params), intParam(params.artifact_id));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip',
    operationId: 'downloadArtifact',
    summary: 'Downloads a specific artifact for a workflow run redirects to blob url',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: artifactId,
    success: { status: 302, description: 'redirect to the blob download' },
    errors: [400, 404],
    handler: async ({ cx, params, reply }) =>
      reply.redirect(await artifacts.artifactDownloadUrl(cx, repoRef(params), intParam(params.artifact_id)), 302),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip/raw',
    operationId: 'downloadArtifactRaw',
    summary: 'Downloads the zip of an artifact through the signed URL the zip route redirects to',
    tag: 'repository',
    scopes: null,
    gate: 'none',
    params: artifactId,
    query: rawQuery,
    success: { status: 200, contentType: 'application/zip', description: 'the artifact zip' },
    errors: [401, 404],
    handler: async ({ cx, params, query, reply }) => {
      const file = await artifacts.downloadArtifactRaw(cx, repoRef(params), intParam(params.artifact_id), {
        sig: query.sig ?? '',
        expires: query.expires ?? '',
      });
      const name = `${file.name}.zip`;
      return reply
        .code(200)
        .type('application/zip')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename=${encodeURIComponent(name)}; filename*=UTF-8''${encodeURIComponent(name)}`)
        .send(file.stream);
    },
  }),
];
