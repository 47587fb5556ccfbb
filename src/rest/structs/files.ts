import { z } from 'zod';
import { qBool, qInt, qString } from '../params.ts';
import { zBool } from '../validation.ts';
import { ContentsResponse, PayloadCommitVerification } from './git.ts';
import { Commit, CommitMeta, CommitUser } from './pull.ts';

const zDateTime = z.iso.datetime({ offset: true });

/** Gitea `Identity`. */
export const Identity = z.object({ name: z.string().optional(), email: z.string().optional() });
/** Gitea `CommitDateOptions`. */
export const CommitDateOptions = z.object({ author: zDateTime.optional(), committer: zDateTime.optional() });

const fileOptions = {
  branch: z.string().optional(),
  new_branch: z.string().optional(),
  message: z.string().optional(),
  author: Identity.optional(),
  committer: Identity.optional(),
  dates: CommitDateOptions.optional(),
  signoff: zBool.optional(),
  force_push: zBool.optional(),
};

/** Gitea `CreateFileOptions`: `content` is base64. */
export const CreateFileOptions = z.object({ ...fileOptions, content: z.string() });
/** Gitea `UpdateFileOptions`: `sha` of the blob being replaced; `from_path` renames. */
export const UpdateFileOptions = z.object({ ...fileOptions, content: z.string(), sha: z.string(), from_path: z.string().optional() });
/** Gitea `DeleteFileOptions`. */
export const DeleteFileOptions = z.object({ ...fileOptions, sha: z.string() });
/** Gitea `ApplyDiffPatchFileOptions`: `content` is the unified diff itself (not base64). */
export const ApplyDiffPatchFileOptions = z.object({ ...fileOptions, content: z.string() });
/** Gitea `ChangeFileOperation`. */
export const ChangeFileOperation = z.object({
  operation: z.enum(['create', 'update', 'upload', 'rename', 'delete']),
  path: z.string().min(1),
  content: z.string().optional(),
  from_path: z.string().optional(),
  sha: z.string().optional(),
});
/** Gitea `ChangeFilesOptions`: several files in one commit. */
export const ChangeFilesOptions = z.object({ ...fileOptions, files: z.array(ChangeFileOperation).min(1) });

/** Gitea `FileCommitResponse`. */
export const FileCommitResponse = z.object({
  url: z.string(),
  sha: z.string(),
  created: z.string(),
  html_url: z.string(),
  author: CommitUser,
  committer: CommitUser,
  parents: z.array(CommitMeta),
  message: z.string(),
  tree: CommitMeta,
});
/** A FileCommitResponse on the wire. */
export type FileCommitResponse = z.infer<typeof FileCommitResponse>;

/** Gitea `FileResponse` (create and update); `content` is null after a delete (FileDeleteResponse). */
export const FileResponse = z.object({
  content: ContentsResponse.nullable(),
  commit: FileCommitResponse,
  verification: PayloadCommitVerification,
});
/** A FileResponse on the wire. */
export type FileResponse = z.infer<typeof FileResponse>;

/** Gitea `FilesResponse` (ChangeFiles): one entry per file, null for a deleted one. */
export const FilesResponse = z.object({
  files: z.array(ContentsResponse.nullable()),
  commit: FileCommitResponse,
  verification: PayloadCommitVerification,
});
/** A FilesResponse on the wire. */
export type FilesResponse = z.infer<typeof FilesResponse>;

/** Gitea `CreateBranchRepoOption`. */
export const CreateBranchRepoOption = z.object({
  new_branch_name: z.string().min(1).max(100),
  old_branch_name: z.string().optional(),
  old_ref_name: z.string().optional(),
});

/** Gitea `GitEntry`. */
export const GitEntry = z.object({
  path: z.string(),
  mode: z.string(),
  type: z.string(),
  size: z.number().int(),
  sha: z.string(),
  url: z.string(),
});
/** Gitea `GitTreeResponse`. */
export const GitTreeResponse = z.object({
  sha: z.string(),
  url: z.string(),
  tree: z.array(GitEntry),
  truncated: z.boolean(),
  page: z.number().int(),
  total_count: z.number().int(),
});
/** A GitTreeResponse on the wire. */
export type GitTreeResponse = z.infer<typeof GitTreeResponse>;

/** Gitea `GitObject`. */
export const GitObject = z.object({ type: z.string(), sha: z.string(), url: z.string() });
/** Gitea `Reference`. */
export const Reference = z.object({ ref: z.string(), url: z.string(), object: GitObject });
/** A Reference on the wire. */
export type Reference = z.infer<typeof Reference>;

/** Query of GET /git/trees/{sha}. */
export const TreeQuery = z.object({
  recursive: qBool('show all directories and files', false),
  page: qInt(
    "page number; the 'truncated' field in the response will be true if there are still more items after this page, false if the last page",
  ),
  per_page: qInt('number of items per page'),
});

/** `stat`, `verification`, `files` of the commit reads (all default true, as in Gitea). */
export const CommitDetailQuery = z.object({
  stat: qBool("include diff stats for every commit (disable for speedup, default 'true')", true),
  verification: qBool("include verification for every commit (disable for speedup, default 'true')", true),
  files: qBool("include a list of affected files for every commit (disable for speedup, default 'true')", true),
});

/** Query of GET /commits. */
export const CommitsQuery = CommitDetailQuery.extend({
  sha: qString("SHA or branch to start listing commits from (usually 'master')"),
  path: qString('filepath of a file/dir'),
  since: qString('Only commits after this date will be returned (ISO 8601 format)'),
  until: qString('Only commits before this date will be returned (ISO 8601 format)'),
  not: qString('commits that match the given specifier will not be listed.'),
});

/** `?ref=` of the raw file routes. */
export const RawQuery = z.object({
  ref: qString('The name of the commit/branch/tag. Default to the repository’s default branch'),
});

/** Gitea `Compare`. */
export const Compare = z.object({ total_commits: z.number().int(), commits: z.array(Commit) });

/** Gitea `RenameBranchRepoOption`. */
export const RenameBranchRepoOption = z.object({ name: z.string().min(1).max(100) });

/** Gitea `UpdateBranchRepoOption`: where the branch moves (a commit id or any ref), the tip expected now, and whether it may rewind. */
export const UpdateBranchRepoOption = z.object({
  new_commit_id: z.string().min(1),
  old_commit_id: z.string().nullish(),
  force: zBool.nullish(),
});

/** Gitea `Note`: a commit's note and the notes commit that last wrote it. */
export const Note = z.object({ message: z.string(), commit: Commit });

/** Query of GET /git/notes/{sha}. */
export const NoteQuery = CommitDetailQuery.omit({ stat: true });
