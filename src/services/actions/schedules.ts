// `on: schedule` (Gitea services/actions/notifier_helper.go handleSchedules, schedule_tasks.go): a push to the
// default branch replaces the repository's schedules with the crons of the workflow files it carries (removing a
// file removes its schedules); start_schedule_tasks starts a `schedule` run of each due one, claimed by
// compare-and-set on `next` so several instances start it once.
import { readRows } from '../../db/readPath.ts';
import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import { parseSchedule, type Schedule } from '../../jobs/schedule.ts';
import type { Models } from '../../db/client.ts';
import { repoPath } from '../../git/repoPath.ts';
import { readWorkflowFiles } from '../../git/workflowFiles.ts';
import type { ServiceContext } from '../context.ts';
import { startRunsForEvent } from './createRuns.ts';
import { parseWorkflow } from './workflowFile.ts';

const BATCH = 100;

/** A workflow cron: five fields (GitHub's syntax); anything else schedules nothing. */
function cronOf(spec: string): Schedule | null {
  if (spec.trim().split(/\s+/).length !== 5) return null;
  try {
    return parseSchedule(spec);
  } catch {
    return null;
  }
}

/** After a push to the default branch at `commitSha`: the repository's schedules are those of that commit. */
export async function syncSchedules(
  cx: ServiceContext,
  repo: Models.Repository,
  commitSha: string,
  pusherId: number | null,
): Promise<void> {
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const now = new Date();
  const rows = (await readWorkflowFiles(gitDir, commitSha)).flatMap((f) =>
    (parseWorkflow(f.content)?.on.get('schedule')?.cron ?? []).flatMap((spec) => {
      const next = cronOf(spec)?.next(now);
      return next
        ? [{ repoId: repo.id, workflowId: f.name, spec, ref: `refs/heads/${repo.defaultBranch}`, commitSha, triggerUserId: pusherId, next }]
        : [];
    }),
  );
  // Most repositories have no schedule before the push and none after: nothing to write.
  if (!rows.length) {
    const stored = await readRows<'ActionSchedule', { id: number }>(
      cx.db,
      'ActionSchedule',
      'SELECT "id" FROM "ActionSchedule" WHERE "repoId" = ? LIMIT 1',
      [repo.id],
    );
    if (!stored.length) return;
  }
  await cx.db.$transaction(async (tx) => {
    await tx.actionSchedule.deleteMany({ where: { repoId: repo.id } });
    if (rows.length) await tx.actionSchedule.createMany({ data: rows });
  });
}

/** Starts one due schedule's run, unless another instance claimed it first. */
async function startSchedule(cx: ServiceContext, row: Models.ActionSchedule, now: Date): Promise<boolean> {
  const next = cronOf(row.spec)?.next(now) ?? new Date(now.getTime() + 365 * 86_400_000);
  const won = await cx.db.actionSchedule.updateMany({ where: { id: row.id, next: row.next }, data: { next, prev: now } });
  if (!won.count) return false;
  const repo = await cx.db.repository.findUnique({ where: { id: row.repoId } });
  if (!repo) return false;
  const runs = await startRunsForEvent(cx, {
    repo,
    event: 'schedule',
    ref: row.ref,
    commitSha: row.commitSha,
    triggerUserId: row.triggerUserId,
    scheduleId: row.id,
    workflowFile: row.workflowId,
    payload: {
      schedule: row.spec,
      ref: row.ref,
      repository: { id: repo.id, name: repo.name, full_name: `${repo.ownerName}/${repo.name}`, default_branch: repo.defaultBranch },
    },
    matches: (filter) => (filter.cron ?? []).includes(row.spec),
  });
  return runs.length > 0;
}

/** start_schedule_tasks (@every 1m): every due schedule starts a run. */
export async function startScheduleTasks(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const now = run.startedAt;
  let started = 0;
  let due = 0;
  for (let after = 0; !run.signal.aborted;) {
    const rows = await cx.db.actionSchedule.findMany({
      where: { next: { lte: now }, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    if (!rows.length) break;
    for (const row of rows) {
      due++;
      if (await startSchedule(cx, row, now)) started++;
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
  return { message: `started ${started} scheduled run(s) of ${due} due schedule(s)` };
}
