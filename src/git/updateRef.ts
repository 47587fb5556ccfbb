import { ConflictError, NotFoundError } from '../errors.ts';
import { readRef } from './readRefs.ts';
import { hasCommit } from './resolveCommits.ts';
import { assertFullRef, assertSha } from './revision.ts';
import { GitCommandError, runGit, runGitOrNotFound } from './run.ts';

/** A compare-and-swap ref update: done, or lost to a concurrent update (the ref is at `current`, null when absent). */
export type RefUpdate = { status: 'updated' } | { status: 'stale'; current: string | null };

/**
 * Moves `ref` to `newSha` only if it still points at `expectedOldSha` (null: only if it does not exist), with
 * `git update-ref <ref> <new> <old>` under git's ref lock, so a push landing between computing a merge and
 * storing it is never overwritten. A lost race is a `stale` result carrying the ref's current value: retry
 * from there, or answer 409. Runs no hooks.
 * @throws InvalidArgumentError; NotFoundError when `newSha` is not in the repository; ConflictError when the
 * ref is as expected but cannot be locked (held by another writer for over a second)
 */
export async function updateRefCAS(gitDir: string, ref: string, newSha: string, expectedOldSha: string | null): Promise<RefUpdate> {
  assertFullRef(ref);
  assertSha(newSha, 'new value');
  if (expectedOldSha !== null) assertSha(expectedOldSha, 'expected value');
  try {
    await runGit(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', ref, newSha, expectedOldSha ?? '']);
    return { status: 'updated' };
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    const current = await readRef(gitDir, ref);
    if (current !== expectedOldSha) return { status: 'stale', current };
    if (!(await hasCommit(gitDir, newSha))) throw new NotFoundError(`commit does not exist [${newSha}]`, { sha: newSha });
    throw new ConflictError(`cannot update ${ref}`, { ref, stderr: err.stderr.trim() });
  }
}

/**
 * Points `ref` (a full name under refs/) at `sha`, creating or overwriting it (`git update-ref`).
 * @throws InvalidArgumentError; NotFoundError when `sha` is not in the repository
 */
export async function setRef(gitDir: string, ref: string, sha: string): Promise<void> {
  assertFullRef(ref);
  assertSha(sha, 'value');
  await runGitOrNotFound(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', ref, sha], `object does not exist [${sha}]`);
}

/** Deletes `ref` (a full name under refs/); deleting a missing ref is not an error. @throws InvalidArgumentError */
export async function deleteRef(gitDir: string, ref: string): Promise<void> {
  assertFullRef(ref);
  await runGit(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', '-d', ref]);
}

/**
 * Deletes `ref` only if it still points at `expectedOldSha` (`git update-ref -d <ref> <old>` under git's ref
 * lock): false when it moved or is gone, so commits pushed meanwhile are never lost.
 * @throws InvalidArgumentError
 */
export async function deleteRefCAS(gitDir: string, ref: string, expectedOldSha: string): Promise<boolean> {
  assertFullRef(ref);
  assertSha(expectedOldSha, 'expected value');
  try {
    await runGit(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', '-d', ref, expectedOldSha]);
    return true;
  } catch (err) {
    if (err instanceof GitCommandError) return false;
    throw err;
  }
}
