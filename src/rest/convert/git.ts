import type { Models } from '../../db/client.ts';
import type { CommitFileStatus } from '../../git/commitFileStatus.ts';
import type { CommitInfo, GitSignature } from '../../git/commitInfo.ts';
import type { Blob, BranchView, ContentEntry, Contents } from '../../services/repo/gitRead.ts';
import type { CommitVerification } from '../../services/gpg/verifyCommits.ts';
import type { Branch, ContentsResponse, GitBlobResponse, PayloadCommit } from '../structs/git.ts';
import { toApiVerification } from './verification.ts';

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** Go's url.PathEscape (one path segment). */
export function goPathEscape(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += byte < 0x80 && (UNRESERVED.test(c) || '$&+,:;=@'.includes(c)) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Gitea's util.PathEscapeSegments: each `/`-separated segment escaped. */
export function pathEscapeSegments(p: string): string {
  return p.split('/').map(goPathEscape).join('/');
}

/** Go's url.QueryEscape. */
export function goQueryEscape(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += c === ' ' ? '+' : byte < 0x80 && UNRESERVED.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const repoHtml = (repo: Models.Repository, rootUrl: string) => `${rootUrl}${repo.ownerName}/${repo.name}`;
const repoApi = (repo: Models.Repository, rootUrl: string) => `${rootUrl}api/v1/repos/${repo.ownerName}/${repo.name}`;

function payloadUser(sig: GitSignature, usernames: ReadonlyMap<string, string>): PayloadCommit['author'] {
  return { name: sig.name, email: sig.email, username: usernames.get(sig.email.toLowerCase()) ?? '' };
}

/**
 * Gitea ToPayloadCommit with the commit's signature verification (unsigned when not given). The changed paths
 * (`files`) are listed only where Gitea lists them (push payloads: ToAPIPayloadCommit); elsewhere they are null.
 */
export function toApiPayloadCommit(
  repo: Models.Repository,
  commit: CommitInfo & { files?: CommitFileStatus },
  usernames: ReadonlyMap<string, string>,
  rootUrl: string,
  verification: CommitVerification | null = null,
): PayloadCommit {
  return {
    id: commit.sha,
    message: commit.message,
    url: `${repoHtml(repo, rootUrl)}/commit/${commit.sha}`,
    author: payloadUser(commit.author, usernames),
    committer: payloadUser(commit.committer, usernames),
    verification: toApiVerification(verification),
    timestamp: commit.author.when,
    added: commit.files?.added ?? null,
    removed: commit.files?.removed ?? null,
    modified: commit.files?.modified ?? null,
  };
}

/** Gitea ToBranch: the head commit, the rule protecting the branch, and what the viewer may do. */
export function toApiBranch(repo: Models.Repository, b: BranchView, rootUrl: string): Branch {
  const rule = b.protection;
  return {
    name: b.name,
    commit: toApiPayloadCommit(repo, b.commit, b.usernames, rootUrl, b.verification),
    protected: rule !== null,
    required_approvals: rule?.row.requiredApprovals ?? 0,
    enable_status_check: rule?.row.enableStatusCheck ?? false,
    status_check_contexts: rule?.statusCheckContexts ?? [],
    user_can_push: b.userCanPush,
    user_can_merge: b.userCanMerge,
    effective_branch_protection_name: rule?.row.ruleName ?? '',
  };
}

function contentType(mode: string): ContentsResponse['type'] {
  if (mode === '040000') return 'dir';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return 'file';
}

/** Gitea GetContents for one entry; `single` = the entry itself was asked for (files carry content). */
export function toApiContentsEntry(c: Pick<Contents, 'repo' | 'ref'>, e: ContentEntry, single: boolean, rootUrl: string): ContentsResponse {
  const { repo, ref } = c;
  const type = contentType(e.entry.mode);
  const path = e.entry.path;
  const self = `${repoApi(repo, rootUrl)}/contents/${pathEscapeSegments(path)}?ref=${goQueryEscape(ref.name)}`;
  const refPath = `${goPathEscape(ref.kind)}/${pathEscapeSegments(ref.name)}/${pathEscapeSegments(path)}`;
  const html = type === 'submodule' ? null : `${repoHtml(repo, rootUrl)}/src/${refPath}`;
  const git = type === 'submodule' ? null : `${repoApi(repo, rootUrl)}/git/${type === 'dir' ? 'trees' : 'blobs'}/${e.entry.sha}`;
  const isFile = type === 'file';
  return {
    name: e.entry.name,
    path,
    sha: e.entry.sha,
    last_commit_sha: e.lastCommit?.sha ?? '',
    last_committer_date: e.lastCommit?.committer.when ?? '',
    last_author_date: e.lastCommit?.author.when ?? '',
    last_commit_message: e.lastCommit?.message ?? '',
    type,
    size: e.entry.size,
    encoding: single && isFile && e.content ? 'base64' : null,
    content: single && isFile && e.content ? e.content.toString('base64') : null,
    target: single && type === 'symlink' && e.content ? e.content.toString('utf8') : null,
    url: self,
    html_url: html,
    git_url: git,
    download_url: isFile || type === 'symlink' ? `${repoHtml(repo, rootUrl)}/raw/${refPath}` : null,
    submodule_git_url: null,
    _links: { self, git, html },
  };
}

/** A file (ContentsResponse) or a directory (array, without content). */
export function toApiContents(c: Contents, rootUrl: string): ContentsResponse | ContentsResponse[] {
  return Array.isArray(c.result)
    ? c.result.map((e) => toApiContentsEntry(c, e, false, rootUrl))
    : toApiContentsEntry(c, c.result, true, rootUrl);
}

/** Gitea GetBlobBySHA. */
export function toApiGitBlob(b: Blob, rootUrl: string): GitBlobResponse {
  return {
    content: b.content ? b.content.toString('base64') : null,
    encoding: b.content ? 'base64' : null,
    url: `${repoApi(b.repo, rootUrl)}/git/blobs/${b.sha}`,
    sha: b.sha,
    size: b.size,
  };
}
