import fs from 'node:fs';
import { isomorphicGit } from '../lazyPackage.ts';
import { gitCache } from './cache.ts';
import type { CommitInfo } from './commitInfo.ts';
import { toDomainError } from './errors.ts';
import { formatGitTime } from './time.ts';

/** Reads one commit (annotated tags are peeled). @throws NotFoundError */
export async function readCommit(gitDir: string, sha: string): Promise<CommitInfo & { tree: string; parents: string[] }> {
  try {
    const { oid, commit } = await isomorphicGit().readCommit({ fs, gitdir: gitDir, oid: sha, cache: gitCache(gitDir) });
    const sig = (s: typeof commit.author) => ({ name: s.name, email: s.email, when: formatGitTime(s.timestamp, s.timezoneOffset) });
    return {
      sha: oid,
      message: commit.message,
      author: sig(commit.author),
      committer: sig(commit.committer),
      tree: commit.tree,
      parents: commit.parent,
    };
  } catch (err) {
    throw toDomainError(err, `object does not exist [id: ${sha}, rel_path: ]`);
  }
}
