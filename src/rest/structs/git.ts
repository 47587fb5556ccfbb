import { z } from 'zod';
import { qString } from '../params.ts';

/** Gitea `PayloadUser` (modules/structs/hook.go). */
export const PayloadUser = z.object({ name: z.string(), email: z.string(), username: z.string() });

/** Gitea `PayloadCommitVerification`. */
export const PayloadCommitVerification = z.object({
  verified: z.boolean(),
  reason: z.string(),
  signature: z.string(),
  signer: PayloadUser.nullable(),
  payload: z.string(),
});

/** Gitea `PayloadCommit`, as a branch's head commit. */
export const PayloadCommit = z.object({
  id: z.string(),
  message: z.string(),
  url: z.string(),
  author: PayloadUser,
  committer: PayloadUser,
  verification: PayloadCommitVerification.nullable(),
  timestamp: z.string(),
  added: z.array(z.string()).nullable(),
  removed: z.array(z.string()).nullable(),
  modified: z.array(z.string()).nullable(),
});
/** A PayloadCommit on the wire. */
export type PayloadCommit = z.infer<typeof PayloadCommit>;

/** Gitea `Branch` (modules/structs/repo_branch.go). */
export const Branch = z.object({
  name: z.string(),
  commit: PayloadCommit,
  protected: z.boolean(),
  required_approvals: z.number().int(),
  enable_status_check: z.boolean(),
  status_check_contexts: z.array(z.string()),
  user_can_push: z.boolean(),
  user_can_merge: z.boolean(),
  effective_branch_protection_name: z.string(),
});
/** A Branch on the wire. */
export type Branch = z.infer<typeof Branch>;

/** Gitea `FileLinksResponse`. */
export const FileLinksResponse = z.object({ self: z.string().nullable(), git: z.string().nullable(), html: z.string().nullable() });

/** Gitea `ContentsResponse` (modules/structs/repo_file.go): content/encoding only for a single file. */
export const ContentsResponse = z.object({
  name: z.string(),
  path: z.string(),
  sha: z.string(),
  last_commit_sha: z.string(),
  last_committer_date: z.string(),
  last_author_date: z.string(),
  last_commit_message: z.string(),
  type: z.enum(['file', 'dir', 'symlink', 'submodule']),
  size: z.number().int(),
  encoding: z.string().nullable(),
  content: z.string().nullable(),
  target: z.string().nullable(),
  url: z.string().nullable(),
  html_url: z.string().nullable(),
  git_url: z.string().nullable(),
  download_url: z.string().nullable(),
  submodule_git_url: z.string().nullable(),
  _links: FileLinksResponse,
});
/** A ContentsResponse on the wire. */
export type ContentsResponse = z.infer<typeof ContentsResponse>;

/** Gitea `GitBlobResponse`: content and encoding are null above the blob size limit. */
export const GitBlobResponse = z.object({
  content: z.string().nullable(),
  encoding: z.string().nullable(),
  url: z.string(),
  sha: z.string(),
  size: z.number().int(),
});
/** A GitBlobResponse on the wire. */
export type GitBlobResponse = z.infer<typeof GitBlobResponse>;

/** `?ref=` of the contents API. */
export const ContentsQuery = z.object({
  ref: qString('the name of the commit/branch/tag (default: the repository’s default branch)'),
});

/** Gitea `ContentsExtResponse`: exactly one of the two is set. */
export const ContentsExtResponse = z.object({
  dir_contents: z.array(ContentsResponse).optional(),
  file_contents: ContentsResponse.optional(),
});

/** Gitea `GetFilesOptions`: the paths to read. */
export const GetFilesOptions = z.object({ files: z.array(z.string()).nullish() });

/** GET …/file-contents: the POST body as JSON in `body`, and the ref. */
export const FileContentsQuery = z.object({
  ref: qString('the name of the commit/branch/tag (default: the repository’s default branch)'),
  body: qString('the JSON encoded body (see the POST request): {"files": ["filename1", "filename2"]}'),
});

/** GET …/contents-ext: the ref and what to include. */
export const ContentsExtQuery = z.object({
  ref: qString('the name of the commit/branch/tag (default: the repository’s default branch)'),
  includes: qString('comma-separated: file_content, lfs_metadata, commit_metadata, commit_message'),
});

/** editorconfig-core-go's Definition as Gitea encodes it: only these four properties, each omitted when unset. */
export const EditorConfigDefinition = z.object({
  charset: z.string().optional(),
  indent_style: z.string().optional(),
  indent_size: z.string().optional(),
  end_of_line: z.string().optional(),
});
