import type { Models } from '../db/client.ts';
import type { ResolvedRef } from '../git/resolveRef.ts';
import type { TreeEntry } from '../git/readTreePath.ts';
import { avatarUrl } from '../services/user/avatar.ts';
import { nodeId } from './nodeId.ts';

/** `/`-separated path with each segment escaped. */
const segments = (p: string): string => p.split('/').map(encodeURIComponent).join('/');

/** A file or directory entry at a ref, and a single file's bytes (null in listings and above the size limit). */
export interface ContentAt {
  repo: Pick<Models.Repository, 'ownerName' | 'name'>;
  ref: Pick<ResolvedRef, 'kind' | 'name'>;
  entry: TreeEntry;
  content: Buffer | null;
}

/** GitHub's type of a tree entry. */
function contentType(entry: TreeEntry): 'file' | 'dir' | 'symlink' | 'submodule' {
  if (entry.type === 'tree') return 'dir';
  if (entry.type === 'commit') return 'submodule';
  return entry.mode === '120000' ? 'symlink' : 'file';
}

/**
 * GitHub's content object (`GET /repos/{o}/{r}/readme`, `…/contents/{path}`): a file's base64 content when read
 * singly (a symlink's `target`), none in a directory listing; its links point at what this server serves (the
 * /api/v1 contents, blob and raw routes; `html_url` in Gitea's web form, as /api/v1's).
 */
export function toGithubContent(r: ContentAt, rootUrl: string): Record<string, unknown> {
  const repo = `${segments(r.repo.ownerName)}/${segments(r.repo.name)}`;
  const type = contentType(r.entry);
  const self = `${rootUrl}api/v1/repos/${repo}/contents/${segments(r.entry.path)}?ref=${encodeURIComponent(r.ref.name)}`;
  const git = `${rootUrl}api/v1/repos/${repo}/git/${type === 'dir' ? 'trees' : 'blobs'}/${r.entry.sha}`;
  const refPath = `${segments(r.ref.kind)}/${segments(r.ref.name)}/${segments(r.entry.path)}`;
  const html = `${rootUrl}${repo}/src/${refPath}`;
  const raw = `${rootUrl}api/v1/repos/${repo}/raw/${segments(r.entry.path)}?ref=${encodeURIComponent(r.ref.name)}`;
  const content =
    r.content === null
      ? {}
      : type === 'symlink'
        ? { target: r.content.toString('utf8') }
        : // GitHub wraps the base64 text at 60 characters; decoders ignore the newlines.
          { encoding: 'base64', content: (r.content.toString('base64').match(/.{1,60}/g) ?? []).join('\n') };
  return {
    type,
    size: r.entry.size,
    name: r.entry.name,
    path: r.entry.path,
    ...content,
    sha: r.entry.sha,
    url: self,
    git_url: git,
    html_url: html,
    download_url: type === 'file' || type === 'symlink' ? raw : null,
    _links: { self, git, html },
  };
}

/** GitHub's simple user object for an account (a repository's owner, a release's author). */
export function toGithubOwner(
  user: Pick<Models.User, 'id' | 'name' | 'type' | 'isAdmin' | 'email' | 'avatar'>,
  rootUrl: string,
): Record<string, unknown> {
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
