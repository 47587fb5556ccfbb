import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../helpers/db.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';

describe.each(PROVIDERS)('renamed repositories redirect (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'old-name', auto_init: true } })).statusCode,
    ).toBe(201);
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'hidden', private: true } })).statusCode,
    ).toBe(201);
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/old-name', { headers: basic('alice'), body: { name: 'new-name' } })).statusCode,
    ).toBe(200);
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/hidden', { headers: basic('alice'), body: { name: 'hidden2' } })).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close());

  it('the old path answers 301 to the same path under the new name, query kept', async () => {
    const res = await t.request('GET', '/api/v1/repos/alice/old-name/branches?limit=1');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/api/v1/repos/alice/new-name/branches?limit=1');
    const follow = await t.request('GET', '/api/v1/repos/alice/new-name');
    expect(follow.json().name).toBe('new-name');
  });

  it('a private repository stays invisible under its old name', async () => {
    expect((await t.request('GET', '/api/v1/repos/alice/hidden', { headers: basic('bob') })).statusCode).toBe(404);
    const owner = await t.request('GET', '/api/v1/repos/alice/hidden', { headers: basic('alice') });
    expect(owner.statusCode).toBe(301);
    expect(owner.headers.location).toBe('/api/v1/repos/alice/hidden2');
  });
});

describe.each(PROVIDERS)('path resources are resolved before the body is bound (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    await t.createUser('stranger');
    await t.createUser('root', { admin: true });
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name: 'private-one', private: true } })).statusCode,
    ).toBe(201);
  });
  afterAll(() => t.close());

  it('a stranger with a malformed body on a private repository gets 404, not 422', async () => {
    const res = await t.request('PATCH', '/api/v1/repos/owner/private-one', {
      headers: basic('stranger'),
      body: { archived: 'not-a-bool' },
    });
    expect(res.statusCode).toBe(404);
    const label = await t.request('POST', '/api/v1/repos/owner/private-one/labels', { headers: basic('stranger'), body: {} });
    expect(label.statusCode).toBe(404);
  });

  it('the owner with the same body gets the validation error', async () => {
    const res = await t.request('PATCH', '/api/v1/repos/owner/private-one', { headers: basic('owner'), body: { archived: 'not-a-bool' } });
    expect(res.statusCode).toBe(422);
  });

  it('an admin editing an unknown user with a bad body gets 404 (Gitea resolves the user first)', async () => {
    const res = await t.request('PATCH', '/api/v1/admin/users/nobody', { headers: basic('root'), body: {} });
    expect(res.statusCode).toBe(404);
  });
});
