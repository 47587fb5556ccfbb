// GitHub's release asset calls (`gh release create <files>`, `gh release upload [--clobber]`, `gh release
// download`): upload as a raw body to the release's upload_url, read one (JSON, or its bytes when asked for
// `application/octet-stream`), delete one; on the release asset service of /api/v1 (same gates and limits).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { Models } from '../db/client.ts';
import { attachmentContentType } from '../services/attachment/attachment.ts';
import * as assetService from '../services/release/asset.ts';
import { sendGithubError } from './errors.ts';
import { nodeId } from './nodeId.ts';
import { READ_REPO, WRITE_REPO } from './routeConfig.ts';

interface RepoParams {
  owner: string;
  repo: string;
}

/** GitHub's release asset object; its links are this server's. */
export function toGithubAsset(
  a: Models.Attachment,
  repo: Pick<Models.Repository, 'ownerName' | 'name'>,
  rootUrl: string,
): Record<string, unknown> {
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  return {
    id: a.id,
    node_id: nodeId('ReleaseAsset', a.id),
    name: a.name,
    label: '',
    size: Number(a.size),
    download_count: a.downloadCount,
    state: 'uploaded',
    content_type: attachmentContentType(a.name),
    created_at: a.createdAt.toISOString(),
    updated_at: a.createdAt.toISOString(),
    browser_download_url: `${rootUrl}attachments/${a.uuid}`,
    url: `${rootUrl}api/v3/repos/${path}/releases/assets/${a.id}`,
  };
}

const idOf = (s: string): number => (/^\d{1,10}$/.test(s) ? Number(s) : 0);

export function githubReleaseAssetRoutes(app: FastifyInstance): void {
  // The upload's body is the file, whatever its type (gh types it by the file's extension, JSON included).
  void app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    uploads.post<{ Params: RepoParams & { id: string }; Querystring: { name?: string; label?: string } }>(
      '/repos/:owner/:repo/releases/:id/assets',
      { config: { github: WRITE_REPO } },
      async (req, reply) => {
        const content = (req.body as Readable | undefined) ?? req.raw;
        const name = typeof req.query.name === 'string' ? req.query.name.trim() : '';
        // Attachments have no label: refused by name rather than dropped.
        const refusal = !name ? 'name is required' : req.query.label ? 'label is not supported: assets have only a name' : null;
        if (refusal) {
          content.resume();
          return sendGithubError(reply, 422, refusal);
        }
        const ref = { owner: req.params.owner, repo: req.params.repo };
        const asset = await assetService.createReleaseAsset(req.cx, ref, idOf(req.params.id), { name, content });
        return reply.code(201).send(toGithubAsset(asset, { ownerName: ref.owner, name: ref.repo }, req.cx.config.rootUrl));
      },
    );
  });

  app.get<{ Params: RepoParams & { id: string } }>(
    '/repos/:owner/:repo/releases/assets/:id',
    { config: { github: READ_REPO } },
    async (req, reply): Promise<FastifyReply | Record<string, unknown>> => {
      const ref = { owner: req.params.owner, repo: req.params.repo };
      if ((req.headers.accept ?? '').includes('application/octet-stream')) {
        const d = await assetService.openRepoReleaseAsset(req.cx, ref, idOf(req.params.id));
        return reply
          .header('Content-Type', 'application/octet-stream')
          .header('Content-Length', String(d.size))
          .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(d.attachment.name)}`)
          .send(d.stream);
      }
      const asset = await assetService.getRepoReleaseAsset(req.cx, ref, idOf(req.params.id));
      return toGithubAsset(asset, { ownerName: ref.owner, name: ref.repo }, req.cx.config.rootUrl);
    },
  );

  app.delete<{ Params: RepoParams & { id: string } }>(
    '/repos/:owner/:repo/releases/assets/:id',
    { config: { github: WRITE_REPO } },
    async (req, reply) => {
      await assetService.deleteRepoReleaseAsset(req.cx, { owner: req.params.owner, repo: req.params.repo }, idOf(req.params.id));
      return reply.code(204).send();
    },
  );
}
