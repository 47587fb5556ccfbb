import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBranchAndTagRefs } from '../../../src/git/remoteMirror.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';

/** Push mirrors: created with sealed credentials, pushed on demand, after a push (sync_on_commit) and listed. */
describe.each(PROVIDERS)('push mirrors (%s)', (provider) => {
  let remote: TestApp;
  let t: TestApp;
  let port: number;
  const asBob = basic('bob');

  beforeAll(async () => {
    remote = await startTestApp(provider);
    await remote.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (remote.app.server.server.address() as AddressInfo).port;
    t = await startTestApp(provider, { MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
    await remote.createUser('alice');
    await t.createUser('bob');
    await t.createUser('eve');
    expect((await remote.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'copy' } })).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/user/repos', { headers: asBob, body: { name: 'main', auto_init: true } })).statusCode).toBe(
      201,
    );
  });
  afterAll(async () => {
    await t?.close();
    await remote?.close();
  });

  const refs = (app: TestApp, owner: string, name: string) => readBranchAndTagRefs(repoPath(app.config.repositoriesDir, owner, name));

  it('creates, syncs on demand and on commit, lists, gets and deletes', async () => {
    const created = await t.request('POST', '/api/v1/repos/bob/main/push_mirrors', {
      headers: asBob,
      body: {
        remote_address: `http://127.0.0.1:${port}/alice/copy.git`,
        remote_username: 'alice',
        remote_password: PASSWORD,
        sync_on_commit: true,
        interval: '8h',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const mirror = created.json();
    expect(mirror).toMatchObject({
      repo_name: 'main',
      remote_address: `http://127.0.0.1:${port}/alice/copy.git`,
      interval: '8h0m0s',
      sync_on_commit: true,
    });
    expect(created.body).not.toContain(PASSWORD);
    const row = await t.db.pushMirror.findFirstOrThrow({});
    expect(row.credentialsEncrypted).not.toContain(PASSWORD);
    expect(row.credentialsEncrypted).not.toBe('');

    expect((await t.request('POST', '/api/v1/repos/bob/main/push_mirrors-sync', { headers: asBob })).statusCode).toBe(200);
    await t.app.jobs.drain();
    await remote.app.jobs.drain();
    expect(await refs(remote, 'alice', 'copy')).toEqual(await refs(t, 'bob', 'main'));
    expect((await t.db.pushMirror.findFirstOrThrow({})).lastError).toBe('');

    // A commit through the API is pushed by the follow-up of its push job.
    const commit = await t.request('POST', '/api/v1/repos/bob/main/contents/new.txt', { headers: asBob, body: { content: 'bmV3' } });
    expect(commit.statusCode, commit.body).toBe(201);
    await t.app.jobs.drain();
    await t.app.jobs.drain();
    expect((await refs(remote, 'alice', 'copy'))['refs/heads/main']).toBe(commit.json().commit.sha);

    const list = await t.request('GET', '/api/v1/repos/bob/main/push_mirrors', { headers: asBob });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toMatchObject([{ remote_name: mirror.remote_name }]);
    expect((await t.request('GET', '/api/v1/repos/bob/main/push_mirrors', { headers: basic('eve') })).statusCode).toBe(403);
    const one = await t.request('GET', `/api/v1/repos/bob/main/push_mirrors/${mirror.remote_name}`, { headers: asBob });
    expect(one.json()).toMatchObject({ remote_name: mirror.remote_name });
    expect((await t.request('DELETE', `/api/v1/repos/bob/main/push_mirrors/${mirror.remote_name}`, { headers: asBob })).statusCode).toBe(
      204,
    );
    expect((await t.request('GET', `/api/v1/repos/bob/main/push_mirrors/${mirror.remote_name}`, { headers: asBob })).statusCode).toBe(404);
  });

  it('refuses disallowed addresses and short intervals', async () => {
    const bad = await t.request('POST', '/api/v1/repos/bob/main/push_mirrors', {
      headers: asBob,
      body: { remote_address: 'https://10.0.0.1/x.git', interval: '1m' },
    });
    expect(bad.statusCode).toBe(400);
    t.config.migrations.allowLocalNetworks = false;
    try {
      const res = await t.request('POST', '/api/v1/repos/bob/main/push_mirrors', {
        headers: asBob,
        body: { remote_address: 'https://10.0.0.1/x.git' },
      });
      expect([res.statusCode, res.json().message]).toEqual([422, 'You can not import from disallowed hosts.']);
    } finally {
      t.config.migrations.allowLocalNetworks = true;
    }
  });
});
