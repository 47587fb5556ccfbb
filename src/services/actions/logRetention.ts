// cleanup_actions (Gitea services/actions/cleanup.go CleanupLogs): the logs of tasks that stopped longer ago than
// the retention (Gitea [actions] LOG_RETENTION_DAYS, 365) are removed and the tasks marked log_expired, so the
// job-logs endpoint serves nothing for them; artifacts past their expiry are expired (Gitea CleanupArtifacts). Files
// of deleted repositories, runs and uploads are swept too: the repo.deleted event sweeps them at once
// (orphanFiles.ts), but an event is not durable, and a process that stops between the deletion and its event
// leaves them behind until this task runs.
import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import type { ServiceContext } from '../context.ts';
import { expireArtifacts } from './artifactsV4.ts';
import { sweepOrphanActionsFiles } from './orphanFiles.ts';
import { removeLog } from './taskLogs.ts';

const DAY = 24 * 3_600_000;
const RETENTION_DAYS = 365;
const BATCH = 100;

export async function cleanupActions(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const before = new Date(run.startedAt.getTime() - RETENTION_DAYS * DAY);
  let expired = 0;
  for (;;) {
    if (run.signal.aborted) break;
    const tasks = await cx.db.actionTask.findMany({
      where: { logExpired: false, stopped: { lt: before } },
      select: { id: true, repoId: true },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    if (!tasks.length) break;
    await Promise.all(tasks.map((t) => removeLog(cx.config.dataDir, t.repoId, t.id)));
    await cx.db.actionTask.updateMany({ where: { id: { in: tasks.map((t) => t.id) } }, data: { logExpired: true, logIndexes: null } });
    expired += tasks.length;
  }
  const artifacts = await expireArtifacts(cx, run.startedAt, run.signal);
  const orphans = run.signal.aborted ? 0 : await sweepOrphanActionsFiles(cx.db, cx.config.dataDir);
  const swept = orphans ? `; removed ${orphans} director(ies) of deleted repositories, runs and uploads` : '';
  return {
    message: `removed the logs of ${expired} task(s) stopped more than ${RETENTION_DAYS} days ago and expired ${artifacts} artifact(s)${swept}`,
  };
}
