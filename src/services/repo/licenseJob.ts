// The license updater (Gitea's repo_license queue): a push that moves the default branch enqueues a detection
// job, so the push itself only writes a row; the job reads the license files and stores what it found.
import { z } from 'zod';
import { enqueue } from '../../jobs/enqueue.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import { createSystemContext, type AppDeps } from '../context.ts';
import { syncRepoLicenses } from './licenses.ts';
import type { PushFollowUp } from './pushJob.ts';

/** Detect and store one repository's licenses. */
export const LICENSE_JOB = jobKind('repo.licenses', z.object({ repoId: z.number().int() }), { maxAttempts: 3 });

/** The job's handler: idempotent (detection of the same commit stores the same rows). */
export function licenseJobHandler(deps: AppDeps): JobHandler<{ repoId: number }> {
  return defineHandler(LICENSE_JOB, async ({ repoId }) => {
    const repo = await deps.db.repository.findUnique({ where: { id: repoId } });
    if (repo) await syncRepoLicenses(createSystemContext(deps), repo);
  });
}

/** After a push: the default branch moved, so its licenses may have changed. */
export const licenseFollowUp: PushFollowUp = async (cx, push) => {
  if (push.updates.some((u) => u.ref === `refs/heads/${push.repo.defaultBranch}`)) {
    await enqueue(cx.db, LICENSE_JOB, { repoId: push.repoId });
  }
};
