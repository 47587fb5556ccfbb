// Actions jobs as GitHub's check runs of a commit (CheckRun, its CheckSuite = the run, and the run's Workflow):
// the read side the graph's Commit.statusCheckRollup and node(id:) use.
import DataLoader from 'dataloader';
import path from 'node:path';
import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { jobStatusContext, runReportsStatuses, workflowName } from './commitStatuses.ts';
import { actionJobReadWhere, actionRunReadWhere } from './graphRead.ts';

/** The repository columns links need. */
type RepoRow = Pick<Models.Repository, 'id' | 'ownerName' | 'name'>;

/** A run as a check suite: the run, its repository, and its workflow's name. */
export interface CheckSuiteView {
  run: Models.ActionRun;
  repo: RepoRow;
  /** The workflow's `name:`, else its file name (as the run's commit statuses name it). */
  workflowName: string;
}

/** A job as a check run. */
export interface CheckRunView {
  job: Models.ActionRunJob;
  suite: CheckSuiteView;
  /** The job's 0-based position in its run (Gitea's job index in …/actions/runs/{run}/jobs/{index}). */
  jobIndex: number;
  /** The commit status context Gitea writes for the job ("<workflow> / <job> (<event>)"), also for runs that write none. */
  context: string;
  /** Whether the job also reports as a commit status of that context (push and pull_request runs). */
  reportsStatus: boolean;
}

/** A commit of a repository. */
export interface CommitKey {
  repoId: number;
  sha: string;
}

const JOB_INCLUDE = { run: true, repo: { select: { id: true, ownerName: true, name: true } } } as const;
type JobRow = Models.ActionRunJob & { run: Models.ActionRun; repo: RepoRow };

/** Check runs of jobs (all jobs of their runs are in `jobs`, so positions can be told), in job order. */
function toViews(jobs: readonly JobRow[]): CheckRunView[] {
  const suites = new Map<number, CheckSuiteView>();
  const seen = new Map<number, number>();
  const sorted = [...jobs].sort((a, b) => a.id - b.id);
  return sorted.map((job) => {
    let suite = suites.get(job.runId);
    if (!suite) suites.set(job.runId, (suite = { run: job.run, repo: job.repo, workflowName: workflowName(job, job.run) }));
    const jobIndex = seen.get(job.runId) ?? 0;
    seen.set(job.runId, jobIndex + 1);
    return { job, suite, jobIndex, context: jobStatusContext(job, job.run), reportsStatus: runReportsStatuses(job.run) };
  });
}

/**
 * Per request: the check runs of many commits (every job of every run of the commit in its repository), oldest
 * first, through the read policy of jobs (the Actions unit readable): one query for all the commits asked at once.
 */
export function commitCheckRunsLoader(cx: ServiceContext): DataLoader<CommitKey, CheckRunView[], string> {
  return new DataLoader(
    async (keys: readonly CommitKey[]) => {
      const rows = await cx.db.actionRunJob.findMany({
        where: { AND: [actionJobReadWhere(cx), { OR: keys.map((k) => ({ repoId: k.repoId, commitSha: k.sha })) }] },
        include: JOB_INCLUDE,
        orderBy: { id: 'asc' },
      });
      const views = toViews(rows);
      return keys.map((k) => views.filter((v) => v.job.repoId === k.repoId && v.job.commitSha === k.sha));
    },
    { cacheKeyFn: (k) => `${k.repoId}:${k.sha}` },
  );
}

/** Per request: check runs by job id (node(id:)), through the read policy of jobs; null when absent or unreadable. */
export function checkRunsByIdLoader(cx: ServiceContext): DataLoader<number, CheckRunView | null> {
  return new DataLoader(async (ids: readonly number[]) => {
    const wanted = await cx.db.actionRunJob.findMany({
      where: { AND: [{ id: { in: [...ids] } }, actionJobReadWhere(cx)] },
      select: { runId: true },
    });
    // Their runs' other jobs too, for the positions in the links.
    const rows = wanted.length
      ? await cx.db.actionRunJob.findMany({ where: { runId: { in: [...new Set(wanted.map((j) => j.runId))] } }, include: JOB_INCLUDE })
      : [];
    const views = toViews(rows);
    return ids.map((id) => views.find((v) => v.job.id === id) ?? null);
  });
}

/** Per request: check suites (runs) by id, through the read policy of runs; null when absent or unreadable. */
export function checkSuitesByIdLoader(cx: ServiceContext): DataLoader<number, CheckSuiteView | null> {
  return new DataLoader(async (ids: readonly number[]) => {
    const runs = await cx.db.actionRun.findMany({
      where: { AND: [{ id: { in: [...ids] } }, actionRunReadWhere(cx)] },
      include: { repo: { select: { id: true, ownerName: true, name: true } } },
    });
    const names = await workflowNames(cx, runs);
    return ids.map((id) => {
      const run = runs.find((r) => r.id === id);
      return run ? { run, repo: run.repo, workflowName: names.get(run.id) ?? path.basename(run.workflowId) } : null;
    });
  });
}

/** The workflow names of runs, from one job of each (one query). */
async function workflowNames(cx: ServiceContext, runs: readonly Models.ActionRun[]): Promise<Map<number, string>> {
  if (!runs.length) return new Map();
  const jobs = await cx.db.actionRunJob.findMany({
    where: { runId: { in: runs.map((r) => r.id) } },
    orderBy: { id: 'asc' },
    distinct: ['runId'],
  });
  const byId = new Map(runs.map((r) => [r.id, r]));
  return new Map(jobs.map((j) => [j.runId, workflowName(j, byId.get(j.runId)!)]));
}

/** A workflow of a repository as the graph names it: its file, and its name as its latest readable run tells. */
export interface WorkflowView {
  repo: RepoRow;
  /** The workflow file name (Gitea's workflow id), e.g. build.yml. */
  file: string;
  name: string;
  /** The first and latest run of it. */
  createdAt: Date;
  updatedAt: Date;
}

/** A workflow, by repository and file. */
export interface WorkflowKey {
  repoId: number;
  file: string;
}

/**
 * Per request: workflows by repository and file name, known through their runs (the read policy of runs: a
 * workflow exists to the viewer when a run of it is readable); null otherwise.
 */
export function workflowsLoader(cx: ServiceContext): DataLoader<WorkflowKey, WorkflowView | null, string> {
  return new DataLoader(
    async (keys: readonly WorkflowKey[]) => {
      const groups = await cx.db.actionRun.groupBy({
        by: ['repoId', 'workflowId'],
        where: { AND: [actionRunReadWhere(cx), { OR: keys.map((k) => ({ repoId: k.repoId, workflowId: k.file })) }] },
        _min: { createdAt: true },
        _max: { id: true },
      });
      const latestIds = groups.flatMap((g) => (g._max.id === null ? [] : [g._max.id]));
      const runs = latestIds.length
        ? await cx.db.actionRun.findMany({
            where: { id: { in: latestIds } },
            include: { repo: { select: { id: true, ownerName: true, name: true } } },
          })
        : [];
      const names = await workflowNames(cx, runs);
      return keys.map((k) => {
        const group = groups.find((g) => g.repoId === k.repoId && g.workflowId === k.file);
        const run = group ? runs.find((r) => r.id === group._max.id) : undefined;
        if (!group || !run) return null;
        const name = names.get(run.id) ?? path.basename(run.workflowId);
        return { repo: run.repo, file: run.workflowId, name, createdAt: group._min.createdAt ?? run.createdAt, updatedAt: run.updatedAt };
      });
    },
    { cacheKeyFn: (k) => `${k.repoId}\0${k.file}` },
  );
}
