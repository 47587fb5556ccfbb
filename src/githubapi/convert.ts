import type { Models } from '../db/client.ts';
import type { Readme } from '../services/repo/readme.ts';
import { avatarUrl } from '../services/user/avatar.ts';
import { nodeId } from './nodeId.ts';

/** `/`-separated path with each segment escaped. */
const segments = (p: string): string => p.split('/').map(encodeURIComponent).join('/');

/**
 * GitHub's content object for a README (`GET /repos/{o}/{r}/readme`): base64 content; its links point at what
 * this server serves (the /api/v1 contents, blob and raw routes; `html_url` in Gitea's web form, as /api/v1's).
 */
export function toGithubContent(r: Readme, rootUrl: string): Record<string, unknown> {
  const repo = `${segments(r.repo.ownerName)}/${segments(r.repo.name)}`;
  const self = `${rootUrl}api/v1/repos/${repo}/contents/${segments(r.entry.path)}?ref=${encodeURIComponent(r.ref.name)}`;
  const git = `${rootUrl}api/v1/repos/${repo}/git/blobs/${r.entry.sha}`;
  const refPath = `${segments(r.ref.kind)}/${segments(r.ref.name)}/${segments(r.entry.path)}`;
  const html = `${rootUrl}${repo}/src/${refPath}`;
  return {
    type: 'file',
    encoding: 'base64',
    size: r.entry.size,
    name: r.entry.name,
    path: r.entry.path,
    // GitHub wraps the base64 text at 60 characters; decoders ignore the newlines.
    content: (r.content.toString('base64').match(/.{1,60}/g) ?? []).join('\n'),
    sha: r.entry.sha,
    url: self,
    git_url: git,
    html_url: html,
    download_url: `${rootUrl}api/v1/repos/${repo}/raw/${segments(r.entry.path)}?ref=${encodeURIComponent(r.ref.name)}`,
    _links: { self, git, html },
  };
}

/** GitHub's simple user object for an account (a repository's owner, a release's author). */
export function toGithubOwner(user: Models.User, rootUrl: string): Record<string, unknown> {
  return {
    login: user.name,
    id: user.id,
    node_id: nodeId(user.type === 'ORGANIZATION' ? 'Organization' : 'User', user.id),
    avatar_url: avatarUrl(user, rootUrl),
    html_url: `${rootUrl}${encodeURIComponent(user.name)}`,
    type: user.type === 'ORGANIZATION' ? 'Organization' : 'User',
    site_admin: user.isAdmin,
  };
}
