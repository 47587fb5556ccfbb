import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { syncCronRows } from '../../jobs/cronRows.ts';
import { runCronTask as runTask } from '../../jobs/cronRun.ts';
import type { ResolvedCronTask } from '../../jobs/cronTask.ts';
import { newWorkerId } from '../../jobs/worker.ts';
import { requireSiteAdmin } from '../access/guards.ts';
import { createSystemContext, type ServiceContext } from '../context.ts';
import type { ListOptions, Page } from '../paging.ts';
import { cronTasks } from './tasks.ts';

/** One cron task as administrators see it: its settings and the state of its runs. */
export interface CronTaskView {
  name: string;
  description: string;
  /** The configured schedule (also for a disabled task). */
  schedule: string;
  enabled: boolean;
  /** Next scheduled run; null when disabled. */
  next: Date | null;
  /** Start of the last run (scheduled or manual); null before the first. */
  prev: Date | null;
  execTimes: number;
  running: boolean;
  lastStatus: Models.CronRunStatus;
  lastMessage: string;
  lastError: string;
  lastFinishedAt: Date | null;
  lastDurationMs: number;
}

function view(task: ResolvedCronTask<ServiceContext>, row: Models.CronTask | undefined, now: Date, leaseMs: number): CronTaskView {
  const running = !!row?.runningBy && !!row.runningAt && row.runningAt.getTime() > now.getTime() - leaseMs;
  return {
    name: task.def.name,
    description: task.def.description,
    schedule: task.settings.schedule,
    enabled: task.settings.enabled,
    next: task.settings.enabled ? (row?.nextRunAt ?? null) : null,
    prev: row?.lastRunAt ?? null,
    execTimes: row?.execTimes ?? 0,
    running,
    lastStatus: row?.lastStatus ?? 'NONE',
    lastMessage: row?.lastMessage ?? '',
    lastError: row?.lastError ?? '',
    lastFinishedAt: row?.lastFinishedAt ?? null,
    lastDurationMs: row?.lastDurationMs ?? 0,
  };
}

async function views(cx: ServiceContext): Promise<CronTaskView[]> {
  const tasks = cronTasks(cx.config);
  await syncCronRows(cx.db, tasks);
  const rows = new Map((await cx.db.cronTask.findMany()).map((r) => [r.name, r]));
  const now = new Date();
  return tasks.map((t) => view(t, rows.get(t.def.name), now, cx.config.jobs.leaseMs));
}

/**
 * GET /admin/cron (Gitea ListCronTasks): every registered task, disabled ones included, in Gitea's order,
 * paginated in memory (all of them without `opts`). Site admins (token scope admin:read).
 * @throws UnauthenticatedError, PermissionDeniedError
 */
export async function listCronTasks(cx: ServiceContext, opts?: ListOptions): Promise<Page<CronTaskView>> {
  requireSiteAdmin(cx, 'read');
  const all = await views(cx);
  if (!opts) return { items: all, total: all.length };
  const start = (opts.page - 1) * opts.pageSize;
  return { items: all.slice(start, start + opts.pageSize), total: all.length };
}

/**
 * POST /admin/cron/{task} (Gitea Task.Run): runs the task now, synchronously, disabled or not; when it is
 * already running (here or on another instance) returns without running it again. A failing task is recorded
 * on its row and in a system notice, not thrown. Site admins (token scope admin:write). Names are case-sensitive.
 * @throws UnauthenticatedError, PermissionDeniedError, NotFoundError
 */
export async function runCronTask(cx: ServiceContext, name: string): Promise<CronTaskView> {
  requireSiteAdmin(cx, 'write');
  const task = cronTasks(cx.config).find((t) => t.def.name === name);
  if (!task) throw new NotFoundError('not found', { task: name });
  await syncCronRows(cx.db, cronTasks(cx.config));
  await runTask(cx.db, task, createSystemContext(cx), { owner: newWorkerId(), trigger: 'manual', leaseMs: cx.config.jobs.leaseMs });
  const row = await cx.db.cronTask.findUnique({ where: { name } });
  return view(task, row ?? undefined, new Date(), cx.config.jobs.leaseMs);
}
