// A repository's size after a push (Gitea updates it from its push queue too): the push's transaction enqueues this
// job, so the push itself never walks the repository's files on its answer's path.
import { z } from 'zod';
import type { DbLike, Models } from '../../db/client.ts';
import { repoPath } from '../../git/repoPath.ts';
import { repoSize } from '../../git/repoSize.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import type { AppDeps } from '../context.ts';

/** Measure and store one repository's size. */
export const REPO_SIZE_JOB = jobKind('repo.size', z.object({ repoId: z.number().int() }), { maxAttempts: 3 });

/** Measures the repository's git directory and stores it (`gitSize`, and `size` with its LFS objects). */
export async function updateRepoSize(db: DbLike, repo: Models.Repository, gitDir: string): Promise<void> {
  const gitSize = await repoSize(gitDir);
  await db.repository.update({ where: { id: repo.id }, data: { gitSize, size: gitSize + repo.lfsSize } });
}

/** The job's handler: idempotent (it measures what is on disk now). */
export function repoSizeJobHandler(deps: AppDeps): JobHandler<{ repoId: number }> {
  return defineHandler(REPO_SIZE_JOB, async ({ repoId }) => {
    const repo = await deps.db.repository.findUnique({ where: { id: repoId } });
    if (repo) await updateRepoSize(deps.db, repo, repoPath(deps.config.repositoriesDir, repo.ownerName, repo.name));
  });
}
