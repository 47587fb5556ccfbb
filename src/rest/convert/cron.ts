import type { CronTaskView } from '../../services/cron/cron.ts';
import type { Cron } from '../structs/cron.ts';
import { apiTime, GO_ZERO } from './time.ts';

/** Gitea ListCronTasks entry: a disabled task shows schedule "-" and a zero `next`; `prev` is the last run, scheduled or manual. */
export function toApiCron(task: CronTaskView): Cron {
  return {
    name: task.name,
    schedule: task.enabled ? task.schedule : '-',
    next: task.enabled && task.next ? apiTime(task.next) : GO_ZERO,
    prev: task.prev ? apiTime(task.prev) : GO_ZERO,
    exec_times: task.execTimes,
  };
}
