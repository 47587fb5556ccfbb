import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

describe.each(PROVIDERS)('REST /user/settings and /token (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol']) await t.createUser(n);
  });
  afterAll(() => t.close());

  it("reads and changes the viewer's settings; the privacy switches reach the user's public profile", async () => {
    const initial = await t.request('GET', '/api/v1/user/settings', { headers: basic('alice') });
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({
      full_name: '',
      website: '',
      description: '',
      location: '',
      language: '',
      theme: 'gitea-auto',
      diff_view_style: '',
      hide_email: false,
      hide_activity: false,
    });
    expect((await t.request('GET', '/api/v1/users/alice', { headers: basic('bob') })).json().email).toBe('alice@example.com');
    const wanted = {
      full_name: 'Alice Liddell',
      website: 'https://alice.example.com',
      description: 'down the rabbit hole',
      location: 'Oxford',
      language: 'en-GB',
      theme: 'gitea-dark',
      diff_view_style: 'unified',
      hide_email: true,
      hide_activity: true,
    };
    const res = await t.request('PATCH', '/api/v1/user/settings', { headers: basic('alice'), body: wanted });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(wanted);
    expect((await t.request('GET', '/api/v1/user/settings', { headers: basic('alice') })).json()).toEqual(wanted);
    const profile = (await t.request('GET', '/api/v1/users/alice', { headers: basic('bob') })).json();
    expect(profile.full_name).toBe('Alice Liddell');
    expect(profile.email).not.toBe('alice@example.com');
    const row = await t.db.user.findFirstOrThrow({ where: { lowerName: 'alice' } });
    expect({ private: row.keepEmailPrivate, activity: row.keepActivityPrivate, theme: row.theme }).toEqual({
      private: true,
      activity: true,
      theme: 'gitea-dark',
    });
    // Only given fields change.
    const partial = await t.request('PATCH', '/api/v1/user/settings', { headers: basic('alice'), body: { hide_email: false } });
    expect(partial.json()).toEqual({ ...wanted, hide_email: false });
  });

  it("answers Gitea's binding errors as 422 and refuses anonymous callers and tokens without the user scope", async () => {
    const patch = (body: unknown, headers: Record<string, string> = basic('bob')) =>
      t.request('PATCH', '/api/v1/user/settings', { headers, body });
    expectGiteaError(await patch({ website: 'not a url' }), 422, '[Website]: Url');
    expectGiteaError(await patch({ full_name: 'x'.repeat(101) }), 422, '[FullName]: MaxSize');
    expectGiteaError(await patch({ location: 'y'.repeat(51) }), 422, '[Location]: MaxSize');
    expectGiteaError(await patch({ language: 'english' }), 422, /Language/);
    expectGiteaError(await patch({ description: 'nul\u0000byte' }), 422);
    expect((await t.db.user.findFirstOrThrow({ where: { lowerName: 'bob' } })).fullName).toBe('');
    expectGiteaError(await t.request('GET', '/api/v1/user/settings'), 401, 'token is required');
    expectGiteaError(await patch({ full_name: 'Bob' }, {}), 401);
    const readUser = await t.createToken('bob', ['read:user']);
    expect((await t.request('GET', '/api/v1/user/settings', { headers: tokenAuth(readUser) })).statusCode).toBe(200);
    expectGiteaError(await patch({ full_name: 'Bob' }, tokenAuth(readUser)), 403, /required scope/);
    const noUser = await t.createToken('bob', ['read:repository']);
    expectGiteaError(await t.request('GET', '/api/v1/user/settings', { headers: tokenAuth(noUser) }), 403, /required scope/);
    const writeUser = await t.createToken('bob', ['write:user']);
    expect((await patch({ full_name: 'Bob' }, tokenAuth(writeUser))).json().full_name).toBe('Bob');
  });

  it('reads and revokes the token in use; without a personal token there is none (404)', async () => {
    const carol = await t.db.user.findFirstOrThrow({ where: { lowerName: 'carol' } });
    const keep = await t.createToken('carol', ['read:repository'], 'keep');
    const res = await t.request('GET', '/api/v1/token', { headers: tokenAuth(keep) });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.db.accessToken.findFirstOrThrow({ where: { userId: carol.id, name: 'keep' } });
    expect(res.json()).toMatchObject({ id: row.id, name: 'keep', scopes: ['read:repository'], user: { id: carol.id, login: 'carol' } });
    expect(Object.keys(res.json()).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'scopes', 'user']);
    expectGiteaError(await t.request('GET', '/api/v1/token', { headers: basic('carol') }), 404, 'invalid personal token');
    expectGiteaError(await t.request('GET', '/api/v1/token'), 404, 'invalid personal token');
    expectGiteaError(await t.request('DELETE', '/api/v1/token', { headers: basic('carol') }), 404, 'invalid personal token');

    const gone = await t.createToken('carol', ['read:user'], 'gone');
    expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(gone) })).statusCode).toBe(200);
    const del = await t.request('DELETE', '/api/v1/token', { headers: tokenAuth(gone) });
    expect({ status: del.statusCode, body: del.body }).toEqual({ status: 204, body: '' });
    expect(await t.db.accessToken.count({ where: { userId: carol.id, name: 'gone' } })).toBe(0);
    expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(gone) })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/v1/token', { headers: tokenAuth(keep) })).statusCode).toBe(200);
  });
});
