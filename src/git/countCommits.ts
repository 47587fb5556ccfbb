// Counts the commits reachable from one commit (git rev-list --count).
import { assertSha } from './revision.ts';
import { runGit } from './run.ts';

/** How many commits `sha` has in its history, itself included (Gitea's CommitsCount). @throws InvalidArgumentError */
export async function countCommits(gitDir: string, sha: string): Promise<number> {
  assertSha(sha, 'commit');
  return Number((await runGit(gitDir, ['rev-list', '--count', sha, '--'])).toString('utf8').trim()) || 0;
}
