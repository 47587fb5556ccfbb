// GitHub's checks over Gitea Actions: a job is a CheckRun, its run a CheckSuite (with the run as its WorkflowRun),
// and the run's workflow file a Workflow. Read with the Actions unit (the read policy of runs and jobs).
import { createContextCache } from '@pothos/core';
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError } from '../../errors.ts';
import {
  checkRunsByIdLoader,
  checkSuitesByIdLoader,
  workflowsLoader,
  type CheckRunView,
  type CheckSuiteView,
  type WorkflowView,
} from '../../services/actions/checkRuns.ts';
import { requiredChecksLoader, type PullKey } from '../../services/pull/requiredChecks.ts';
import { isRequiredContext } from '../../services/status/rollup.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { dbId, dbIdOf, type GlobalId } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { WorkflowRunRef } from './actions.ts';

const checkRuns = createContextCache((ctx: GraphQLContext) => checkRunsByIdLoader(ctx.cx));
const checkSuites = createContextCache((ctx: GraphQLContext) => checkSuitesByIdLoader(ctx.cx));
const workflows = createContextCache((ctx: GraphQLContext) => workflowsLoader(ctx.cx));
const required = createContextCache((ctx: GraphQLContext) => requiredChecksLoader(ctx.cx));

type CheckStatus = 'COMPLETED' | 'IN_PROGRESS' | 'PENDING' | 'QUEUED' | 'WAITING';
type CheckConclusion = 'SUCCESS' | 'FAILURE' | 'CANCELLED' | 'SKIPPED';

export const CheckStatusStateEnum = builder.enumType('CheckStatusState', {
  description: "The progress of a check run or suite (from the Actions job's or run's status).",
  values: {
    COMPLETED: { description: 'Finished (success, failure, cancelled or skipped).' },
    IN_PROGRESS: { description: 'Running (or being cancelled).' },
    PENDING: { description: 'Not yet known (Gitea status unknown).' },
    QUEUED: { description: 'Waiting for a runner (Gitea waiting).' },
    REQUESTED: { description: 'Never returned here.' },
    WAITING: { description: 'Blocked by the jobs it needs or by an approval (Gitea blocked).' },
  } as const,
});

export const CheckConclusionStateEnum = builder.enumType('CheckConclusionState', {
  description: 'How a finished check run or suite ended.',
  values: {
    ACTION_REQUIRED: { description: 'Never returned here.' },
    CANCELLED: {},
    FAILURE: {},
    NEUTRAL: { description: 'Never returned here.' },
    SKIPPED: {},
    STALE: { description: 'Never returned here.' },
    STARTUP_FAILURE: { description: 'Never returned here.' },
    SUCCESS: {},
    TIMED_OUT: { description: 'Never returned here (a timed-out job fails).' },
  } as const,
});

/** GitHub's CheckStatusState of an Actions status. */
export function checkStatusOf(s: Models.ActionStatus): CheckStatus {
  switch (s) {
    case 'WAITING':
      return 'QUEUED';
    case 'BLOCKED':
      return 'WAITING';
    case 'RUNNING':
    case 'CANCELLING':
      return 'IN_PROGRESS';
    case 'SUCCESS':
    case 'FAILURE':
    case 'CANCELLED':
    case 'SKIPPED':
      return 'COMPLETED';
    default:
      return 'PENDING';
  }
}

/** GitHub's CheckConclusionState of an Actions status; null until it is finished. */
export function checkConclusionOf(s: Models.ActionStatus): CheckConclusion | null {
  return s === 'SUCCESS' || s === 'FAILURE' || s === 'CANCELLED' || s === 'SKIPPED' ? s : null;
}

/** The arguments of GitHub's isRequired. */
interface RequiredArgs {
  pullRequestId?: GlobalId | null;
  pullRequestNumber?: number | null;
}

/**
 * GitHub's isRequired for a status context of repository `repoId`: whether the pull request (by id, or by number in
 * that repository) requires it, as its base branch's rule names required contexts. @throws InvalidArgumentError
 * without either argument; NotFoundError for a pull request the viewer cannot read
 */
export async function isRequiredFor(ctx: GraphQLContext, repoId: number, context: string, args: RequiredArgs): Promise<boolean> {
  let key: PullKey;
  if (args.pullRequestId) key = { pullId: dbIdOf(args.pullRequestId, 'PullRequest') };
  else if (args.pullRequestNumber != null) key = { repoId, index: args.pullRequestNumber };
  else throw new InvalidArgumentError('isRequired needs pullRequestId or pullRequestNumber', {});
  const patterns = await required(ctx).load(key);
  if (!patterns) throw new NotFoundError('Could not resolve to a PullRequest with the given id or number.', { ...key });
  return isRequiredContext(context, patterns);
}

const runUrl = (ctx: GraphQLContext, s: CheckSuiteView) =>
  `${ctx.cx.config.rootUrl}${encodeURIComponent(s.repo.ownerName)}/${encodeURIComponent(s.repo.name)}/actions/runs/${s.run.index}`;
const runPath = (s: CheckSuiteView) =>
  `/${encodeURIComponent(s.repo.ownerName)}/${encodeURIComponent(s.repo.name)}/actions/runs/${s.run.index}`;

/** The key of a workflow in its global id: `<repository id>/<file>`. */
const workflowKey = (id: string) => {
  const slash = id.indexOf('/');
  return { repoId: slash > 0 ? dbId(id.slice(0, slash)) : 0, file: slash > 0 ? id.slice(slash + 1) : '' };
};

export const WorkflowRef = builder.objectRef<WorkflowView>('Workflow');
builder.node(WorkflowRef, {
  description: "A workflow file of a repository, known through its runs (its name is the file's `name:`, else the file name).",
  ...filteredBy('actionRunReadWhere'),
  id: { resolve: (w) => `${w.repo.id}/${w.file}` },
  loadMany: (ids, ctx) => ids.map((id) => workflows(ctx).load(workflowKey(id))),
  fields: (t) => ({
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When its first run was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its latest run was last updated.' }),
    resourcePath: t.field({
      type: 'URI',
      resolve: (w) =>
        `/${encodeURIComponent(w.repo.ownerName)}/${encodeURIComponent(w.repo.name)}/actions?workflow=${encodeURIComponent(w.file)}`,
    }),
    url: t.field({
      type: 'URI',
      resolve: (w, _a, ctx) =>
        `${ctx.cx.config.rootUrl}${encodeURIComponent(w.repo.ownerName)}/${encodeURIComponent(w.repo.name)}/actions?workflow=${encodeURIComponent(w.file)}`,
    }),
  }),
});
tokenReadScope(WorkflowRef, 'repository');

export const CheckSuiteRef = builder.objectRef<CheckSuiteView>('CheckSuite');
builder.node(CheckSuiteRef, {
  description: 'An Actions run as a check suite: its jobs are its check runs.',
  ...filteredBy('actionRunReadWhere'),
  id: { resolve: (s) => s.run.id },
  loadMany: (ids, ctx) => ids.map((id) => checkSuites(ctx).load(dbId(id))),
  fields: (t) => ({
    databaseId: t.int({ description: 'The run id.', resolve: (s) => s.run.id }),
    status: t.field({ type: CheckStatusStateEnum, resolve: (s) => checkStatusOf(s.run.status) }),
    conclusion: t.field({ type: CheckConclusionStateEnum, nullable: true, resolve: (s) => checkConclusionOf(s.run.status) }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.run.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.run.updatedAt }),
    resourcePath: t.field({ type: 'URI', resolve: (s) => runPath(s) }),
    url: t.field({ type: 'URI', resolve: (s, _a, ctx) => runUrl(ctx, s) }),
    workflowRun: t.field({
      type: WorkflowRunRef,
      nullable: true,
      ...inherits('a check suite is its workflow run'),
      resolve: (s) => s.run,
    }),
  }),
});
tokenReadScope(CheckSuiteRef, 'repository');

export const CheckRunRef = builder.objectRef<CheckRunView>('CheckRun');
builder.node(CheckRunRef, {
  description: 'An Actions job as a check run of its commit.',
  ...filteredBy('actionJobReadWhere'),
  id: { resolve: (r) => r.job.id },
  loadMany: (ids, ctx) => ids.map((id) => checkRuns(ctx).load(dbId(id))),
  fields: (t) => ({
    databaseId: t.int({ description: 'The job id.', resolve: (r) => r.job.id }),
    name: t.string({ description: "The job's name.", resolve: (r) => r.job.name }),
    status: t.field({ type: CheckStatusStateEnum, resolve: (r) => checkStatusOf(r.job.status) }),
    conclusion: t.field({ type: CheckConclusionStateEnum, nullable: true, resolve: (r) => checkConclusionOf(r.job.status) }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.job.started }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.job.stopped }),
    detailsUrl: t.field({
      type: 'URI',
      nullable: true,
      description: "The job's page (the target URL of the commit status Gitea writes for it).",
      resolve: (r, _a, ctx) => `${runUrl(ctx, r.suite)}/jobs/${r.jobIndex}`,
    }),
    permalink: t.field({ type: 'URI', resolve: (r, _a, ctx) => `${runUrl(ctx, r.suite)}/jobs/${r.jobIndex}` }),
    resourcePath: t.field({ type: 'URI', resolve: (r) => `${runPath(r.suite)}/jobs/${r.jobIndex}` }),
    url: t.field({ type: 'URI', resolve: (r, _a, ctx) => `${runUrl(ctx, r.suite)}/jobs/${r.jobIndex}` }),
    checkSuite: t.field({ type: CheckSuiteRef, ...inherits('a readable job implies its run'), resolve: (r) => r.suite }),
    isRequired: t.boolean({
      description:
        "Whether the pull request's base branch rule requires this job's status context (`<workflow> / <job> (<event>)`), as its merge box shows.",
      args: { pullRequestId: t.arg.globalID(), pullRequestNumber: t.arg.int() },
      resolve: (r, args, ctx) => isRequiredFor(ctx, r.job.repoId, r.context, args),
    }),
  }),
});
tokenReadScope(CheckRunRef, 'repository');

builder.prismaObjectFields(WorkflowRunRef, (t) => ({
  workflow: t.field({
    type: WorkflowRef,
    ...inherits('a readable run implies its workflow (the same read policy)'),
    resolve: async (r, _a, ctx) => {
      const w = await workflows(ctx).load({ repoId: r.repoId, file: r.workflowId });
      if (!w) throw new NotFoundError('workflow does not exist', { runId: r.id });
      return w;
    },
  }),
  checkSuite: t.field({
    type: CheckSuiteRef,
    ...inherits('a run is its check suite'),
    resolve: async (r, _a, ctx) => {
      const s = await checkSuites(ctx).load(r.id);
      if (!s) throw new NotFoundError('run does not exist', { runId: r.id });
      return s;
    },
  }),
}));
