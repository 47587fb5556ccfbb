import { existsSync } from 'node:fs';
import path from 'node:path';
import { commitPairFact } from './commitPairFacts.ts';
import { mergeBase } from './compare.ts';
import { resolveCommits } from './resolveCommits.ts';
import { assertRevision, SHA } from './revision.ts';
import { GitCommandError, runGitResult } from './run.ts';

/** The outcome of a trial merge: its tree, or the conflicted paths. */
export type MergeCheck = { status: 'clean'; tree: string } | { status: 'conflict'; files: string[] } | { status: 'unrelated-histories' };

/** Why a merge did not happen. `commit` names the head commit whose replay conflicted (rebase styles). */
export type MergeRefusal =
  | { status: 'conflict'; files: string[]; commit: string | null }
  | { status: 'not-fast-forward' }
  | { status: 'already-merged' }
  | { status: 'unrelated-histories' };

/**
 * `git merge-tree --write-tree` of two commits (their merge base found by git); writes objects, no ref. A clean
 * result is reused (commitPairFacts.ts) while its tree is still a loose object of the repository, as merge-tree
 * wrote it.
 */
export function mergeTree(gitDir: string, ours: string, theirs: string): Promise<MergeCheck> {
  return commitPairFact(
    'merge-tree',
    gitDir,
    ours,
    theirs,
    () => writeMergeTree(gitDir, ours, theirs),
    (m) => m.status !== 'clean' || existsSync(path.join(gitDir, 'objects', m.tree.slice(0, 2), m.tree.slice(2))),
  );
}

async function writeMergeTree(gitDir: string, ours: string, theirs: string): Promise<MergeCheck> {
  const r = await runGitResult(gitDir, [
    'merge-tree',
    '--write-tree',
    '--name-only',
    '-z',
    '--no-messages',
    '--end-of-options',
    ours,
    theirs,
  ]);
  const [tree = '', ...rest] = r.stdout.toString('utf8').split('\0');
  // An unknown commit also exits 1, with nothing on stdout.
  if ((r.code === 0 || r.code === 1) && SHA.test(tree)) {
    if (r.code === 0) return { status: 'clean', tree };
    const end = rest.indexOf('');
    return { status: 'conflict', files: [...new Set(end < 0 ? rest : rest.slice(0, end))] };
  }
  await resolveCommits(gitDir, [ours, theirs]);
  if ((await mergeBase(gitDir, ours, theirs)) === null) return { status: 'unrelated-histories' };
  throw new GitCommandError(['merge-tree'], r.code, r.stderr);
}

/**
 * Whether `head` merges into `base` without conflicts, and if not which paths conflict: `git merge-tree
 * --write-tree` (git ≥ 2.38), in the bare repository, without a work tree or index. Handles criss-cross
 * histories. It writes the merged objects (loose, collected by gc) but touches no ref.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function checkMergeable(gitDir: string, base: string, head: string): Promise<MergeCheck> {
  assertRevision(base);
  assertRevision(head);
  return mergeTree(gitDir, base, head);
}
