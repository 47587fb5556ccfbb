// A run's logs as GitHub's log archive holds them (GET /api/v3/repos/{o}/{r}/actions/runs/{id}/logs, what
// `gh run view --log` reads): per job, its whole log, and each step's lines (the step's log range of the job's
// latest task). Read with the Actions unit, as the job logs of /api/v1.
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { getRepoRun, listRepoJobs } from './repoActions.ts';
import { readLog } from './taskLogs.ts';

/** A file of the archive: its path (`/`-separated) and its text. */
export interface LogFile {
  name: string;
  text: string;
}

/** A name usable as one path segment of the archive (GitHub's names never hold `/`). */
const segment = (name: string): string => name.replace(/[/\\]/g, '_');

/**
 * The run's log files, in GitHub's layout: `<n>_<job>.txt` with a job's whole log, and `<job>/<step>_<name>.txt`
 * with each step's lines, steps numbered from 1 (as GitHub's jobs API numbers them). Jobs no runner took have none.
 * @throws NotFoundError (no such run, or the Actions unit is not readable)
 */
export async function runLogFiles(cx: ServiceContext, ref: RepoRef, runId: number): Promise<LogFile[]> {
  await getRepoRun(cx, ref, runId);
  const { items: jobs } = await listRepoJobs(cx, ref, runId, { status: [], sort: '', order: '' }, { page: 1, pageSize: 1000 });
  const files: LogFile[] = [];
  for (const [i, job] of jobs.entries()) {
    const task = job.task;
    if (!task) continue;
    const text = await readLog(cx.config.dataDir, task.repoId, task.id, task.logInStorage);
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    files.push({ name: `${i + 1}_${segment(job.name)}.txt`, text });
    for (const step of task.steps) {
      const part = lines.slice(step.logIndex, step.logIndex + step.logLength);
      files.push({ name: `${segment(job.name)}/${step.index + 1}_${segment(step.name)}.txt`, text: part.map((l) => `${l}\n`).join('') });
    }
  }
  return files;
}
