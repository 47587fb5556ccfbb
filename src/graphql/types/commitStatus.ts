// GitHub's Commit.status and Commit.statusCheckRollup over Gitea's commit statuses (latest per context).
import { createContextCache } from '@pothos/core';
import type { CommitStatusView } from '../../services/status/commitStatus.ts';
import { combinedState } from '../../services/status/rollup.ts';
import { latestStatusesLoader } from '../../services/status/statusLoader.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import type { GraphQLContext } from '../context.ts';
import { inherits } from '../policy.ts';
import { totalOf } from '../totalCount.ts';
import { CommitRef, type CommitView } from './gitObject.ts';
import { UserRef } from './user.ts';

const latest = createContextCache((ctx: GraphQLContext) => latestStatusesLoader(ctx.cx.db));
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

const StatusContextRef = builder.objectRef<CommitStatusView>('StatusContext').implement({
  description: 'The latest status of one context of a commit.',
  fields: (t) => ({
    id: t.globalID({ resolve: (s) => ({ type: 'StatusContext', id: s.id }) }),
    databaseId: t.exposeInt('id'),
    context: t.exposeString('context'),
    state: t.field({ type: StatusStateEnum, resolve: (s) => s.state as State }),
    description: t.string({ nullable: true, resolve: (s) => s.description || null }),
    targetUrl: t.string({ nullable: true, resolve: (s) => s.targetUrl || null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    creator: t.field({
      type: UserRef,
      nullable: true,
      description: 'Null for statuses written by Actions or by a deleted account.',
      ...inherits('REST shows the creator with the status'),
      resolve: (s) => s.creator,
    }),
  }),
});

interface Statuses {
  commit: CommitView;
  contexts: CommitStatusView[];
}

const StatusRef = builder.objectRef<Statuses>('Status').implement({
  description: "A commit's combined status: the worst state of the latest status of each context.",
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

const StatusCheckRollupRef = builder.objectRef<Statuses>('StatusCheckRollup').implement({
  description: "The roll-up of a commit's checks (Gitea's latest statuses per context; Actions jobs report as statuses).",
  fields: (t) => ({
    state: t.field({ type: StatusStateEnum, resolve: (s) => combinedState(s.contexts) as State }),
    contexts: t.connection(
      {
        type: StatusContextRef,
        ...OF_COMMIT,
        resolve: (s, args) => arrayConnection(args, s.contexts, { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE }),
      },
      { name: 'StatusCheckRollupContextConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    ),
  }),
});

/** The latest statuses of a commit, or null without any (GitHub's null status). */
async function statusesOf(c: CommitView, ctx: GraphQLContext): Promise<Statuses | null> {
  const contexts = await latest(ctx).load({ repoId: c.repo.id, sha: c.oid });
  return contexts.length ? { commit: c, contexts } : null;
}

builder.objectFields(CommitRef, (t) => ({
  status: t.field({ type: StatusRef, nullable: true, ...OF_COMMIT, resolve: (c, _a, ctx) => statusesOf(c, ctx) }),
  statusCheckRollup: t.field({ type: StatusCheckRollupRef, nullable: true, ...OF_COMMIT, resolve: (c, _a, ctx) => statusesOf(c, ctx) }),
}));
