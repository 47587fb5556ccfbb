import path from 'node:path';
import { NotFoundError } from '../errors.ts';
import { hasCommit } from './resolveCommits.ts';
import { assertFullRef, assertSha } from './revision.ts';
import { GitCommandError, runGit } from './run.ts';
import { setRef } from './updateRef.ts';

/**
 * Makes commit `sha` of `sourceGitDir` (a fork) available in `targetGitDir` under `ref` (e.g.
 * `refs/pull/{index}/head`): a local `git fetch` of that one commit, which packs only the objects the target
 * lacks (protocol v2 lets a fetch ask for any object id). When the target already has the commit (the same
 * repository, or fetched before) only the ref is written.
 * @throws InvalidArgumentError; NotFoundError when the source does not have the commit
 */
export async function fetchIntoRef(targetGitDir: string, sourceGitDir: string, sha: string, ref: string): Promise<void> {
  assertSha(sha, 'commit');
  assertFullRef(ref);
  if (await hasCommit(targetGitDir, sha)) return setRef(targetGitDir, ref, sha);
  const args = [
    '-c',
    'protocol.version=2',
    'fetch',
    '--quiet',
    '--no-tags',
    '--no-write-fetch-head',
    '--no-auto-gc',
    '--no-recurse-submodules',
    path.resolve(sourceGitDir),
    `+${sha}:${ref}`,
  ];
  try {
    await runGit(targetGitDir, args);
  } catch (err) {
    if (err instanceof GitCommandError && !(await hasCommit(sourceGitDir, sha)))
      throw new NotFoundError(`commit does not exist [${sha}]`, { sha });
    throw err;
  }
}
