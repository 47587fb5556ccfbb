import type { Models } from '../../db/client.ts';
import { ValidationError } from '../../errors.ts';
import { diffStream } from '../../git/patch.ts';
import { cutDiffAroundLine, fileDiffsOf, lineAtDiffPosition } from './codeCommentPatch.ts';

// Where the line comments of a new review go in the pull request's diff.

/** A line comment of a new review (Gitea CreatePullReviewComment). */
export interface ReviewCommentInput {
  path?: string;
  body?: string;
  /** > 0: a comment on the old side of the diff, at that line. */
  oldPosition?: number;
  /** A comment on the new side, at that line (0: on the file). */
  newPosition?: number;
  /** GitHub's diff position (lines below the file's first hunk header), instead of a side and line. */
  diffPosition?: number;
}

/** The pull request's diff (merge base to `commitId`) per file; empty when it cannot be read (no merge base). */
export async function reviewedFileDiffs(gitDir: string, pull: Models.PullRequest, commitId: string): Promise<Map<string, string>> {
  try {
    return await fileDiffsOf(await diffStream(gitDir, pull.mergeBase || `refs/heads/${pull.baseBranch}`, commitId));
  } catch {
    // No merge base or a vanished commit: the comments are kept without hunks.
    return new Map();
  }
}

/**
 * The comments with GitHub's diff positions turned into file lines of the reviewed diff.
 * @throws ValidationError naming the position when it is no commentable line of the file's diff
 */
export function placedByDiffPosition(comments: readonly ReviewCommentInput[], files: Map<string, string>): ReviewCommentInput[] {
  return comments.map((c) => {
    if (c.diffPosition === undefined) return c;
    const file = files.get(c.path ?? '');
    const at = file ? lineAtDiffPosition(file, c.diffPosition) : null;
    if (!at)
      throw new ValidationError(`position ${c.diffPosition} is not a line in the diff of ${c.path ?? ''}`, {
        field: 'position',
      });
    return { path: c.path, body: c.body, ...(at.old ? { oldPosition: at.line } : { newPosition: at.line }) };
  });
}

/** The diff hunks the new code comments point at (Gitea stores them in `patch`); '' where none can be found. */
export function commentPatches(files: Map<string, string>, comments: readonly ReviewCommentInput[]): string[] {
  return comments.map((c) => {
    const old = (c.oldPosition ?? 0) > 0;
    const file = files.get(c.path ?? '');
    return file ? cutDiffAroundLine(file, old ? (c.oldPosition ?? 0) : (c.newPosition ?? 0), old) : '';
  });
}
