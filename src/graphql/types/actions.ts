// Gitea Actions in the graph with GitHub-ish names: Repository.workflowRuns (WorkflowRun, WorkflowJob, steps)
// and, for site admins, Query.runners (Runner) — the services and read policies of the REST actions routes.
import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import { actionRunReadWhere, canReadActions, runListWhere } from '../../services/actions/graphRead.ts';
import { listRunners, runnerLabels, runnerState } from '../../services/actions/runners.ts';
import { apiStatus } from '../../services/actions/status.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { bothNodePaths, withUserScalars } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';
import { dbId } from '../ids.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';

const StatusEnum = builder.enumType('WorkflowStatus', {
  description: "A run's, job's or step's progress (Gitea's API `status`).",
  values: { QUEUED: {}, WAITING: {}, IN_PROGRESS: {}, COMPLETED: {}, UNKNOWN: {} } as const,
});
const ConclusionEnum = builder.enumType('WorkflowConclusion', {
  description: 'How a finished run, job or step ended.',
  values: { SUCCESS: {}, FAILURE: {}, CANCELLED: {}, SKIPPED: {} } as const,
});
type Status = 'QUEUED' | 'WAITING' | 'IN_PROGRESS' | 'COMPLETED' | 'UNKNOWN';
type Conclusion = 'SUCCESS' | 'FAILURE' | 'CANCELLED' | 'SKIPPED';
const statusOf = (s: Models.ActionStatus) => apiStatus(s).status.toUpperCase() as Status;
const conclusionOf = (s: Models.ActionStatus) => (apiStatus(s).conclusion.toUpperCase() || null) as Conclusion | null;

const REPO = { repo: { select: { ownerName: true, name: true } } } as const;
const repoUrl = (ctx: GraphQLContext, r: { ownerName: string; name: string }) =>
  `${ctx.cx.config.rootUrl}${encodeURIComponent(r.ownerName)}/${encodeURIComponent(r.name)}`;
const apiUrl = (ctx: GraphQLContext, r: { ownerName: string; name: string }) =>
  `${ctx.cx.config.rootUrl}api/v1/repos/${encodeURIComponent(r.ownerName)}/${encodeURIComponent(r.name)}`;

const WorkflowStepRef = builder.prismaObject('ActionTaskStep', {
  name: 'WorkflowStep',
  description: "A step of a job's latest attempt.",
  fields: (t) => ({
    name: t.exposeString('name'),
    number: t.int({ description: '1-based, as GitHub.', resolve: (s) => s.index + 1 }),
    status: t.field({ type: StatusEnum, resolve: (s) => statusOf(s.status) }),
    conclusion: t.field({ type: ConclusionEnum, nullable: true, resolve: (s) => conclusionOf(s.status) }),
    startedAt: t.expose('started', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('stopped', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaObject('ActionRunJob', {
  name: 'WorkflowJob',
  description: 'A job of a workflow run.',
  fields: (t) => ({
    id: t.globalID({ resolve: (j) => ({ type: 'WorkflowJob', id: j.id }) }),
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    jobId: t.exposeString('jobId', { description: 'The job id in the workflow file.' }),
    headSha: t.exposeString('commitSha'),
    attempt: t.exposeInt('attempt'),
    status: t.field({ type: StatusEnum, resolve: (j) => statusOf(j.status) }),
    conclusion: t.field({ type: ConclusionEnum, nullable: true, resolve: (j) => conclusionOf(j.status) }),
    startedAt: t.expose('started', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('stopped', { type: 'DateTime', nullable: true }),
    runnerName: t.string({
      nullable: true,
      select: { task: { select: { runner: { select: { name: true } } } } },
      resolve: (j) => j.task?.runner?.name ?? null,
    }),
    steps: t.field({
      type: [WorkflowStepRef],
      description: "The latest attempt's steps, in order (empty before a runner picked the job up).",
      ...inherits('steps are part of a readable job (GET …/actions/jobs/{id})'),
      select: (_a, _c, nested) => ({ task: { select: { steps: { orderBy: { index: 'asc' as const }, ...nested(true) } } } }),
      resolve: (j) => j.task?.steps ?? [],
    }),
    url: t.string({ select: REPO, resolve: (j, _a, ctx) => `${repoUrl(ctx, j.repo)}/actions/runs/${j.runId}/jobs/${j.id}` }),
    logUrl: t.string({
      description: "The REST endpoint of the job's log (GET …/actions/jobs/{id}/logs).",
      select: REPO,
      resolve: (j, _a, ctx) => `${apiUrl(ctx, j.repo)}/actions/jobs/${j.id}/logs`,
    }),
  }),
});

export const WorkflowRunRef = builder.prismaNode('ActionRun', {
  name: 'WorkflowRun',
  description: 'A run of a workflow file, triggered by an event.',
  id: { field: 'id' },
  // node(id:): a run of a repository whose Actions the viewer cannot read is absent.
  ...filteredBy('actionRunReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [actionRunReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    runNumber: t.exposeInt('index', { description: "The repository's run number." }),
    runAttempt: t.exposeInt('attempt', { description: "The latest attempt's number (1-based; a re-run starts the next)." }),
    title: t.exposeString('title'),
    workflowId: t.exposeString('workflowId', { description: 'The workflow file name, e.g. build.yml.' }),
    event: t.exposeString('event'),
    status: t.field({ type: StatusEnum, resolve: (r) => statusOf(r.status) }),
    conclusion: t.field({ type: ConclusionEnum, nullable: true, resolve: (r) => conclusionOf(r.status) }),
    headSha: t.exposeString('commitSha'),
    headBranch: t.string({ nullable: true, resolve: (r) => (r.ref.startsWith('refs/heads/') ? r.ref.slice(11) : null) }),
    ref: t.exposeString('ref'),
    actor: t.field({
      type: UserRef,
      nullable: true,
      ...inherits('REST shows the actor with the run'),
      select: (_a, _c, nested) => ({ triggerUser: withUserScalars(nested(true)) }),
      resolve: (r) => r.triggerUser,
    }),
    startedAt: t.expose('started', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('stopped', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    url: t.field({ type: 'URI', select: REPO, resolve: (r, _a, ctx) => `${repoUrl(ctx, r.repo)}/actions/runs/${r.id}` }),
    jobs: t.relatedConnection('jobs', {
      cursor: 'id',
      totalCount: true,
      description: "The run's jobs, in creation order.",
      ...inherits('the jobs of a readable run (GET …/actions/runs/{id}/jobs)'),
      query: () => ({ orderBy: { id: 'asc' as const } }),
    }),
  }),
});
tokenReadScope(WorkflowRunRef, 'repository');

const runsConnection = prismaConnectionHelpers(builder, WorkflowRunRef, {
  cursor: 'id',
  args: (t) => ({
    status: t.string({ required: false, description: 'Gitea API status: pending, queued, in_progress, completed, success, failure, …' }),
    event: t.string({ required: false }),
    branch: t.string({ required: false }),
  }),
  query: (args) => ({ where: runListWhere(args), orderBy: { id: 'desc' as const } }),
});

builder.prismaObjectFields(RepositoryRef, (t) => ({
  workflowRuns: t.connection(
    {
      type: WorkflowRunRef,
      nullable: true,
      description: "Actions runs, newest first; null without read access to the Actions unit (as GET …/actions/runs's 404).",
      args: runsConnection.getArgs(),
      ...checkedBy('canReadActions'),
      select: (args, ctx, nestedSelection) => ({
        actionRuns: runsConnection.getQuery(args, ctx, bothNodePaths(nestedSelection)),
        _count: { select: { actionRuns: { where: runListWhere(args) } } },
      }),
      resolve: async (r, args, ctx) =>
        canReadActions(await ctx.cx.loaders.repoPermission.load(r.id))
          ? withTotal(runsConnection.resolve(r.actionRuns, args, ctx), r._count.actionRuns)
          : null,
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
}));

const RunnerStatusEnum = builder.enumType('RunnerStatus', {
  values: { IDLE: {}, ACTIVE: { description: 'Running a task.' }, OFFLINE: {} } as const,
});

const RunnerRef = builder.objectRef<Models.ActionRunner>('Runner').implement({
  description: 'An Actions runner (site admins).',
  fields: (t) => ({
    id: t.globalID({ resolve: (r) => ({ type: 'Runner', id: r.id }) }),
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    version: t.exposeString('version'),
    status: t.field({ type: RunnerStatusEnum, resolve: (r) => runnerState(r).toUpperCase() as 'IDLE' | 'ACTIVE' | 'OFFLINE' }),
    labels: t.stringList({ resolve: (r) => runnerLabels(r) }),
    disabled: t.exposeBoolean('isDisabled'),
    ephemeral: t.exposeBoolean('ephemeral'),
    ownerDatabaseId: t.int({ nullable: true, description: "The owner's id for an owner's runner.", resolve: (r) => r.ownerId }),
    repositoryDatabaseId: t.int({
      nullable: true,
      description: "The repository's id for a repository's runner.",
      resolve: (r) => r.repoId,
    }),
    lastOnlineAt: t.expose('lastOnline', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  runners: t.connection(
    {
      type: RunnerRef,
      description: "Every runner, in Gitea's order (site admins only: others get an error, as GET /admin/actions/runners).",
      args: { disabled: t.arg.boolean({ description: 'Only disabled (true) or enabled (false) runners.' }) },
      ...checkedBy('listRunners'),
      resolve: async (_root, args, ctx) => {
        let total = 0;
        const conn = await resolveOffsetConnection(
          { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
          async ({ offset, limit }) => {
            // The service pages a sorted in-memory list: ask for everything up to the window and cut it.
            const page = await listRunners(ctx.cx, 'admin', args.disabled ?? null, { page: 1, pageSize: offset + limit });
            total = page.total;
            return page.items.slice(offset);
          },
        );
        return { ...conn, total };
      },
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
}));
