import type { Readable } from 'node:stream';
import { mergeBase } from './compare.ts';
import { readCommit } from './readCommit.ts';
import { streamGit } from './streamGit.ts';

/**
 * The pull request diff as Gitea serves `.diff`: `git diff -M <merge base> <head>` (the three-dot diff; from
 * `base` itself when the histories are unrelated). The revisions are checked before the stream starts, so a
 * caller can still answer 404.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function diffStream(gitDir: string, base: string, head: string): Promise<Readable> {
  const from = (await mergeBase(gitDir, base, head)) ?? base;
  return streamGit(gitDir, ['diff', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--end-of-options', from, head, '--']);
}

/**
 * The pull request as a mailbox of patches, as Gitea serves `.patch`: `git format-patch --no-signature --stdout`
 * of the commits from the merge base to `head`, oldest first. Checked before the stream starts, as diffStream.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function patchStream(gitDir: string, base: string, head: string): Promise<Readable> {
  const from = (await mergeBase(gitDir, base, head)) ?? base;
  return streamGit(gitDir, ['format-patch', '--no-signature', '--stdout', '--no-color', '--end-of-options', `${from}..${head}`, '--']);
}

/**
 * One commit as Gitea serves `git/commits/{sha}.diff|.patch`: the diff against its first parent (`git show` of
 * a root commit), or the commit as a mailbox patch. The commit is checked before the stream starts.
 * @throws NotFoundError when `sha` does not name a commit
 */
export async function commitPatchStream(gitDir: string, sha: string, kind: 'diff' | 'patch'): Promise<Readable> {
  const commit = await readCommit(gitDir, sha);
  const parent = commit.parents[0];
  if (kind === 'patch') {
    return streamGit(gitDir, [
      'format-patch',
      '--no-signature',
      '--stdout',
      '--no-color',
      ...(parent ? [] : ['--root']),
      '-1',
      commit.sha,
      '--',
    ]);
  }
  return parent
    ? streamGit(gitDir, ['diff', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--end-of-options', parent, commit.sha, '--'])
    : streamGit(gitDir, ['show', '--format=', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--end-of-options', commit.sha, '--']);
}
