// File writes through the API (Gitea services/repository/files ChangeRepoFiles): one commit, no work tree.
import { NotFoundError, ValidationError, ConflictError, PermissionDeniedError } from '../../errors.ts';
import { commitFiles, type FileChange } from '../../git/commitFiles.ts';
import type { CommitInfo } from '../../git/commitInfo.ts';
import { lookupPaths, type PathEntry } from '../../git/lookupPaths.ts';
import { readCommit } from '../../git/readCommit.ts';
import { readRef } from '../../git/readRefs.ts';
import { readObject } from '../../git/readObject.ts';
import type { TreeEntry } from '../../git/readTreePath.ts';
import type { ResolvedRef } from '../../git/resolveRef.ts';
import { isSafeRefName } from '../../git/resolveRef.ts';
import type { GitIdentity } from '../../git/identity.ts';
import { requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { requireFilesWritable } from '../protection/branchGate.ts';
import type { ServiceContext } from '../context.ts';
import { gitSignature } from '../user/gitIdentity.ts';
import { MAX_BLOB_SIZE, type ContentEntry } from './gitRead.ts';
import { moveRefs } from './moveRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import type { Models } from '../../db/client.ts';

/** Gitea ChangeFileOperation.operation. */
export type FileOperationKind = 'create' | 'update' | 'upload' | 'rename' | 'delete';

/** One file of a change, as the API gives it. */
export interface FileOperation {
  operation: FileOperationKind;
  path: string;
  fromPath?: string;
  /** New content, base64 (create, update, upload; optional for rename). */
  content?: string;
  /** The blob sha the client last saw (update, delete). */
  sha?: string;
}

/** A name and e-mail given for the author or committer. */
export interface IdentityOption {
  name?: string;
  email?: string;
}

/** Gitea ChangeRepoFilesOptions. */
export interface ChangeFilesInput {
  branch?: string;
  newBranch?: string;
  message?: string;
  author?: IdentityOption;
  committer?: IdentityOption;
  dates?: { author?: Date; committer?: Date };
  signoff?: boolean;
  /** Gitea's LastCommitID, GitHub's expectedHeadOid: the branch head the change was made on; blob shas are then optional. */
  expectedHeadOid?: string;
  files: FileOperation[];
}

/** The commit written and the files as they are in it (null for a deleted file). */
export interface ChangeFilesResult {
  repo: Models.Repository;
  ref: ResolvedRef;
  commit: CommitInfo & { tree: string; parents: string[] };
  files: Array<ContentEntry | null>;
}

/** A file of the parent commit: mode and blob id. */
interface TreeFile {
  mode: string;
  sha: string;
}

/** A file operation with its path cleaned and its content decoded. */
type PlannedOperation = Omit<FileOperation, 'content'> & { content?: Buffer };

/** Decodes base64 as Go's StdEncoding (line breaks ignored, padding required). @throws ValidationError */
function decodeBase64(text: string): Buffer {
  const clean = text.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    throw new ValidationError('illegal base64 data at input byte 0', { input: 'content' });
  }
  return Buffer.from(clean, 'base64');
}

/** Gitea CleanGitTreePath plus its checks: no empty path, no `.git` component. @throws ValidationError */
export function cleanTreePath(raw: string): string {
  const parts: string[] = [];
  for (const seg of raw.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  const clean = parts.join('/');
  if (!clean || parts.some((p) => p.toLowerCase() === '.git') || clean.includes('\0')) {
    throw new ValidationError(`path contains a malformed path component [path: ${raw}]`, { path: raw });
  }
  return clean;
}

/** Gitea's default message: "Add 'a'", "Update 'b'", "Delete 'c'" lines, in that order. */
export function defaultMessage(files: readonly Pick<FileOperation, 'operation' | 'path'>[]): string {
  const of = (kinds: FileOperationKind[]) => files.filter((f) => kinds.includes(f.operation)).map((f) => f.path);
  const lines: string[] = [];
  const created = of(['create']);
  const updated = of(['update', 'upload', 'rename']);
  const deleted = of(['delete']);
  if (created.length) lines.push(`Add '${created.join(', ')}'`);
  if (updated.length) lines.push(`Update '${updated.join(', ')}'`);
  if (deleted.length) lines.push(`Delete '${deleted.join(', ')}'`);
  return lines.join('\n');
}

/** Gitea GetAuthorAndCommitterUsers: one given identity serves for both; neither means the doer. */
export function identities(
  cx: ServiceContext,
  doer: Models.User,
  input: Pick<ChangeFilesInput, 'author' | 'committer' | 'dates'>,
  now: Date,
): { author: GitIdentity; committer: GitIdentity } {
  const doerSig = gitSignature(cx, doer, now);
  const pick = (o: IdentityOption | undefined): { name: string; email: string } | null => {
    if (!o?.email) return null;
    if (o.email.toLowerCase() === doer.email.toLowerCase()) return { name: o.name || doerSig.name, email: doerSig.email };
    return { name: o.name || o.email, email: o.email };
  };
  const committer = pick(input.committer);
  const author = pick(input.author) ?? committer ?? { name: doerSig.name, email: doerSig.email };
  const c = committer ?? author;
  return {
    author: { ...author, when: input.dates?.author ?? now, tz: '+0000' },
    committer: { ...c, when: input.dates?.committer ?? now, tz: '+0000' },
  };
}

/** A path and its parents must be free: no file where a directory goes, no directory where a file goes. */
function checkPathFree(files: ReadonlyMap<string, TreeFile>, dirs: ReadonlySet<string>, path: string): void {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const sub = parts.slice(0, i).join('/');
    const f = files.get(sub);
    if (f) {
      const what = f.mode === '120000' ? 'a symbolic link' : 'a file';
      throw new ValidationError(`${what} exists where you’re trying to create a subdirectory [path: ${sub}]`, { path: sub });
    }
  }
  if (dirs.has(path)) throw new ValidationError(`a directory exists where you’re trying to create a file [path: ${path}]`, { path });
}

function checkSha(op: PlannedOperation, entry: TreeFile, required: boolean): void {
  if (op.sha) {
    if (op.sha !== entry.sha) throw new ValidationError(`sha does not match [given: ${op.sha}, expected: ${entry.sha}]`, { path: op.path });
  } else if (required) {
    throw new ValidationError('a SHA or commit ID must be proved when updating a file', { path: op.path });
  }
}

/** The tree changes of the operations against the parent's files (Gitea's checks, in its order). @throws ValidationError, NotFoundError */
function planChanges(
  files: Map<string, TreeFile>,
  dirs: ReadonlySet<string>,
  ops: readonly PlannedOperation[],
  headKnown: boolean,
): FileChange[] {
  const changes: FileChange[] = [];
  for (const op of ops) {
    const existing = files.get(op.path);
    const from = op.fromPath && op.fromPath !== op.path ? op.fromPath : null;
    if (op.operation === 'delete') {
      if (!existing) throw new NotFoundError(`repository file does not exist [path: ${op.path}]`, { path: op.path });
      checkSha(op, existing, !headKnown);
      files.delete(op.path);
      changes.push({ path: op.path, remove: true });
      continue;
    }
    let mode = '100644';
    // No content is an empty file, except for a rename, which keeps the file's.
    const content = op.content ?? (op.operation === 'rename' ? undefined : Buffer.alloc(0));
    if (op.operation === 'create') {
      if (existing) throw new ValidationError(`repository file already exists [path: ${op.path}]`, { path: op.path });
    } else if (op.operation === 'update' || op.operation === 'rename') {
      const source = files.get(from ?? op.path);
      if (!source) throw new NotFoundError(`repository file does not exist [path: ${from ?? op.path}]`, { path: from ?? op.path });
      checkSha(op, source, op.operation === 'update' && !headKnown);
      if (source.mode === '100755' || source.mode === '120000') mode = source.mode;
      if (from && files.has(op.path)) throw new ValidationError(`repository file already exists [path: ${op.path}]`, { path: op.path });
      if (from) {
        files.delete(from);
        changes.push({ path: from, remove: true });
      }
      if (content === undefined && op.operation === 'rename') {
        changes.push({ path: op.path, mode: source.mode, blob: source.sha });
      }
    } else if (existing && (existing.mode === '100755' || existing.mode === '120000')) {
      mode = existing.mode;
    }
    checkPathFree(files, dirs, op.path);
    files.set(op.path, { mode, sha: '' });
    if (content !== undefined) changes.push({ path: op.path, content, mode });
  }
  return changes;
}

/** The branch a file write reads (`parent`, null in an empty repository) and the one it moves. */
export interface WriteBranches {
  access: RepoAccess;
  gitDir: string;
  oldBranch: string;
  newBranch: string;
  parent: string | null;
}

/**
 * The gate and branches of an API file write (Gitea's reqRepoWriter(Code), canWriteFiles and
 * reqRepoBranchWriter, in Gitea's order): code write on a repository that is not a mirror, a valid new branch
 * name, the branch gate with the paths known so far, the base branch present and the new one not yet.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError
 */
export async function openFileWrite(
  cx: ServiceContext,
  ref: RepoRef,
  input: Pick<ChangeFilesInput, 'branch' | 'newBranch'>,
  check: (gitDir: string) => readonly string[],
): Promise<WriteBranches> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitWrite(cx, access, 'CODE', 'write:repository');
  const repo = access.repo;
  // Gitea canWriteFiles: a mirror's files follow its source (CanEnableEditor is false).
  if (repo.isMirror) throw new PermissionDeniedError('user should have a permission to write to the target branch');
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const paths = check(gitDir);
  const oldBranch = input.branch || repo.defaultBranch;
  const newBranch = input.newBranch || oldBranch;
  if (!isSafeRefName(newBranch)) throw new ValidationError(`branch name is invalid [name: ${newBranch}]`, { name: newBranch });
  // Refused before any work (Gitea's reqRepoBranchWriter); moveRefs asks the same gate again as the branch moves.
  await requireFilesWritable(cx, access, newBranch, paths);
  const parent = await readRef(gitDir, `refs/heads/${oldBranch}`);
  if (!parent && !repo.isEmpty) throw new NotFoundError(`branch does not exist [name: ${oldBranch}]`, { branch: oldBranch });
  if (newBranch !== oldBranch && (await readRef(gitDir, `refs/heads/${newBranch}`))) {
    throw new ValidationError(`branch already exists [name: ${newBranch}]`, { name: newBranch });
  }
  return { access, gitDir, oldBranch, newBranch, parent };
}

/** The message (ending in a newline) with Gitea's Signed-off-by trailer when asked for. */
export function commitMessage(message: string, signoff: boolean | undefined, committer: GitIdentity): string {
  return signoff ? `${message}\nSigned-off-by: ${committer.name} <${committer.email}>` : message;
}

/**
 * Moves the new branch (created) or the base branch (compare-and-swap from `parent`) to `commit`, recorded as a
 * push by the viewer, and reads the commit back.
 * @throws ConflictError when the branch moved meanwhile; PermissionDeniedError from the branch gate
 */
export async function moveWrittenBranch(
  cx: ServiceContext,
  w: WriteBranches,
  commit: string,
  paths: readonly string[],
): Promise<Pick<ChangeFilesResult, 'repo' | 'ref' | 'commit'>> {
  const target = `refs/heads/${w.newBranch}`;
  const expected = w.newBranch === w.oldBranch ? w.parent : null;
  const zero = '0'.repeat(commit.length);
  const moved = await moveRefs(cx, w.access.repo, [{ ref: target, oldSha: expected ?? zero, newSha: commit }], {
    kind: 'files',
    paths: [...paths],
  });
  if (!moved.moved) throw new ConflictError(`branch ${w.newBranch} was changed by someone else meanwhile; retry`, { branch: w.newBranch });
  const written = await readCommit(w.gitDir, commit);
  const stored = (await cx.db.repository.findUnique({ where: { id: w.access.repo.id } })) ?? w.access.repo;
  return { repo: stored, ref: { kind: 'branch', name: w.newBranch, commit }, commit: written };
}

/**
 * Gitea ChangeRepoFiles: applies the operations on `branch` (the default branch when empty) as one commit,
 * stored on `newBranch` (created from `branch`) or on `branch` itself with a compare-and-swap, recorded as a
 * push by the viewer. Needs code write (and not archived).
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError, ConflictError
 */
export async function changeFiles(cx: ServiceContext, ref: RepoRef, input: ChangeFilesInput): Promise<ChangeFilesResult> {
  const doer = requireViewer(cx);
  let ops: PlannedOperation[] = [];
  const w = await openFileWrite(cx, ref, input, () => {
    if (!input.files.length) throw new ValidationError('files: no file to change', { field: 'files' });
    ops = input.files.map((f) => ({
      ...f,
      path: cleanTreePath(f.path),
      ...(f.fromPath ? { fromPath: cleanTreePath(f.fromPath) } : {}),
      content: f.content === undefined ? undefined : decodeBase64(f.content),
    }));
    return ops.flatMap((o) => [o.path, ...(o.fromPath ? [o.fromPath] : [])]);
  });
  const { gitDir, parent, oldBranch } = w;
  const paths = ops.flatMap((o) => [o.path, ...(o.fromPath ? [o.fromPath] : [])]);
  if (input.expectedHeadOid !== undefined && input.expectedHeadOid.toLowerCase() !== (parent ?? '')) {
    throw new ConflictError(`Expected branch to point to "${input.expectedHeadOid}" but it did not`, { branch: oldBranch, head: parent });
  }
  // Only the touched paths and their directories are read, not the whole tree.
  const found = parent ? await lookupPaths(gitDir, parent, paths) : new Map<string, PathEntry>();
  const files = new Map<string, TreeFile>();
  const dirs = new Set<string>();
  for (const [p, e] of found) {
    if (e.type === 'tree') dirs.add(p);
    else files.set(p, { mode: e.mode, sha: e.sha });
  }
  const changes = planChanges(files, dirs, ops, input.expectedHeadOid !== undefined);

  const now = new Date();
  const { author, committer } = identities(cx, doer, input, now);
  const message = commitMessage(`${input.message || defaultMessage(ops)}\n`, input.signoff, committer);
  const written = await commitFiles(gitDir, { parent, changes, message, author, committer });
  const { repo: stored, commit } = await moveWrittenBranch(cx, w, written.commit, paths);

  const lastCommit: CommitInfo = { sha: commit.sha, message: commit.message, author: commit.author, committer: commit.committer };
  const result: Array<ContentEntry | null> = [];
  for (const op of ops) {
    const change = changes.find((c) => c.path === op.path && !('remove' in c));
    const blob = written.blobs.get(op.path);
    if (op.operation === 'delete' || !change || 'remove' in change || !blob) {
      result.push(null);
      continue;
    }
    // The bytes are at hand, except for a rename that kept its content.
    const bytes = 'content' in change ? change.content : (await readObject(gitDir, blob)).content;
    const name = op.path.slice(op.path.lastIndexOf('/') + 1);
    const entry: TreeEntry = { mode: change.mode, type: 'blob', sha: blob, size: bytes.length, path: op.path, name };
    result.push({ entry, lastCommit, content: bytes.length <= MAX_BLOB_SIZE ? bytes : null });
  }
  return { repo: stored, ref: { kind: 'branch', name: w.newBranch, commit: written.commit }, commit, files: result };
}
