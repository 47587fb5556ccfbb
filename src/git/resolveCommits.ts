import { NotFoundError } from '../errors.ts';
import { runGitOrNotFound, runGitResult } from './run.ts';

/** Resolves revisions to full commit ids in one `cat-file --batch-check`. @throws NotFoundError */
export async function resolveCommits(gitDir: string, revs: readonly string[]): Promise<string[]> {
  const out = await runGitOrNotFound(gitDir, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], 'repository does not exist', {
    input: revs.map((r) => `${r}^{commit}\n`).join(''),
  });
  const lines = out.toString('utf8').split('\n');
  return revs.map((rev, i) => {
    const [sha = '', type = ''] = (lines[i] ?? '').split(' ');
    if (type !== 'commit') throw new NotFoundError(`commit does not exist [${rev}]`, { rev });
    return sha;
  });
}

/** Whether the repository has the commit. */
export async function hasCommit(gitDir: string, sha: string): Promise<boolean> {
  return (await runGitResult(gitDir, ['cat-file', '-e', `${sha}^{commit}`])).code === 0;
}
