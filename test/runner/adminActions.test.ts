import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { listenBase, runnerClients } from './runnerClient.ts';

/** The admin runner, job and run endpoints with Gitea's bodies and errors (api_actions_runner_test.go testActionsRunnerAdmin). */
describe.each(PROVIDERS)('admin actions endpoints (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  const root = () => ({ headers: basic('root') });

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    await t.createUser('root', { admin: true });
    await t.createUser('plain');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the registration token is reused until replaced, and only for admins', async () => {
    const a = await t.request('POST', '/api/v1/admin/actions/runners/registration-token', root());
    expect(a.statusCode).toBe(200);
    const token = a.json<{ token: string }>().token;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    const b = await t.request('POST', '/api/v1/admin/actions/runners/registration-token', root());
    expect(b.json<{ token: string }>().token).toBe(token);
    const row = await t.db.actionRunnerToken.findFirstOrThrow({ where: { isActive: true } });
    expect(row.token).not.toBe(token);
    expect(row.tokenSeed).not.toBe(token);
    expect((await t.request('POST', '/api/v1/admin/actions/runners/registration-token', { headers: basic('plain') })).statusCode).toBe(403);
  });

  it("Gitea's deprecated GET /admin/runners/registration-token gives the same token, over HTTP and to gitea-js (issue #30)", async () => {
    const current = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', root())).json<{ token: string }>().token;
    const get = (path: string, user: string) => fetch(`${base}/api/v1${path}`, { headers: basic(user) });
    const res = await get('/admin/runners/registration-token', 'root');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ token: current });
    expect((await get('/admin/runners/registration-token', 'plain')).status).toBe(403);
    expect((await fetch(`${base}/api/v1/admin/runners/registration-token`)).status).toBe(401);
    // A read-only admin token may read it (GET), as on the actions/ path.
    const readOnly = await t.createToken('root', ['read:admin']);
    const api = giteaApi(base, { token: readOnly });
    const viaClient = await api.admin.adminGetRunnerRegistrationToken();
    expect([viaClient.status, viaClient.data]).toEqual([200, { token: current }]);
    const { paths } = (await t.request('GET', '/swagger.v1.json')).json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(paths['/admin/runners/registration-token']?.get).toMatchObject({
      operationId: 'adminGetRunnerRegistrationToken',
      deprecated: true,
    });
  });

  it('lists, gets, disables and deletes runners', async () => {
    const token = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', root())).json<{ token: string }>().token;
    const c = runnerClients(base, 'json');
    const { runner } = await c.runner().register({ name: 'runner_to_be_deleted', token, labels: ['runner_to_be_deleted', 'linux'] });
    await c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' }).fetchTask({});
    const id = Number(runner?.id);

    const list = await t.request('GET', '/api/v1/admin/actions/runners', root());
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBeUndefined();
    const body = list.json<{ runners: unknown[]; total_count: number }>();
    expect(body.total_count).toBe(1);
    expect(body.runners[0]).toEqual({
      id,
      name: 'runner_to_be_deleted',
      status: 'online',
      busy: false,
      disabled: false,
      ephemeral: false,
      labels: [
        { id: 0, name: 'runner_to_be_deleted', type: 'custom' },
        { id: 1, name: 'linux', type: 'custom' },
      ],
    });
    expect((await t.request('GET', `/api/v1/admin/actions/runners/${id}`, root())).json()).toEqual(body.runners[0]);

    const patch = (disabled: unknown) => t.request('PATCH', `/api/v1/admin/actions/runners/${id}`, { ...root(), body: { disabled } });
    for (let i = 0; i < 2; i++) expect((await patch(true)).json()).toMatchObject({ disabled: true });
    expect((await t.request('GET', '/api/v1/admin/actions/runners?disabled=true', root())).json()).toMatchObject({ total_count: 1 });
    expect((await t.request('GET', '/api/v1/admin/actions/runners?disabled=abc', root())).json()).toMatchObject({ total_count: 0 });
    for (let i = 0; i < 2; i++) expect((await patch(false)).json()).toMatchObject({ disabled: false });
    const missing = await t.request('PATCH', `/api/v1/admin/actions/runners/${id}`, { ...root(), body: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ message: '[Disabled]: Required' });

    expect((await t.request('DELETE', `/api/v1/admin/actions/runners/${id}`, root())).statusCode).toBe(204);
    const gone = await t.request('GET', `/api/v1/admin/actions/runners/${id}`, root());
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ message: `runner with id ${id}: resource does not exist` });
    expect((await t.request('DELETE', `/api/v1/admin/actions/runners/${id}`, root())).statusCode).toBe(404);
    expect((await t.request('GET', '/api/v1/admin/actions/runners/abc', root())).json()).toMatchObject({
      message: 'runner with id 0: resource does not exist',
    });
    // A deleted runner's calls are unauthenticated.
    await expect(c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' }).fetchTask({})).rejects.toThrow(/unregistered runner/);
  });

  it('answers the jobs and runs filters with Gitea’s errors', async () => {
    const bad = await t.request('GET', '/api/v1/admin/actions/jobs?status=bogus', root());
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'invalid status bogus' });
    const sort = await t.request('GET', '/api/v1/admin/actions/jobs?sort=name', root());
    expect(sort.statusCode).toBe(422);
    expect(sort.json()).toMatchObject({ message: 'Invalid sort mode: "name"' });
    const order = await t.request('GET', '/api/v1/admin/actions/jobs?sort=id&order=up', root());
    expect(order.statusCode).toBe(422);
    expect(order.json()).toMatchObject({ message: 'Invalid sort order: "up"' });
    expect((await t.request('GET', '/api/v1/admin/actions/jobs?order=up', root())).statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/admin/actions/runs?status=nope', root())).json()).toMatchObject({
      message: 'invalid status nope',
    });
    const empty = await t.request('GET', '/api/v1/admin/actions/runs', root());
    expect(empty.json()).toEqual({ workflow_runs: [], total_count: 0 });
    expect(empty.headers['x-total-count']).toBe('0');
    expect((await t.request('GET', '/api/v1/admin/actions/jobs', { headers: basic('plain') })).statusCode).toBe(403);
  });
});
