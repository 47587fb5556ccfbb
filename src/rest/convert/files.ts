import type { Models } from '../../db/client.ts';
import type { GitRef } from '../../git/listRefs.ts';
import type { ChangeFilesResult } from '../../services/repo/files.ts';
import type { TreePage } from '../../services/repo/gitTree.ts';
import type { FileCommitResponse, FileResponse, FilesResponse, GitTreeResponse, Reference } from '../structs/files.ts';
import { goPathEscape, pathEscapeSegments, toApiContentsEntry } from './git.ts';
import { GO_ZERO } from './time.ts';

const NOT_SIGNED = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };

const repoApi = (repo: Models.Repository, rootUrl: string) =>
  `${rootUrl}api/v1/repos/${goPathEscape(repo.ownerName)}/${goPathEscape(repo.name)}`;

/** A git time as Gitea's file commit shows it: UTC, RFC 3339. */
const utc = (when: string) => new Date(when).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Gitea GetFileCommitResponse. */
function toApiFileCommit(r: ChangeFilesResult, rootUrl: string): FileCommitResponse {
  const api = repoApi(r.repo, rootUrl);
  const c = r.commit;
  const created = utc(c.committer.when);
  return {
    url: `${api}/git/commits/${c.sha}`,
    sha: c.sha,
    created,
    html_url: `${rootUrl}${goPathEscape(r.repo.ownerName)}/${goPathEscape(r.repo.name)}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email, date: utc(c.author.when) },
    committer: { name: c.committer.name, email: c.committer.email, date: created },
    parents: c.parents.map((sha) => ({ url: `${api}/git/commits/${sha}`, sha, created: GO_ZERO })),
    message: c.message,
    tree: { url: `${api}/git/trees/${c.tree}`, sha: c.tree, created },
  };
}

/** Gitea FilesResponse (ChangeFiles). */
export function toApiFilesResponse(r: ChangeFilesResult, rootUrl: string): FilesResponse {
  return {
    files: r.files.map((f) => (f ? toApiContentsEntry(r, f, true, rootUrl) : null)),
    commit: toApiFileCommit(r, rootUrl),
    verification: { ...NOT_SIGNED },
  };
}

/** Gitea FileResponse (create, update, delete: GetFileResponseFromFilesResponse of the first file). */
export function toApiFileResponse(r: ChangeFilesResult, rootUrl: string): FileResponse {
  const first = r.files[0];
  return {
    content: first ? toApiContentsEntry(r, first, true, rootUrl) : null,
    commit: toApiFileCommit(r, rootUrl),
    verification: { ...NOT_SIGNED },
  };
}

/** Gitea GetTreeBySHA. */
export function toApiGitTree(t: TreePage, rootUrl: string): GitTreeResponse {
  const api = repoApi(t.repo, rootUrl);
  return {
    sha: t.sha,
    url: `${api}/git/trees/${t.sha}`,
    tree: t.entries.map((e) => ({
      path: e.path,
      mode: e.mode,
      type: e.type,
      size: e.size,
      sha: e.sha,
      url: `${api}/git/${e.type === 'tree' ? 'trees' : 'blobs'}/${e.sha}`,
    })),
    truncated: t.truncated,
    page: t.page,
    total_count: t.total,
  };
}

/** Gitea convert of a git ref (getGitRefs). */
export function toApiReference(repo: Models.Repository, r: GitRef, rootUrl: string): Reference {
  const api = repoApi(repo, rootUrl);
  return {
    ref: r.ref,
    url: `${api}/git/${pathEscapeSegments(r.ref)}`,
    object: { type: r.type, sha: r.sha, url: `${api}/git/${r.type}s/${r.sha}` },
  };
}
