// A repository's upkeep after a push, off the push's answer path: the push's transaction enqueues this job, which
// runs `git gc --auto` (receive-pack's own auto gc is turned off for pushes that have a push job, see
// gitTransport.ts), packs the refs once many are loose (packRefs.ts), and measures the repository's size (Gitea
// updates it from its push queue too).
import { z } from 'zod';
import type { DbLike, Models } from '../../db/client.ts';
import { gcRepository } from '../../git/gc.ts';
import { packRefsIfMany } from '../../git/packRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { repoSize } from '../../git/repoSize.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import type { AppDeps } from '../context.ts';

/** Loose refs beyond this many are packed after a push (a push's ref listing reads each loose one). */
const MAX_LOOSE_REFS = 64;

/** `git gc --auto` and the refs packed when many, then measure and store the size, of one repository. */
export const REPO_UPKEEP_JOB = jobKind('repo.upkeep', z.object({ repoId: z.number().int() }), { maxAttempts: 3 });

/** Measures the repository's git directory and stores it (`gitSize`, and `size` with its LFS objects). */
export async function updateRepoSize(db: DbLike, repo: Models.Repository, gitDir: string): Promise<void> {
  const gitSize = await repoSize(gitDir);
  await db.repository.update({ where: { id: repo.id }, data: { gitSize, size: gitSize + repo.lfsSize } });
}

/** The job's handler: idempotent (gc decides from what is on disk, and the size is measured now). */
export function repoUpkeepJobHandler(deps: AppDeps): JobHandler<{ repoId: number }> {
  return defineHandler(REPO_UPKEEP_JOB, async ({ repoId }) => {
    const repo = await deps.db.repository.findUnique({ where: { id: repoId } });
    if (!repo) return;
    const gitDir = repoPath(deps.config.repositoriesDir, repo.ownerName, repo.name);
    await gcRepository(gitDir, { args: ['--auto', '--quiet'], timeoutMs: 600_000 });
    await packRefsIfMany(gitDir, MAX_LOOSE_REFS);
    await updateRepoSize(deps.db, repo, gitDir);
  });
}
