import { createReadStream } from 'node:fs';
import type { FastifyReply } from 'fastify';
import * as download from '../../../services/repo/download.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { RawQuery } from '../../structs/files.ts';
import { sendArchive, sendRawFile } from '../../rawReply.ts';

/** /repos/{owner}/{repo}/raw|media/{filepath} and /archive/{archive} (Gitea GetRawFile, GetRawFileOrLFS, GetArchive). */
export const downloadRoutes = [
  ...(['raw', 'media'] as const).map((kind) =>
    defineRoute({
      method: 'GET',
      path: `/repos/{owner}/{repo}/${kind}/{filepath}`,
      operationId: kind === 'raw' ? 'repoGetRawFile' : 'repoGetRawFileOrLFS',
      summary: kind === 'raw' ? 'Get a file from a repository' : "Get a file or it's LFS object from a repository",
      tag: 'repository',
      scopes: ['repository'],
      gate: 'none',
      tailParam: 'filepath',
      query: RawQuery,
      success: { status: 200, contentType: 'application/octet-stream', description: 'Returns raw file content.' },
      errors: [404],
      handler: async ({ cx, params, query, reply }) =>
        sendRawFile(reply, await download.getRawFile(cx, repoRef(params), { ref: query.ref ?? '', path: params.filepath ?? '' })),
    }),
  ),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/archive/{archive}',
    operationId: 'repoGetArchive',
    summary: 'Get an archive of a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'archive',
    success: { status: 200, contentType: 'application/octet-stream', description: 'success' },
    errors: [400, 404],
    handler: async ({ cx, params, reply }): Promise<FastifyReply> =>
      sendArchive(reply, await download.getArchive(cx, repoRef(params), params.archive ?? ''), createReadStream),
  }),
];
