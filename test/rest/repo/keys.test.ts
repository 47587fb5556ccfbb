import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import * as repoCreate from '../../../src/services/repo/create.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, contextFor, createOrgAs } from '../../helpers/org.ts';

const KEY_FIELDS = ['id', 'key_id', 'key', 'url', 'title', 'fingerprint', 'created_at', 'read_only'];

/** A key pair made by the real ssh-keygen: the public line and `ssh-keygen -lf`'s fingerprint. */
interface GeneratedKey {
  pub: string;
  fingerprint: string;
  privateKey: string;
}

let keyDir = '';
let counter = 0;
function keygen(type: string, bits?: number): GeneratedKey {
  const file = path.join(keyDir, `k${++counter}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', `key${counter}@test`, '-f', file]);
  const pub = readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint =
    execFileSync('ssh-keygen', ['-lf', `${file}.pub`])
      .toString()
      .split(' ')[1] ?? '';
  return { pub, fingerprint, privateKey: readFileSync(file, 'utf8') };
}

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST deploy keys (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];
  let ed: GeneratedKey;
  let rsa: GeneratedKey;
  let ecdsa: GeneratedKey;

  /** Creates a repository through the repository service (real bare git directory; an organization's by `creator`). */
  async function repo(creator: Models.User, name: string, isPrivate: boolean, org?: string): Promise<Models.Repository> {
    const ref: repoCreate.RepoOwnerRef = org ? { kind: 'org', org } : { kind: 'viewer' };
    return (await repoCreate.createRepo(contextFor(t, creator), ref, { name, private: isPrivate })).repo;
  }
  const collab = (r: Models.Repository, u: Models.User, mode: Models.AccessMode) => addCollaborator(t, r, u, mode);
  const post = (viewer: string, path: string, body: unknown) =>
    t.request('POST', `/api/v1/repos/${path}/keys`, { headers: as(viewer), body });

  beforeAll(async () => {
    keyDir = mkdtempSync(path.join(tmpdir(), 'fg-keys-'));
    ed = keygen('ed25519');
    rsa = keygen('rsa', 3072);
    ecdsa = keygen('ecdsa', 384);
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'adminc', 'outsider', 'orgowner', 'member']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    const org = await createOrgAs(t, users.orgowner!, 'acme');
    await addMember(t, org, users.member!);
    for (const r of [
      await repo(users.alice!, 'pub', false),
      await repo(users.alice!, 'priv', true),
      await repo(users.orgowner!, 'orepo', true, 'acme'),
    ]) {
      await collab(r, users.reader!, 'READ');
      await collab(r, users.writer!, 'WRITE');
      await collab(r, users.adminc!, 'ADMIN');
    }
    await repo(users.alice!, 'other', false);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(async () => {
    await t.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('TestCreateDeployKeyNoLogin: anonymous on a public repository gets 401 on every key route; on a private one 404', async () => {
    expectGiteaError(await post('anon', 'alice/pub', { title: 'k', key: ed.pub }), 401, 'token is required');
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/pub/keys'), 401, 'token is required');
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/pub/keys/1'), 401, 'token is required');
    expectGiteaError(await t.request('DELETE', '/api/v1/repos/alice/pub/keys/1'), 401, 'token is required');
    expectGiteaError(await post('anon', 'alice/priv', { title: 'k', key: ed.pub }), 404);
    expectGiteaError(await post('alice', 'alice/nope', { title: 'k', key: ed.pub }), 404);
  });

  it('TestCreateReadOnlyDeployKey: rsa 3072, read_only → 201 with ssh-keygen fingerprint; GET by id; another repo → 404', async () => {
    const res = await post('alice', 'alice/pub', { title: 'read-only', key: rsa.pub, read_only: true });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body)).toEqual(KEY_FIELDS);
    expect(body).toMatchObject({
      title: 'read-only',
      key: rsa.pub,
      fingerprint: rsa.fingerprint,
      read_only: true,
      url: `http://localhost:3000/api/v1/repos/alice/pub/keys/${body.id}`,
    });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const row = await t.db.deployKey.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ mode: 'READ', keyId: body.key_id, name: 'read-only', fingerprint: rsa.fingerprint });
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events).toContainEqual({ type: 'repo.deployKeyAdded', repoId: row.repoId, keyId: row.id, actorId: users.alice!.id });
    const got = await t.request('GET', `/api/v1/repos/alice/pub/keys/${body.id}`, { headers: as('alice') });
    expect(got.statusCode).toBe(200);
    // The owning user sees the repository (Gitea appendPrivateInformation).
    expect(got.json()).toMatchObject({ ...body, repository: { full_name: 'alice/pub' } });
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/other/keys/${body.id}`, { headers: as('alice') }), 404, 'not found');
    expectGiteaError(await t.request('DELETE', `/api/v1/repos/alice/other/keys/${body.id}`, { headers: as('alice') }), 404);
  });

  it('TestCreateReadWriteDeployKey: ed25519 and ecdsa, read_only defaults to false (write)', async () => {
    for (const key of [ed, ecdsa]) {
      const res = await post('alice', 'alice/priv', { title: `rw-${key.fingerprint.slice(7, 12)}`, key: `  ${key.pub}\r\n` });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ key: key.pub, fingerprint: key.fingerprint, read_only: false });
      expect((await t.db.deployKey.findUniqueOrThrow({ where: { id: res.json().id } })).mode).toBe('WRITE');
    }
  });

  it("refuses invalid keys with Gitea's 422 messages", async () => {
    const small = keygen('rsa', 2048);
    expectGiteaError(
      await post('alice', 'alice/pub', { title: 'small', key: small.pub }),
      422,
      'Invalid key content: key length is not enough: got 2048, needs 3071',
    );
    const dsa = keygen('dsa');
    expectGiteaError(
      await post('alice', 'alice/pub', { title: 'dsa', key: dsa.pub }),
      422,
      'Invalid key content: key type is not allowed: dsa',
    );
    expectGiteaError(
      await post('alice', 'alice/pub', { title: 'two', key: `${ed.pub}\n${ecdsa.pub}` }),
      422,
      'Invalid key content: only a single line with a single key please',
    );
    const [type = '', b64 = ''] = ed.pub.split(' ');
    const bad = [
      'garbage',
      `${type} ${b64.slice(0, 40)}`,
      `ssh-rsa ${b64}`,
      `no-pty ${ed.pub}`,
      ed.privateKey,
      `${type} ${Buffer.concat([Buffer.from(b64, 'base64'), Buffer.from('junk')]).toString('base64')}`,
    ];
    for (const key of bad) expectGiteaError(await post('alice', 'alice/pub', { title: 'bad', key }), 422, /^Invalid key content: /);
    expectGiteaError(await post('alice', 'alice/pub', { title: '', key: ed.pub }), 422, '[Title]: Required');
    expectGiteaError(await post('alice', 'alice/pub', { title: 'x' }), 422, '[Key]: Required');
    expect(await t.db.deployKey.count({ where: { name: { in: ['small', 'dsa', 'two', 'bad'] } } })).toBe(0);
  });

  it('refuses duplicates on the same repository, shares the key across repositories, refuses user keys', async () => {
    const k = keygen('ed25519');
    expect((await post('alice', 'alice/other', { title: 'dup', key: k.pub })).statusCode).toBe(201);
    expectGiteaError(
      await post('alice', 'alice/other', { title: 'dup2', key: k.pub }),
      422,
      'This key has already been added to this repository',
    );
    expectGiteaError(
      await post('alice', 'alice/other', { title: 'dup', key: keygen('ed25519').pub }),
      422,
      'A key with the same name already exists',
    );
    const shared = await post('alice', 'alice/pub', { title: 'dup', key: k.pub, read_only: true });
    expect(shared.statusCode).toBe(201);
    expect(await t.db.publicKey.count({ where: { fingerprint: k.fingerprint } })).toBe(1);
    const userKey = keygen('ed25519');
    await t.db.publicKey.create({
      data: { ownerId: users.alice!.id, name: 'mine', fingerprint: userKey.fingerprint, content: userKey.pub, type: 'USER' },
    });
    expectGiteaError(
      await post('alice', 'alice/other', { title: 'user', key: userKey.pub }),
      422,
      'Key content has been used as non-deploy key',
    );
    // Deleting one use keeps the shared key material; deleting the last removes it.
    const first = (await t.db.deployKey.findFirstOrThrow({ where: { fingerprint: k.fingerprint, repo: { name: 'other' } } })).id;
    expect((await t.request('DELETE', `/api/v1/repos/alice/other/keys/${first}`, { headers: as('alice') })).statusCode).toBe(204);
    expect(await t.db.publicKey.count({ where: { fingerprint: k.fingerprint } })).toBe(1);
    expect((await t.request('DELETE', `/api/v1/repos/alice/pub/keys/${shared.json().id}`, { headers: as('alice') })).statusCode).toBe(204);
    expect(await t.db.publicKey.count({ where: { fingerprint: k.fingerprint } })).toBe(0);
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/pub/keys/${shared.json().id}`, { headers: as('alice') }), 404);
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events.some((e) => e.type === 'repo.deployKeyRemoved' && e.keyId === first)).toBe(true);
  });

  it('lists keys with X-Total-Count, pagination and filters; repository only for the owning user and site admins', async () => {
    const names = ['l1', 'l2', 'l3'];
    for (const n of names) expect((await post('alice', 'alice/other', { title: n, key: keygen('ed25519').pub })).statusCode).toBe(201);
    const all = await t.request('GET', '/api/v1/repos/alice/other/keys', { headers: as('alice') });
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('3');
    expect(all.headers.link).toBeUndefined();
    expect(all.json().map((k: { title: string }) => k.title)).toEqual(names);
    expect(all.json()[0].repository.full_name).toBe('alice/other');
    const page = await t.request('GET', '/api/v1/repos/alice/other/keys?limit=2&page=2', { headers: as('alice') });
    expect(page.json().map((k: { title: string }) => k.title)).toEqual(['l3']);
    const fp = all.json()[1].fingerprint as string;
    const byFp = await t.request('GET', `/api/v1/repos/alice/other/keys?fingerprint=${encodeURIComponent(fp)}`, { headers: as('alice') });
    expect(byFp.json().map((k: { title: string }) => k.title)).toEqual(['l2']);
    const byKeyId = await t.request('GET', `/api/v1/repos/alice/other/keys?key_id=${all.json()[2].key_id}`, { headers: as('alice') });
    expect(byKeyId.json().map((k: { title: string }) => k.title)).toEqual(['l3']);
    await collab(await t.db.repository.findFirstOrThrow({ where: { name: 'other' } }), users.adminc!, 'ADMIN');
    const byCollab = await t.request('GET', '/api/v1/repos/alice/other/keys', { headers: as('adminc') });
    expect(byCollab.statusCode).toBe(200);
    expect(byCollab.json()[0].repository).toBeUndefined();
    expect((await t.request('GET', '/api/v1/repos/alice/other/keys', { headers: as('root') })).json()[0].repository.full_name).toBe(
      'alice/other',
    );
  });

  it('every role on a private user repository and an organization repository', async () => {
    const cases: Array<[string, string, number]> = [
      ['anon', 'alice/priv', 404],
      ['outsider', 'alice/priv', 404],
      ['outsider', 'alice/pub', 403],
      ['reader', 'alice/priv', 403],
      ['writer', 'alice/priv', 403],
      ['adminc', 'alice/priv', 201],
      ['alice', 'alice/priv', 201],
      ['root', 'alice/priv', 201],
      ['member', 'acme/orepo', 404],
      ['writer', 'acme/orepo', 403],
      ['adminc', 'acme/orepo', 201],
      ['orgowner', 'acme/orepo', 201],
      ['root', 'acme/orepo', 201],
    ];
    for (const [viewer, repoPath, status] of cases) {
      const res = await post(viewer, repoPath, { title: `role-${viewer}`, key: keygen('ed25519').pub });
      expect({ viewer, repoPath, status: res.statusCode }).toEqual({ viewer, repoPath, status });
      if (status === 403) expectGiteaError(res, 403, 'user should be an owner or a collaborator with admin write of a repository');
      const list = await t.request('GET', `/api/v1/repos/${repoPath}/keys`, { headers: as(viewer) });
      expect({ viewer, repoPath, list: list.statusCode }).toEqual({ viewer, repoPath, list: status === 201 ? 200 : status });
    }
    // The organization owner is not the repository's owning user: no repository in the answer.
    const orgKeys = await t.request('GET', '/api/v1/repos/acme/orepo/keys', { headers: as('orgowner') });
    expect(orgKeys.json()[0].repository).toBeUndefined();
  });

  it('honours token scopes: read:repository lists, write:repository creates', async () => {
    const read = await t.createToken('alice', ['read:repository']);
    expect((await t.request('GET', '/api/v1/repos/alice/pub/keys', { headers: tokenAuth(read) })).statusCode).toBe(200);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/pub/keys', {
        headers: tokenAuth(read),
        body: { title: 'tok', key: keygen('ed25519').pub },
      }),
      403,
      /token does not have at least one of required scope/,
    );
    const write = await t.createToken('alice', ['write:repository']);
    expect(
      (
        await t.request('POST', '/api/v1/repos/alice/pub/keys', {
          headers: tokenAuth(write),
          body: { title: 'tok', key: keygen('ed25519').pub },
        })
      ).statusCode,
    ).toBe(201);
  });
});
