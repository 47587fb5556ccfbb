// Gitea sync_repo_licenses: every repository's licenses detected again where its default branch moved since.
import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import type { ServiceContext } from '../context.ts';
import { syncRepoLicenses } from '../repo/licenses.ts';
import { eachRepository } from './repoMaintenance.ts';

/** Detects the licenses of every repository with content (unchanged default branches cost one query each). */
export async function syncAllRepoLicenses(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  let licensed = 0;
  const failed: string[] = [];
  const checked = await eachRepository(cx, run, { isEmpty: false }, async (repo) => {
    try {
      if ((await syncRepoLicenses(cx, repo)).length) licensed++;
    } catch (err) {
      if (!run.signal.aborted) failed.push(`${repo.ownerName}/${repo.name}: ${String(err)}`);
    }
  });
  const summary = `checked ${checked} repositories, ${licensed} with a detected license${run.signal.aborted ? ' (stopped early: shutting down)' : ''}`;
  if (failed.length) throw new Error(`${summary}; failed: ${failed.join('; ')}`);
  return { message: summary };
}
