import type { ReleaseView } from '../../services/release/release.ts';
import type { Release } from '../structs/release.ts';
import { toApiAttachment } from './attachment.ts';
import { apiTime } from './time.ts';
import { toApiGhostUser, toApiUser, type ConvertOptions } from './user.ts';
import { pathEscapeSegments } from './git.ts';

/**
 * Gitea convert.ToAPIRelease: `published_at` equals `created_at` (one stored time), the author in its public
 * view, `assets` always an array.
 */
export function toApiRelease(v: ReleaseView, opts: ConvertOptions): Release {
  const r = v.release;
  const repoApi = `${opts.rootUrl}api/v1/repos/${v.repo.ownerName}/${v.repo.name}`;
  const repoHtml = `${opts.rootUrl}${v.repo.ownerName}/${v.repo.name}`;
  const url = `${repoApi}/releases/${r.id}`;
  const tag = pathEscapeSegments(r.tagName);
  return {
    id: r.id,
    tag_name: r.tagName,
    target_commitish: r.target,
    name: r.title,
    body: r.note,
    url,
    html_url: `${repoHtml}/releases/tag/${tag}`,
    tarball_url: `${repoHtml}/archive/${tag}.tar.gz`,
    zipball_url: `${repoHtml}/archive/${tag}.zip`,
    upload_url: `${url}/assets`,
    draft: r.isDraft,
    prerelease: r.isPrerelease,
    created_at: apiTime(r.createdAt),
    published_at: apiTime(r.createdAt),
    author: v.publisher ? toApiUser(v.publisher, null, opts) : toApiGhostUser(opts),
    assets: v.attachments.map((a) => toApiAttachment(a, opts)),
  };
}

/** A list of releases. */
export function toApiReleaseList(views: readonly ReleaseView[], opts: ConvertOptions): Release[] {
  return views.map((v) => toApiRelease(v, opts));
}
