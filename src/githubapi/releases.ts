// GitHub's release calls (`gh release create`, `gh release view`): POST /repos/{o}/{r}/releases and
// GET …/releases/tags/{tag}, on the release service of /api/v1 (same gate: code writers; token scope write:repository).
import type { FastifyInstance } from 'fastify';
import * as releaseService from '../services/release/release.ts';
import * as releaseWrites from '../services/release/releaseWrite.ts';
import { toGithubOwner } from './convert.ts';
import { nodeId } from './nodeId.ts';
import { toGithubAsset } from './releaseAssets.ts';
import { READ_REPO, WRITE_REPO } from './routeConfig.ts';

interface RepoParams {
  owner: string;
  repo: string;
}
interface ReleaseBody {
  tag_name?: unknown;
  target_commitish?: unknown;
  name?: unknown;
  body?: unknown;
  draft?: unknown;
  prerelease?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const flag = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** The fields of GitHub's release body that Gitea's release has. */
function releaseInput(body: ReleaseBody): releaseWrites.UpdateReleaseInput {
  return {
    ...(text(body.tag_name) !== undefined ? { tagName: text(body.tag_name) } : {}),
    ...(text(body.target_commitish) ? { target: text(body.target_commitish) } : {}),
    ...(text(body.name) !== undefined ? { name: text(body.name) } : {}),
    ...(text(body.body) !== undefined ? { body: text(body.body) } : {}),
    ...(flag(body.draft) !== undefined ? { draft: flag(body.draft) } : {}),
    ...(flag(body.prerelease) !== undefined ? { prerelease: flag(body.prerelease) } : {}),
  };
}

/** GitHub's release object, its links this server's (/api/v3 for the API, the web form for html_url and downloads). */
function toGithubRelease(view: releaseService.ReleaseView, rootUrl: string): Record<string, unknown> {
  const { release: r, repo } = view;
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  const api = `${rootUrl}api/v3/repos/${path}/releases/${r.id}`;
  return {
    url: api,
    html_url: `${rootUrl}${path}/releases/tag/${encodeURIComponent(r.tagName)}`,
    assets_url: `${api}/assets`,
    upload_url: `${rootUrl}api/v3/repos/${path}/releases/${r.id}/assets{?name,label}`,
    tarball_url: `${rootUrl}${path}/archive/${encodeURIComponent(r.tagName)}.tar.gz`,
    zipball_url: `${rootUrl}${path}/archive/${encodeURIComponent(r.tagName)}.zip`,
    id: r.id,
    node_id: nodeId('Release', r.id),
    tag_name: r.tagName,
    target_commitish: r.target,
    name: r.title || null,
    body: r.note || null,
    draft: r.isDraft,
    prerelease: r.isPrerelease,
    created_at: r.createdAt.toISOString(),
    published_at: r.isDraft ? null : r.createdAt.toISOString(),
    author: view.publisher ? toGithubOwner(view.publisher, rootUrl) : null,
    assets: view.attachments.map((a) => toGithubAsset(a, repo, rootUrl)),
  };
}

export function githubReleaseRoutes(app: FastifyInstance): void {
  app.post<{ Params: RepoParams; Body: ReleaseBody }>(
    '/repos/:owner/:repo/releases',
    { config: { github: WRITE_REPO } },
    async (req, reply) => {
      const input = releaseInput(req.body ?? {});
      const view = await releaseWrites.createRelease(
        req.cx,
        { owner: req.params.owner, repo: req.params.repo },
        { ...input, tagName: input.tagName ?? '' },
      );
      return reply.code(201).send(toGithubRelease(view, req.cx.config.rootUrl));
    },
  );

  // `gh release create <files>` makes a draft, uploads, then publishes it with this.
  app.patch<{ Params: RepoParams & { id: string }; Body: ReleaseBody }>(
    '/repos/:owner/:repo/releases/:id',
    { config: { github: WRITE_REPO } },
    async (req) => {
      const id = /^\d{1,10}$/.test(req.params.id) ? Number(req.params.id) : 0;
      const view = await releaseWrites.updateRelease(
        req.cx,
        { owner: req.params.owner, repo: req.params.repo },
        id,
        releaseInput(req.body ?? {}),
      );
      return toGithubRelease(view, req.cx.config.rootUrl);
    },
  );

  app.get<{ Params: RepoParams & { tag: string } }>(
    '/repos/:owner/:repo/releases/tags/:tag',
    { config: { github: READ_REPO } },
    async (req) =>
      toGithubRelease(
        await releaseService.getReleaseByTag(req.cx, { owner: req.params.owner, repo: req.params.repo }, req.params.tag),
        req.cx.config.rootUrl,
      ),
  );
}
