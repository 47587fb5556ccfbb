import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import type { ServiceContext } from '../context.ts';
import { queueDueMirrors } from './mirrorSync.ts';
import { queueDuePushMirrors } from './pushMirror.ts';

/** Gitea `[cron.update_mirrors] PULL_LIMIT` and `PUSH_LIMIT`. */
const PULL_LIMIT = 50;
const PUSH_LIMIT = 50;

/** update_mirrors: queues a sync of every due pull mirror and a push of every due push mirror (each once, across instances). */
export async function updateMirrors(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const pull = await queueDueMirrors(cx, run.startedAt, PULL_LIMIT);
  const push = await queueDuePushMirrors(cx, run.startedAt, PUSH_LIMIT);
  return { message: `${pull} pull mirror sync(s) and ${push} push mirror push(es) queued` };
}
