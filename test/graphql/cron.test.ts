import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql, mutationError } from '../helpers/graphql.ts';

interface CronTask {
  name: string;
  schedule: string;
  enabled: boolean;
  nextRunAt: string | null;
  lastRunAt: string | null;
  execTimes: number;
  running: boolean;
  lastStatus: string;
  lastMessage: string;
  lastError: string;
}

const FIELDS = 'name schedule enabled nextRunAt lastRunAt execTimes running lastStatus lastMessage lastError lastDurationMs lastFinishedAt';
const RUN = `mutation($input: RunCronTaskInput!) { runCronTask(input: $input) { __typename clientMutationId cronTask { ${FIELDS} } } }`;

describe.each(PROVIDERS)('GraphQL cron tasks (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
  });
  afterAll(() => t.close());

  it('cronTasks lists the 29 tasks for a site admin, with the same state as REST', async () => {
    const res = await gql<{ cronTasks: CronTask[] }>(t, `{ cronTasks { ${FIELDS} } }`, { headers: basic('root') });
    expect(res.errors).toBeUndefined();
    const tasks = res.data?.cronTasks ?? [];
    expect(tasks).toHaveLength(29);
    expect(tasks[0]).toMatchObject({
      name: 'update_mirrors',
      schedule: '@every 10m',
      enabled: true,
      execTimes: 0,
      lastStatus: 'NONE',
      running: false,
    });
    expect(tasks.find((c) => c.name === 'git_gc_repos')).toMatchObject({ schedule: '@every 72h', enabled: false, nextRunAt: null });
    const rest = (await t.request('GET', '/api/v1/admin/cron?limit=50', { headers: basic('root') })).json() as Array<{
      name: string;
      next: string;
    }>;
    expect(tasks.map((c) => c.name)).toEqual(rest.map((c) => c.name));
    // REST renders whole seconds.
    expect(Math.floor(Date.parse(tasks[0]?.nextRunAt ?? '') / 1000) * 1000).toBe(Date.parse(rest[0]?.next ?? ''));
  });

  it('runCronTask runs a task and returns its run record; REST sees the run', async () => {
    const res = await gql<{ runCronTask: { __typename: string; clientMutationId: string; cronTask: CronTask } }>(t, RUN, {
      variables: { input: { name: 'deleted_branches_cleanup', clientMutationId: 'c1' } },
      headers: basic('root'),
    });
    expect(res.errors).toBeUndefined();
    const out = res.data?.runCronTask;
    expect(out).toMatchObject({ __typename: 'RunCronTaskPayload', clientMutationId: 'c1' });
    expect(out?.cronTask).toMatchObject({
      name: 'deleted_branches_cleanup',
      execTimes: 1,
      lastStatus: 'SUCCESS',
      running: false,
      lastError: '',
    });
    expect(out?.cronTask.lastMessage).toBe('removed 0 deleted branch record(s) older than 24h');
    const rest = (await t.request('GET', '/api/v1/admin/cron?limit=50', { headers: basic('root') })).json() as Array<{
      name: string;
      exec_times: number;
      prev: string;
    }>;
    const entry = rest.find((c) => c.name === 'deleted_branches_cleanup');
    expect(entry?.exec_times).toBe(1);
    expect(Date.parse(entry?.prev ?? '')).toBe(Math.floor(Date.parse(out?.cronTask.lastRunAt ?? '') / 1000) * 1000);
  });

  it('an unknown task is NOT_FOUND; non-admins get PERMISSION_DENIED (FORBIDDEN), anonymous UNAUTHENTICATED', async () => {
    const run = async (name: string, headers: Record<string, string>) =>
      mutationError(await gql<{ runCronTask: unknown }>(t, RUN, { variables: { input: { name } }, headers }), 'runCronTask');
    expect(await run('nope', basic('root'))).toMatchObject({ code: 'NOT_FOUND', type: 'NOT_FOUND' });
    expect(await run('archive_cleanup', basic('alice'))).toMatchObject({ code: 'PERMISSION_DENIED', type: 'FORBIDDEN' });
    expect(await run('archive_cleanup', {})).toMatchObject({ code: 'UNAUTHENTICATED' });
    const readOnly = tokenAuth(await t.createToken('root', ['read:admin']));
    expect(await run('archive_cleanup', readOnly)).toMatchObject({ code: 'PERMISSION_DENIED' });
    const list = await gql<{ cronTasks: CronTask[] | null }>(t, '{ cronTasks { name } }', { headers: basic('alice') });
    expect(list.data).toBeNull();
    expect(errorCodes(list)).toEqual(['PERMISSION_DENIED']);
    expect((await t.db.cronTask.findUniqueOrThrow({ where: { name: 'archive_cleanup' } })).execTimes).toBe(0);
  });
});
