// User SSH keys: /user/keys, /users/{u}/keys and /admin/users/{u}/keys on both databases.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import * as repoCreate from '../../../src/services/repo/create.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { contextFor } from '../../helpers/org.ts';

let keyDir = '';
let counter = 0;
/** A fresh ed25519 public key line and ssh-keygen's fingerprint. */
function keygen(type = 'ed25519', bits?: number): { pub: string; fingerprint: string } {
  const file = path.join(keyDir, `k${++counter}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', `key${counter}@test`, '-f', file]);
  const pub = readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint =
    execFileSync('ssh-keygen', ['-lf', `${file}.pub`])
      .toString()
      .split(' ')[1] ?? '';
  return { pub, fingerprint };
}

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST user SSH keys (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  beforeAll(async () => {
    keyDir = mkdtempSync(path.join(tmpdir(), 'fg-ukeys-'));
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol']) users[n] = await t.createUser(n);
    users.hidden = await t.createUser('hidden', { visibility: 'PRIVATE' });
    users.root = await t.createUser('root', { admin: true });
    await repoCreate.createRepo(contextFor(t, users.alice!), { kind: 'viewer' }, { name: 'repo', private: true });
  });
  afterAll(async () => {
    await t.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('POST /user/keys adds a key: 201 PublicKey with the owner details; GET lists and gets it', async () => {
    const k = keygen();
    const res = await t.request('POST', '/api/v1/user/keys', { headers: as('alice'), body: { title: 'laptop', key: `${k.pub}\n` } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['id', 'key', 'url', 'title', 'fingerprint', 'created_at', 'last_used_at', 'user', 'key_type']);
    expect(body).toMatchObject({
      key: k.pub,
      url: `http://localhost:3000/api/v1/user/keys/${body.id}`,
      title: 'laptop',
      fingerprint: k.fingerprint,
      key_type: 'user',
      user: { login: 'alice' },
    });
    expect(body.read_only).toBeUndefined();
    const list = await t.request('GET', '/api/v1/user/keys', { headers: as('alice') });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toEqual([body]);
    const got = await t.request('GET', `/api/v1/user/keys/${body.id}`, { headers: as('alice') });
    expect(got.json()).toEqual(body);
    // Another signed-in user gets the key without its private information (Gitea GetPublicKey).
    const other = await t.request('GET', `/api/v1/user/keys/${body.id}`, { headers: as('bob') });
    expect(other.statusCode).toBe(200);
    expect(Object.keys(other.json())).toEqual(['id', 'key', 'url', 'title', 'fingerprint', 'created_at', 'last_used_at']);
    // Public listing, and the fingerprint filter.
    const pub = await t.request('GET', '/api/v1/users/alice/keys');
    expect(pub.statusCode).toBe(200);
    expect(pub.json().map((x: { id: number }) => x.id)).toEqual([body.id]);
    expect(pub.json()[0].user).toBeUndefined();
    const byFp = await t.request('GET', `/api/v1/users/alice/keys?fingerprint=${encodeURIComponent(k.fingerprint)}`, {
      headers: as('alice'),
    });
    expect(byFp.json()).toHaveLength(1);
    expect((await t.request('GET', '/api/v1/users/alice/keys?fingerprint=SHA256:nope')).json()).toEqual([]);
    expect(
      (await t.request('GET', `/api/v1/user/keys?fingerprint=${encodeURIComponent(k.fingerprint)}`, { headers: as('bob') })).json(),
    ).toEqual([]);
  });

  it("refuses invalid keys, duplicates and reused titles with Gitea's 422 messages", async () => {
    const k = keygen();
    expect((await t.request('POST', '/api/v1/user/keys', { headers: as('bob'), body: { title: 'one', key: k.pub } })).statusCode).toBe(201);
    const post = (viewer: string, body: unknown) => t.request('POST', '/api/v1/user/keys', { headers: as(viewer), body });
    expectGiteaError(await post('bob', { title: 'two', key: k.pub }), 422, 'Key content has been used as non-deploy key');
    expectGiteaError(await post('carol', { title: 'one', key: k.pub }), 422, 'Key content has been used as non-deploy key');
    expectGiteaError(await post('bob', { title: 'one', key: keygen().pub }), 422, 'Key title has been used');
    expectGiteaError(
      await post('bob', { title: 'x', key: keygen('rsa', 2048).pub }),
      422,
      'Invalid key content: key length is not enough: got 2048, needs 3071',
    );
    expectGiteaError(await post('bob', { title: 'x', key: 'ssh-ed25519 AAAA' }), 422, /^Invalid key content: /);
    expectGiteaError(await post('bob', { key: k.pub }), 422);
  });

  it('a user key never becomes a deploy key, and a deploy key never a user key', async () => {
    const userKey = keygen();
    expect(
      (await t.request('POST', '/api/v1/user/keys', { headers: as('alice'), body: { title: 'u2', key: userKey.pub } })).statusCode,
    ).toBe(201);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/repo/keys', { headers: as('alice'), body: { title: 'd', key: userKey.pub } }),
      422,
      'Key content has been used as non-deploy key',
    );
    const deployKey = keygen();
    expect(
      (await t.request('POST', '/api/v1/repos/alice/repo/keys', { headers: as('alice'), body: { title: 'd', key: deployKey.pub } }))
        .statusCode,
    ).toBe(201);
    expectGiteaError(
      await t.request('POST', '/api/v1/user/keys', { headers: as('alice'), body: { title: 'd2', key: deployKey.pub } }),
      422,
      'Key content has been used as non-deploy key',
    );
    // A deploy key's public key row is not a user key.
    const pk = await t.db.publicKey.findFirstOrThrow({ where: { fingerprint: deployKey.fingerprint } });
    expectGiteaError(await t.request('GET', `/api/v1/user/keys/${pk.id}`, { headers: as('alice') }), 404);
    expectGiteaError(await t.request('DELETE', `/api/v1/user/keys/${pk.id}`, { headers: as('alice') }), 404);
  });

  it('DELETE /user/keys/{id}: the owner 204, another user 403, unknown 404; anonymous 401', async () => {
    const k = keygen();
    const id = (await t.request('POST', '/api/v1/user/keys', { headers: as('carol'), body: { title: 'del', key: k.pub } })).json().id;
    expectGiteaError(
      await t.request('DELETE', `/api/v1/user/keys/${id}`, { headers: as('bob') }),
      403,
      'You do not have access to this key',
    );
    expectGiteaError(await t.request('DELETE', `/api/v1/user/keys/${id}`), 401, 'token is required');
    expectGiteaError(await t.request('GET', '/api/v1/user/keys'), 401, 'token is required');
    expectGiteaError(await t.request('POST', '/api/v1/user/keys', { body: { title: 'x', key: k.pub } }), 401);
    expect((await t.request('DELETE', `/api/v1/user/keys/${id}`, { headers: as('carol') })).statusCode).toBe(204);
    expectGiteaError(await t.request('DELETE', `/api/v1/user/keys/${id}`, { headers: as('carol') }), 404);
    expectGiteaError(await t.request('GET', `/api/v1/user/keys/${id}`, { headers: as('carol') }), 404);
    expectGiteaError(await t.request('GET', '/api/v1/user/keys/99999999999', { headers: as('carol') }), 404);
  });

  it('token scopes: read:user lists, write:user adds and deletes', async () => {
    const read = await t.createToken('carol', ['read:user']);
    const write = await t.createToken('carol', ['write:user']);
    const repoOnly = await t.createToken('carol', ['write:repository']);
    expect((await t.request('GET', '/api/v1/user/keys', { headers: tokenAuth(read) })).statusCode).toBe(200);
    expectGiteaError(await t.request('GET', '/api/v1/user/keys', { headers: tokenAuth(repoOnly) }), 403, /required=\[read:user\]/);
    const k = keygen();
    expectGiteaError(
      await t.request('POST', '/api/v1/user/keys', { headers: tokenAuth(read), body: { title: 'tk', key: k.pub } }),
      403,
      /write:user/,
    );
    const res = await t.request('POST', '/api/v1/user/keys', { headers: tokenAuth(write), body: { title: 'tk', key: k.pub } });
    expect(res.statusCode).toBe(201);
    expectGiteaError(await t.request('DELETE', `/api/v1/user/keys/${res.json().id}`, { headers: tokenAuth(read) }), 403);
    expect((await t.request('DELETE', `/api/v1/user/keys/${res.json().id}`, { headers: tokenAuth(write) })).statusCode).toBe(204);
  });

  it('GET /users/{u}/keys: an unknown or private user is 404 to those who may not see them', async () => {
    const k = keygen();
    await t.request('POST', '/api/v1/user/keys', { headers: as('hidden'), body: { title: 'h', key: k.pub } });
    expectGiteaError(await t.request('GET', '/api/v1/users/hidden/keys'), 404);
    expectGiteaError(await t.request('GET', '/api/v1/users/nobody/keys', { headers: as('bob') }), 404);
    expect((await t.request('GET', '/api/v1/users/hidden/keys', { headers: as('hidden') })).json()).toHaveLength(1);
    expect((await t.request('GET', '/api/v1/users/hidden/keys', { headers: as('root') })).json()).toHaveLength(1);
  });

  it("admin routes: site admins add and delete keys of a user; others 403; the key must be that user's", async () => {
    const k = keygen();
    expectGiteaError(
      await t.request('POST', '/api/v1/admin/users/bob/keys', { headers: as('alice'), body: { title: 'adm', key: k.pub } }),
      403,
      'user should be the site admin',
    );
    const res = await t.request('POST', '/api/v1/admin/users/bob/keys', { headers: as('root'), body: { title: 'adm', key: k.pub } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ title: 'adm', user: { login: 'bob' }, key_type: 'user' });
    expectGiteaError(
      await t.request('POST', '/api/v1/admin/users/nobody/keys', { headers: as('root'), body: { title: 'adm', key: keygen().pub } }),
      404,
    );
    const id = res.json().id;
    expectGiteaError(
      await t.request('DELETE', `/api/v1/admin/users/carol/keys/${id}`, { headers: as('root') }),
      403,
      'You do not have access to this key',
    );
    expectGiteaError(await t.request('DELETE', `/api/v1/admin/users/bob/keys/${id}`, { headers: as('bob') }), 403);
    const readAdmin = await t.createToken('root', ['read:admin']);
    expectGiteaError(await t.request('DELETE', `/api/v1/admin/users/bob/keys/${id}`, { headers: tokenAuth(readAdmin) }), 403);
    expect((await t.request('DELETE', `/api/v1/admin/users/bob/keys/${id}`, { headers: as('root') })).statusCode).toBe(204);
    expectGiteaError(await t.request('DELETE', `/api/v1/admin/users/bob/keys/${id}`, { headers: as('root') }), 404);
  });
});
