// POST /repos/{o}/{r}/diffpatch (Gitea services/repository/files/patch.go ApplyDiffPatch): a unified diff applied
// to a branch as one commit, through the contents API's gate, branch checks and branch move.
import { applyPatch } from '../../git/applyPatch.ts';
import { commitTree } from '../../git/commitTree.ts';
import { identityEnv } from '../../git/identity.ts';
import { ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { requireFilesWritable } from '../protection/branchGate.ts';
import { commitMessage, identities, moveWrittenBranch, openFileWrite, type ChangeFilesInput, type ChangeFilesResult } from './files.ts';

/** Gitea ApplyDiffPatchOptions. */
export interface ApplyDiffPatchInput extends Omit<ChangeFilesInput, 'files' | 'expectedHeadOid'> {
  /** The unified diff (`git diff` / `git format-patch` output). */
  content: string;
}

/**
 * Applies `content` on `branch` (the default branch when empty) as one commit with Gitea's default message
 * `apply-patch`, on `newBranch` or on `branch` itself, recorded as a push by the viewer. The branch gate sees
 * the paths the patch changes (protected file patterns). The answer has no file content (Gitea's is empty too).
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError (empty or failing patch), ConflictError
 */
export async function applyDiffPatch(cx: ServiceContext, ref: RepoRef, input: ApplyDiffPatchInput): Promise<ChangeFilesResult> {
  const doer = requireViewer(cx);
  const w = await openFileWrite(cx, ref, input, () => {
    if (!input.content.trim()) throw new ValidationError('content: the patch is empty', { field: 'content' });
    return [];
  });
  const { tree, paths } = await applyPatch(w.gitDir, w.parent, input.content);
  if (!paths.length) throw new ValidationError('patch does not change anything', { field: 'content' });
  await requireFilesWritable(cx, w.access, w.newBranch, paths);
  const { author, committer } = identities(cx, doer, input, new Date());
  const message = commitMessage(`${input.message || 'apply-patch'}\n`, input.signoff, committer);
  const env = { ...identityEnv('AUTHOR', author), ...identityEnv('COMMITTER', committer) };
  const sha = await commitTree(w.gitDir, tree, w.parent ? [w.parent] : [], message, env);
  const moved = await moveWrittenBranch(cx, w, sha, paths);
  return { ...moved, files: [] };
}
