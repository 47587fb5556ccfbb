// GitHub's Commit.status over Gitea's commit statuses (latest per context), and Commit.statusCheckRollup over those
// statuses and the commit's Actions jobs as check runs (checkRun.ts).
import { createContextCache } from '@pothos/core';
import type { CommitStatusView } from '../../services/status/commitStatus.ts';
import { combinedState } from '../../services/status/rollup.ts';
import { commitCheckRunsLoader, type CheckRunView } from '../../services/actions/checkRuns.ts';
import { latestStatusesLoader, statusesById } from '../../services/status/statusLoader.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import type { GraphQLContext } from '../context.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { dbId } from '../ids.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { totalOf } from '../totalCount.ts';
import { checkConclusionOf, checkStatusOf, CheckRunRef, isRequiredFor } from './checkRun.ts';
import { CommitRef, loadGitObjects, type CommitView } from './gitObject.ts';
import { ActorRef } from './repositoryOwner.ts';

const latest = createContextCache((ctx: GraphQLContext) => latestStatusesLoader(ctx.cx.db));
const checkRuns = createContextCache((ctx: GraphQLContext) => commitCheckRunsLoader(ctx.cx));
const OF_COMMIT = inherits('statuses are readable with the commit (code read, as GET …/commits/{ref}/status)');

const StatusStateEnum = builder.enumType('StatusState', {
  description: "GitHub's StatusState, plus Gitea's WARNING.",
  values: {
    ERROR: { value: 'error' },
    EXPECTED: { value: 'expected', description: 'Never returned: Gitea has no expected statuses.' },
    FAILURE: { value: 'failure' },
    PENDING: { value: 'pending' },
    SUCCESS: { value: 'success' },
    WARNING: { value: 'warning', description: 'Gitea only.' },
  } as const,
});
type State = 'error' | 'expected' | 'failure' | 'pending' | 'success' | 'warning';

const StatusContextRef = builder.objectRef<CommitStatusView>('StatusContext');
builder.node(StatusContextRef, {
  description: 'The latest status of one context of a commit.',
  // node(id:): a status of a repository whose code the viewer can read (services/status/statusLoader.ts statusesById).
  ...filteredBy('repoReadWhere'),
  id: { resolve: (s) => s.id },
  loadMany: (ids, ctx) => statusesById(ctx.cx, ids.map(dbId)),
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    context: t.exposeString('context'),
    state: t.field({ type: StatusStateEnum, resolve: (s) => s.state as State }),
    description: t.string({ nullable: true, resolve: (s) => s.description || null }),
    targetUrl: t.field({ type: 'URI', nullable: true, resolve: (s) => s.targetUrl || null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    creator: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Null for statuses written by Actions or by a deleted account.',
      ...inherits('REST shows the creator with the status'),
      resolve: (s) => s.creator,
    }),
    isRequired: t.boolean({
      description:
        "Whether the pull request's base branch rule requires this context (a glob of its required contexts matches), as its merge box shows.",
      args: { pullRequestId: t.arg.globalID(), pullRequestNumber: t.arg.int() },
      resolve: (s, args, ctx) => isRequiredFor(ctx, s.repoId, s.context, args),
    }),
  }),
});

interface Statuses {
  commit: CommitView;
  contexts: CommitStatusView[];
}

/** A commit's Status and StatusCheckRollup have the commit's key in their global ids: `<repository id>:<oid>`. */
const OF_COMMIT_NODE = {
  ...filteredBy('repoReadWhere'),
  id: { resolve: (s: { commit: CommitView }) => `${s.commit.repo.id}:${s.commit.oid}` },
} as const;

const StatusRef = builder.objectRef<Statuses>('Status');
builder.node(StatusRef, {
  description: "A commit's combined status: the worst state of the latest status of each context.",
  ...OF_COMMIT_NODE,
  loadMany: async (ids, ctx) => Promise.all((await loadGitObjects(ctx, ids, 'commit')).map((c) => (c ? statusesOf(c, ctx) : null))),
  fields: (t) => ({
    state: t.field({ type: StatusStateEnum, resolve: (s) => combinedState(s.contexts) as State }),
    contexts: t.field({ type: [StatusContextRef], ...OF_COMMIT, resolve: (s) => s.contexts }),
    context: t.field({
      type: StatusContextRef,
      nullable: true,
      args: { name: t.arg.string({ required: true }) },
      ...OF_COMMIT,
      resolve: (s, args) => s.contexts.find((c) => c.context === args.name) ?? null,
    }),
  }),
});

/** A commit's check roll-up: statuses, and Actions jobs as check runs. */
interface Rollup {
  commit: CommitView;
  /** The latest status of each context, except those an Actions job of `checkRuns` writes (it stands for them). */
  statuses: CommitStatusView[];
  checkRuns: CheckRunView[];
}

type RollupContext = CommitStatusView | CheckRunView;

const StatusCheckRollupContextUnion = builder.unionType('StatusCheckRollupContext', {
  description: 'A status of a commit, or an Actions job as a check run.',
  types: [CheckRunRef, StatusContextRef],
  resolveType: (c) => ('job' in c ? CheckRunRef : StatusContextRef),
});

type CheckRunState = 'COMPLETED' | 'IN_PROGRESS' | 'PENDING' | 'QUEUED' | 'WAITING' | 'CANCELLED' | 'FAILURE' | 'SKIPPED' | 'SUCCESS';

const CheckRunStateEnum = builder.enumType('CheckRunState', {
  description: "A check run's conclusion once finished, else its status (for counts by state).",
  values: {
    ACTION_REQUIRED: { description: 'Never returned here.' },
    CANCELLED: {},
    COMPLETED: { description: 'Never returned here: a finished run counts by its conclusion.' },
    FAILURE: {},
    IN_PROGRESS: {},
    NEUTRAL: { description: 'Never returned here.' },
    PENDING: {},
    QUEUED: {},
    SKIPPED: {},
    STALE: { description: 'Never returned here.' },
    STARTUP_FAILURE: { description: 'Never returned here.' },
    SUCCESS: {},
    TIMED_OUT: { description: 'Never returned here.' },
    WAITING: {},
  } as const,
});

const checkRunStateOf = (r: CheckRunView): CheckRunState => checkConclusionOf(r.job.status) ?? checkStatusOf(r.job.status);

/** How a check run counts in the roll-up's state (as the commit status Gitea writes for a job). */
function statusStateOfCheckRun(r: CheckRunView): State {
  const conclusion = checkConclusionOf(r.job.status);
  if (!conclusion) return 'pending';
  return conclusion === 'SUCCESS' || conclusion === 'SKIPPED' ? 'success' : 'failure';
}

/** Counts by state, in first-seen order. */
function countBy<T, K>(items: readonly T[], key: (item: T) => K): { state: K; count: number }[] {
  const counts = new Map<K, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([state, count]) => ({ state, count }));
}

const CheckRunStateCountRef = builder.objectRef<{ state: CheckRunState; count: number }>('CheckRunStateCount').implement({
  description: 'How many check runs are in a state.',
  fields: (t) => ({ count: t.exposeInt('count'), state: t.field({ type: CheckRunStateEnum, resolve: (c) => c.state }) }),
});

const StatusContextStateCountRef = builder.objectRef<{ state: State; count: number }>('StatusContextStateCount').implement({
  description: 'How many statuses are in a state.',
  fields: (t) => ({ count: t.exposeInt('count'), state: t.field({ type: StatusStateEnum, resolve: (c) => c.state }) }),
});

const StatusCheckRollupRef = builder.objectRef<Rollup>('StatusCheckRollup');
builder.node(StatusCheckRollupRef, {
  ...OF_COMMIT_NODE,
  loadMany: async (ids, ctx) => Promise.all((await loadGitObjects(ctx, ids, 'commit')).map((c) => (c ? loadRollup(c, ctx) : null))),
  description:
    "The roll-up of a commit's checks: the latest status of each context, and the commit's Actions jobs as check runs (to viewers who can read the Actions unit; for others those jobs stay the statuses they write).",
  fields: (t) => ({
    state: t.field({
      type: StatusStateEnum,
      description: 'The worst state of the statuses and check runs (a check run counts as the status Gitea writes for it).',
      resolve: (r) => combinedState([...r.statuses, ...r.checkRuns.map((c) => ({ state: statusStateOfCheckRun(c) }))]) as State,
    }),
    commit: t.field({ type: CommitRef, nullable: true, ...OF_COMMIT, resolve: (r) => r.commit }),
    contexts: t.connection(
      {
        type: StatusCheckRollupContextUnion,
        description: 'The statuses (by context, in creation order), then the check runs (in job order).',
        ...checkedBy('canReadActions (check runs, in commitCheckRunsLoader); statuses are readable with the commit'),
        resolve: (r, args) => {
          const items: RollupContext[] = [...r.statuses, ...r.checkRuns];
          return Object.assign(arrayConnection(args, items, { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE }), {
            rollup: r,
          });
        },
      },
      {
        name: 'StatusCheckRollupContextConnection',
        fields: (c) => ({
          totalCount: c.int({ resolve: totalOf }),
          checkRunCount: c.int({ resolve: (conn) => rollupOf(conn).checkRuns.length }),
          checkRunCountsByState: c.field({
            type: [CheckRunStateCountRef],
            nullable: true,
            ...inherits('counts of the check runs listed'),
            resolve: (conn) => countBy(rollupOf(conn).checkRuns, checkRunStateOf),
          }),
          statusContextCount: c.int({ resolve: (conn) => rollupOf(conn).statuses.length }),
          statusContextCountsByState: c.field({
            type: [StatusContextStateCountRef],
            nullable: true,
            ...inherits('counts of the statuses listed'),
            resolve: (conn) => countBy(rollupOf(conn).statuses, (s) => s.state as State),
          }),
        }),
      },
      { name: 'StatusCheckRollupContextEdge' },
    ),
  }),
});

/** The roll-up a contexts connection was made from (kept on the connection object). */
function rollupOf(conn: object): Rollup {
  return (conn as { rollup: Rollup }).rollup;
}

/** The latest statuses of a commit, or null without any (GitHub's null status). */
async function statusesOf(c: CommitView, ctx: GraphQLContext): Promise<Statuses | null> {
  const contexts = await latest(ctx).load({ repoId: c.repo.id, sha: c.oid });
  return contexts.length ? { commit: c, contexts } : null;
}

/**
 * The roll-up of a commit, or null with neither statuses nor readable check runs. A job's own commit status (no
 * creator, its context) is left out where the job is listed as a check run, so nothing is counted twice.
 */
async function loadRollup(c: CommitView, ctx: GraphQLContext): Promise<Rollup | null> {
  const key = { repoId: c.repo.id, sha: c.oid };
  const [contexts, runs] = await Promise.all([latest(ctx).load(key), checkRuns(ctx).load(key)]);
  const standIns = new Set(runs.filter((r) => r.reportsStatus).map((r) => r.context));
  const statuses = contexts.filter((s) => !(s.creatorId === null && standIns.has(s.context)));
  return statuses.length || runs.length ? { commit: c, statuses, checkRuns: runs } : null;
}

builder.objectFields(CommitRef, (t) => ({
  status: t.field({ type: StatusRef, nullable: true, ...OF_COMMIT, resolve: (c, _a, ctx) => statusesOf(c, ctx) }),
  statusCheckRollup: t.field({ type: StatusCheckRollupRef, nullable: true, ...OF_COMMIT, resolve: (c, _a, ctx) => loadRollup(c, ctx) }),
}));
tokenReadScope(StatusContextRef, 'repository');
tokenReadScope(StatusRef, 'repository');
tokenReadScope(StatusCheckRollupRef, 'repository');
