import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/prismaErrors.ts';
import type { ResolvedCronTask } from './cronTask.ts';

/**
 * Makes the CronTask rows match the task list and the configuration: a row per task (created when missing),
 * with the configured schedule and enablement; a changed schedule, or a task just enabled, gets a new next
 * run time, a disabled task none. Idempotent, and safe when several instances start at once.
 */
export async function syncCronRows<C>(db: Db, tasks: readonly ResolvedCronTask<C>[], now = new Date()): Promise<void> {
  const rows = new Map((await db.cronTask.findMany()).map((r) => [r.name, r]));
  for (const t of tasks) {
    const { enabled, schedule } = t.settings;
    const nextRunAt = enabled ? t.schedule.next(now) : null;
    const row = rows.get(t.def.name);
    if (!row) {
      try {
        await db.cronTask.create({ data: { name: t.def.name, schedule, enabled, nextRunAt } });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      continue;
    }
    if (row.schedule === schedule && row.enabled === enabled && (row.nextRunAt !== null) === enabled) continue;
    await db.cronTask.updateMany({
      where: { name: row.name, schedule: row.schedule, enabled: row.enabled },
      data: { schedule, enabled, nextRunAt },
    });
  }
}
