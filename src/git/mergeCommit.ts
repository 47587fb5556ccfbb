import { assertRevision } from './revision.ts';
import { runGitOrNotFound } from './run.ts';

/**
 * The commit of `base` that merged `head` into it (Gitea getMergeCommit), for a head already known to be an
 * ancestor of base: the oldest merge commit on the ancestry path `head..base` (`git rev-list --ancestry-path
 * --merges --reverse`), or `head` itself when there is none (the branch was fast-forwarded).
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function findMergeCommit(gitDir: string, head: string, base: string): Promise<string> {
  assertRevision(head);
  assertRevision(base);
  const out = await runGitOrNotFound(
    gitDir,
    ['rev-list', '--ancestry-path', '--merges', '--reverse', '--end-of-options', `${head}..${base}`, '--'],
    `commit does not exist [${head}, ${base}]`,
  );
  const first = out.toString('utf8').split('\n')[0]?.trim() ?? '';
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(first) ? first : head;
}
