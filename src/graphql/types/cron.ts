import * as cronService from '../../services/cron/cron.ts';
import { builder } from '../builder.ts';
import { checkedBy } from '../policy.ts';
import { writeScope } from '../tokenWriteScopes.ts';

const CronRunStatusEnum = builder.enumType('CronRunStatus', {
  description: 'Outcome of the last finished run of a cron task.',
  values: {
    NONE: { description: 'Never ran.' },
    SUCCESS: { description: 'Finished its work.' },
    ERROR: { description: 'Failed; see lastError (a system notice was added too).' },
    SKIPPED: { description: 'Its subsystem had nothing it could act on; lastMessage says why.' },
  },
});

const CronTaskRef = builder.objectRef<cronService.CronTaskView>('CronTask').implement({
  description: "One of Gitea's cron tasks: its schedule and the state of its runs (as GET /api/v1/admin/cron, with more detail).",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The task name, e.g. `update_mirrors`.' }),
    description: t.exposeString('description'),
    schedule: t.exposeString('schedule', { description: 'The configured schedule (`@every 10m`, `@midnight`, or a cron expression).' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the scheduler runs it; a disabled task can still be run by hand.' }),
    nextRunAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The next scheduled run; null when disabled.',
      resolve: (c) => c.next,
    }),
    lastRunAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Start of the last run, scheduled or manual.',
      resolve: (c) => c.prev,
    }),
    execTimes: t.exposeInt('execTimes', { description: 'How many times it ran.' }),
    running: t.exposeBoolean('running', { description: 'Whether it is running now (on any instance).' }),
    lastStatus: t.field({ type: CronRunStatusEnum, resolve: (c) => c.lastStatus }),
    lastMessage: t.exposeString('lastMessage', { description: 'What the last run did, or why it had nothing to do.' }),
    lastError: t.exposeString('lastError', { description: 'The error of the last run; empty when it did not fail.' }),
    lastFinishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.lastFinishedAt }),
    lastDurationMs: t.exposeInt('lastDurationMs', { description: 'How long the last run took, in milliseconds.' }),
  }),
});

builder.queryField('cronTasks', (t) =>
  t.field({
    type: [CronTaskRef],
    description: "Gitea's cron tasks in its order, disabled ones included (site admins only).",
    ...checkedBy('listCronTasks (site admins)'),
    resolve: async (_root, _args, ctx) => (await cronService.listCronTasks(ctx.cx)).items,
  }),
);

builder.relayMutationField(
  'runCronTask',
  { inputFields: (t) => ({ name: t.string({ required: true, description: 'The task name (case-sensitive).' }) }) },
  {
    description:
      'Run a cron task now and wait for it (as POST /api/v1/admin/cron/{task}); when it is already running, it is not started again. Site admins only.',
    ...writeScope('admin'),
    resolve: (_root, { input }, ctx) => cronService.runCronTask(ctx.cx, input.name),
  },
  { outputFields: (t) => ({ cronTask: t.field({ type: CronTaskRef, resolve: (task) => task }) }) },
);
