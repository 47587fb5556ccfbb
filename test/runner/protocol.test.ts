import { Code, ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationToken } from '../../src/services/actions/registrationTokens.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { listenBase, runnerClients, type Encoding } from './runnerClient.ts';

async function connectCode(p: Promise<unknown>): Promise<Code | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

/** The runner protocol (runner.v1 / ping.v1 over Connect) in both encodings, as act_runner speaks it. */
describe.each(PROVIDERS)('runner protocol (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let regToken: string;

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    regToken = await registrationToken(t.system, 'admin', 'write');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.each<Encoding>(['binary', 'json'])('%s', (encoding) => {
    it('Ping answers Hello, <data>!', async () => {
      const c = runnerClients(base, encoding);
      expect((await c.ping.ping({ data: 'runner' })).data).toBe('Hello, runner!');
    });

    it('Register makes a runner with a token; Declare stores labels; wrong tokens and unknown runners are unauthenticated', async () => {
      const c = runnerClients(base, encoding);
      const { runner } = await c
        .runner()
        .register({ name: `r-${encoding}`, token: regToken, version: 'v0.2.11', labels: ['ubuntu-latest:docker://node:20', 'linux'] });
      expect(runner?.name).toBe(`r-${encoding}`);
      expect(runner?.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(runner?.token).toMatch(/^[0-9a-f]{40}$/);
      expect(runner?.labels).toEqual(['ubuntu-latest', 'linux']);
      const uuid = runner?.uuid ?? '';
      const token = runner?.token ?? '';

      const declared = await c
        .runner({ uuid, token })
        .declare({ version: 'v0.3.0', labels: ['self-hosted'], capabilities: ['cancelling'] });
      expect(declared.runner?.labels).toEqual(['self-hosted']);
      expect(declared.runner?.version).toBe('v0.3.0');
      expect(declared.runner?.token).toBe('');
      const row = await t.db.actionRunner.findUniqueOrThrow({ where: { uuid } });
      expect(row.hasCancelling).toBe(true);
      expect(row.tokenHash).not.toContain(token);

      expect(await connectCode(c.runner({ uuid, token: '0'.repeat(40) }).fetchTask({}))).toBe(Code.Unauthenticated);
      expect(await connectCode(c.runner({ uuid: '00000000-0000-4000-8000-000000000000', token }).declare({}))).toBe(Code.Unauthenticated);
      expect(await connectCode(c.runner().fetchTask({}))).toBe(Code.Unauthenticated);
    });

    it('Register refuses a missing or unknown registration token', async () => {
      const c = runnerClients(base, encoding);
      expect(await connectCode(c.runner().register({ name: 'x', token: '' }))).toBe(Code.InvalidArgument);
      expect(await connectCode(c.runner().register({ name: 'x', token: 'f'.repeat(40) }))).toBe(Code.NotFound);
    });

    it('FetchTask answers a non-zero tasks_version and nothing again for the same version', async () => {
      const c = runnerClients(base, encoding);
      const { runner } = await c.runner().register({ name: `v-${encoding}`, token: regToken, labels: ['none-such'] });
      const as = { uuid: runner?.uuid ?? '', token: runner?.token ?? '' };
      const first = await c.runner(as).fetchTask({ tasksVersion: 0n });
      expect(first.tasksVersion).toBeGreaterThan(0n);
      expect(first.task).toBeUndefined();
      const again = await c.runner(as).fetchTask({ tasksVersion: first.tasksVersion });
      expect(again.tasksVersion).toBe(first.tasksVersion);
      expect(again.task).toBeUndefined();
    });

    it('UpdateTask and UpdateLog for a task that is not the runner’s are refused', async () => {
      const c = runnerClients(base, encoding);
      const { runner } = await c.runner().register({ name: `u-${encoding}`, token: regToken });
      const as = { uuid: runner?.uuid ?? '', token: runner?.token ?? '' };
      expect(await connectCode(c.runner(as).updateTask({ state: { id: 999999n, result: 1 } }))).toBe(Code.NotFound);
      expect(await connectCode(c.runner(as).updateLog({ taskId: 999999n, index: 0n, rows: [] }))).toBe(Code.NotFound);
    });
  });

  it('speaks binary protobuf and JSON on the wire; other paths are 404', async () => {
    const bin = await fetch(`${base}/api/actions/ping.v1.PingService/Ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/proto' },
      body: Buffer.from([0x0a, 0x02, 0x68, 0x69]),
    });
    expect(bin.status).toBe(200);
    expect(bin.headers.get('content-type')).toBe('application/proto');
    expect(Buffer.from(await bin.arrayBuffer()).toString('latin1')).toBe('\n\nHello, hi!');
    const json = await fetch(`${base}/api/actions/ping.v1.PingService/Ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: 'hi' }),
    });
    expect(await json.json()).toEqual({ data: 'Hello, hi!' });
    const unauth = await fetch(`${base}/api/actions/runner.v1.RunnerService/FetchTask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauth.status).toBe(401);
    expect(await unauth.json()).toEqual({ code: 'unauthenticated', message: 'unregistered runner' });
    const missing = await fetch(`${base}/api/actions/runner.v1.RunnerService/Nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(404);
  });
});

describe.each(PROVIDERS)('GITEA_RUNNER_REGISTRATION_TOKEN (%s)', (provider) => {
  it('seeds the instance registration token at start: the API hands it out and it registers runners', async () => {
    const seeded = 'seeded-registration-token-0123456789abcdef';
    const t = await startTestApp(provider, { GITEA_RUNNER_REGISTRATION_TOKEN: seeded });
    try {
      await t.createUser('root', { admin: true });
      const res = await t.request('POST', '/api/v1/admin/actions/runners/registration-token', { headers: basic('root') });
      expect(res.json()).toEqual({ token: seeded });
      const c = runnerClients(await listenBase(t), 'binary');
      const { runner } = await c.runner().register({ name: 'seeded', token: seeded });
      expect(runner?.name).toBe('seeded');
    } finally {
      await t.close();
    }
  });
});
