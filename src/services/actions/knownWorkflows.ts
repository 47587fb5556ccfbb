// A repository's workflows as GitHub's API lists them (`gh workflow list|view|run|enable|disable`, `gh run list`):
// the workflow files on the default branch, and the files only runs still name (GitHub's `deleted` workflows).
// Gitea names a workflow by its file; GitHub by a number, which is derived here from the repository and the file.
import { createHash } from 'node:crypto';
import { NotFoundError } from '../../errors.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { workflowName } from './commitStatuses.ts';
import { requireActionsRead } from './repoActions.ts';
import { listWorkflows } from './workflows.ts';

/** A workflow of a repository, with GitHub's number and state. */
export interface KnownWorkflow {
  /** The workflow file name, Gitea's workflow id (e.g. build.yml). */
  file: string;
  /** GitHub's numeric workflow id (workflowDatabaseId). */
  databaseId: number;
  name: string;
  /** The file's path on the default branch; the file name alone for a deleted workflow. */
  path: string;
  state: 'active' | 'disabled_manually' | 'deleted';
  createdAt: Date;
  updatedAt: Date;
  repo: { id: number; ownerName: string; name: string; defaultBranch: string };
}

/**
 * GitHub's numeric id of the workflow file `file` of repository `repoId`: 31 bits of a sha256 of both, the same
 * every time (a GraphQL Int, as GitHub's Workflow.databaseId), never 0.
 */
export function workflowDatabaseId(repoId: number, file: string): number {
  return createHash('sha256').update(`${repoId}/${file}`).digest().readUInt32BE(0) % 0x7fffffff || 1;
}

/**
 * The repository's workflows (a signed-in reader of its Actions unit): the files on the default branch by file
 * name, then the files only its runs name, by file name; each run-only workflow is named as its latest run's job
 * says. @throws NotFoundError, UnauthenticatedError
 */
export async function listKnownWorkflows(cx: ServiceContext, ref: RepoRef): Promise<KnownWorkflow[]> {
  const [{ repo }, files] = await Promise.all([requireActionsRead(cx, ref), listWorkflows(cx, ref)]);
  const base = { id: repo.id, ownerName: repo.ownerName, name: repo.name, defaultBranch: repo.defaultBranch };
  const onBranch: KnownWorkflow[] = files.map((w) => ({
    file: w.id,
    databaseId: workflowDatabaseId(repo.id, w.id),
    name: w.name,
    path: w.path,
    state: w.disabled ? 'disabled_manually' : 'active',
    createdAt: new Date(w.when),
    updatedAt: new Date(w.when),
    repo: base,
  }));
  const known = new Set(onBranch.map((w) => w.file));
  const groups = await cx.db.actionRun.groupBy({
    by: ['workflowId'],
    where: { repoId: repo.id, workflowId: { notIn: [...known] } },
    _min: { createdAt: true },
    _max: { id: true, updatedAt: true },
    orderBy: { workflowId: 'asc' },
  });
  const latestIds = groups.flatMap((g) => (g._max.id === null ? [] : [g._max.id]));
  const jobs = latestIds.length
    ? await cx.db.actionRunJob.findMany({
        where: { runId: { in: latestIds } },
        include: { run: true },
        orderBy: { id: 'asc' },
        distinct: ['runId'],
      })
    : [];
  const deleted = groups.map((g): KnownWorkflow => {
    const job = jobs.find((j) => j.runId === g._max.id);
    return {
      file: g.workflowId,
      databaseId: workflowDatabaseId(repo.id, g.workflowId),
      name: job ? workflowName(job, job.run) : g.workflowId,
      path: g.workflowId,
      state: 'deleted',
      createdAt: g._min.createdAt ?? new Date(0),
      updatedAt: g._max.updatedAt ?? new Date(0),
      repo: base,
    };
  });
  return [...onBranch, ...deleted];
}

/**
 * One workflow by GitHub's numeric id or by file name (as GitHub takes either).
 * @throws NotFoundError `workflow "x" not found`, UnauthenticatedError
 */
export async function getKnownWorkflow(cx: ServiceContext, ref: RepoRef, key: string): Promise<KnownWorkflow> {
  const all = await listKnownWorkflows(cx, ref);
  const found = /^\d+$/.test(key) ? all.find((w) => w.databaseId === Number(key)) : all.find((w) => w.file === key);
  if (!found) throw new NotFoundError(`workflow "${key}" not found`);
  return found;
}

/**
 * The known workflows by file name, to name runs and jobs: none for an anonymous viewer, who may list a public
 * repository's runs but not its workflows (as /api/v1). @throws NotFoundError
 */
export async function knownWorkflowsByFile(cx: ServiceContext, ref: RepoRef): Promise<Map<string, KnownWorkflow>> {
  if (!cx.viewer) return new Map();
  return new Map((await listKnownWorkflows(cx, ref)).map((w) => [w.file, w]));
}
