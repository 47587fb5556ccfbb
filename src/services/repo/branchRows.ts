import type { DbTx } from '../../db/client.ts';
import { listBranches } from '../../git/listBranches.ts';

/** Records the branch rows of a repository whose git directory already has branches (a fork, an adopted repository); returns their names. */
export async function recordGitBranches(tx: DbTx, repoId: number, gitdir: string, pusherId: number): Promise<string[]> {
  const heads = await listBranches(gitdir);
  if (heads.length) {
    await tx.branch.createMany({
      data: heads.map((h) => ({
        repoId,
        name: h.name,
        commitId: h.commit.sha,
        commitMessage: h.commit.message.split('\n')[0] ?? '',
        commitTime: new Date(h.commit.committer.when),
        pusherId,
      })),
    });
  }
  return heads.map((h) => h.name);
}
