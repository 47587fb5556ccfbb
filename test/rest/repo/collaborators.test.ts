import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { PermissionDeniedError } from '../../../src/errors.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import * as collaboratorService from '../../../src/services/repo/collaborator.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import * as repoCreate from '../../../src/services/repo/create.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, contextFor, createOrgAs, logins } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST repository collaborators (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const events: DomainEvent[] = [];

  /** Creates a repository through the repository service (real bare git directory; an organization's by `creator`). */
  async function repo(creator: Models.User, name: string, isPrivate: boolean, org?: string): Promise<Models.Repository> {
    const ref: repoCreate.RepoOwnerRef = org ? { kind: 'org', org } : { kind: 'viewer' };
    return (await repoCreate.createRepo(contextFor(t, creator), ref, { name, private: isPrivate })).repo;
  }
  const collab = (r: Models.Repository, u: Models.User, mode: Models.AccessMode) => addCollaborator(t, r, u, mode);
  const url = (p: string) => `/api/v1/repos/${p}`;
  const mode = async (r: Models.Repository, u: Models.User) =>
    (await t.db.collaboration.findUnique({ where: { repoId_userId: { repoId: r.id, userId: u.id } } }))?.mode ?? null;

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'adminc', 'outsider', 'orgowner', 'member', 'target', 'target2', 'blocked', 'blocker'])
      users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    users.sleepy = await t.db.user.update({ where: { id: (await t.createUser('sleepy')).id }, data: { isActive: false } });
    const org = await createOrgAs(t, users.orgowner!, 'acme');
    users.acme = org;
    await addMember(t, org, users.member!);
    repos.pub = await repo(users.alice!, 'pub', false);
    repos.priv = await repo(users.alice!, 'priv', true);
    repos.org = await repo(users.orgowner!, 'orepo', true, 'acme');
    for (const r of [repos.pub, repos.priv, repos.org]) {
      await collab(r, users.reader!, 'READ');
      await collab(r, users.writer!, 'WRITE');
      await collab(r, users.adminc!, 'ADMIN');
    }
    await blockUser(t, users.alice!, users.blocked!);
    await blockUser(t, users.blocker!, users.alice!);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('lists collaborators in the order added, with X-Total-Count and no Link; every role', async () => {
    const res = await t.request('GET', url('alice/priv/collaborators'), { headers: as('alice') });
    expect(res.statusCode).toBe(200);
    expect(logins(res.json())).toEqual(['reader', 'writer', 'adminc']);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.headers.link).toBeUndefined();
    const page = await t.request('GET', url('alice/priv/collaborators?limit=2&page=2'), { headers: as('alice') });
    expect(logins(page.json())).toEqual(['adminc']);
    expect(page.headers['x-total-count']).toBe('3');
    const cases: Array<[string, string, number]> = [
      ['anon', 'alice/pub', 401],
      ['anon', 'alice/priv', 404],
      ['outsider', 'alice/priv', 404],
      ['outsider', 'alice/pub', 200],
      ['reader', 'alice/priv', 200],
      ['writer', 'alice/priv', 200],
      ['adminc', 'alice/priv', 200],
      ['member', 'acme/orepo', 404],
      ['orgowner', 'acme/orepo', 200],
      ['root', 'alice/priv', 200],
    ];
    for (const [viewer, p, status] of cases) {
      const r = await t.request('GET', url(`${p}/collaborators`), { headers: as(viewer) });
      expect({ viewer, p, status: r.statusCode }).toEqual({ viewer, p, status });
    }
    expectGiteaError(await t.request('GET', url('alice/pub/collaborators'), {}), 401, 'token is required');
  });

  it('checks a collaborator: 204, 404 for a non-collaborator, 422 for an unknown user', async () => {
    const yes = await t.request('GET', url('alice/priv/collaborators/writer'), { headers: as('reader') });
    expect(yes.statusCode).toBe(204);
    expect(yes.body).toBe('');
    expectGiteaError(await t.request('GET', url('alice/priv/collaborators/outsider'), { headers: as('reader') }), 404, 'not found');
    expectGiteaError(
      await t.request('GET', url('alice/priv/collaborators/ghost'), { headers: as('reader') }),
      422,
      'user does not exist [uid: 0, name: ghost]',
    );
    expectGiteaError(await t.request('GET', url('alice/priv/collaborators/writer'), { headers: as('outsider') }), 404);
  });

  it('adds and updates collaborators (write by default) for repository admins only; every role', async () => {
    const put = (viewer: string, p: string, user: string, body: unknown = {}) =>
      t.request('PUT', url(`${p}/collaborators/${user}`), { headers: as(viewer), body });
    const cases: Array<[string, string, number]> = [
      ['anon', 'alice/pub', 401],
      ['anon', 'alice/priv', 404],
      ['outsider', 'alice/pub', 403],
      ['outsider', 'alice/priv', 404],
      ['reader', 'alice/priv', 403],
      ['writer', 'alice/priv', 403],
      ['adminc', 'alice/priv', 204],
      ['alice', 'alice/priv', 204],
      ['root', 'alice/priv', 204],
      ['member', 'acme/orepo', 404],
      ['writer', 'acme/orepo', 403],
      ['orgowner', 'acme/orepo', 204],
    ];
    for (const [viewer, p, status] of cases) {
      await t.db.collaboration.deleteMany({ where: { userId: users.target!.id } });
      const r = await put(viewer, p, 'target');
      expect({ viewer, p, status: r.statusCode }).toEqual({ viewer, p, status });
      if (status === 403) expectGiteaError(r, 403, 'user should be an owner or a collaborator with admin write of a repository');
      if (status === 204) {
        expect(r.body).toBe('');
        expect(await mode(p === 'acme/orepo' ? repos.org! : repos.priv!, users.target!)).toBe('WRITE');
      }
    }
    expect((await put('alice', 'alice/priv', 'target', { permission: 'read' })).statusCode).toBe(204);
    expect(await mode(repos.priv!, users.target!)).toBe('READ');
    expect((await put('alice', 'alice/priv', 'target', { permission: 'admin' })).statusCode).toBe(204);
    expect(await mode(repos.priv!, users.target!)).toBe('ADMIN');
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events).toContainEqual({
      type: 'repo.collaboratorAdded',
      repoId: repos.priv!.id,
      userId: users.target!.id,
      actorId: users.alice!.id,
    });
    expectGiteaError(await put('alice', 'alice/priv', 'target', { permission: 'owner' }), 422, '[Permission]: In');
    expectGiteaError(await put('alice', 'alice/priv', 'target', { permission: 'bogus' }), 422, '[Permission]: In');
    expectGiteaError(await put('alice', 'alice/priv', 'ghost'), 422, 'user does not exist [uid: 0, name: ghost]');
    expectGiteaError(await put('alice', 'alice/priv', 'alice'), 422, 'Cannot add an owner as a collaborator.');
    expectGiteaError(await put('orgowner', 'acme/orepo', 'acme'), 422, 'Organizations cannot be added as a collaborator.');
    expectGiteaError(await put('alice', 'alice/priv', 'sleepy'), 422, "collaborator's account is inactive");
    expectGiteaError(await put('alice', 'alice/priv', 'blocked'), 403, 'user is blocked');
    expectGiteaError(await put('alice', 'alice/priv', 'blocker'), 403, 'user is blocked');
    expect(await mode(repos.priv!, users.blocked!)).toBeNull();
  });

  it('removes collaborators (204; a non-collaborator is a no-op; unknown user 422); their watch goes with access', async () => {
    await collab(repos.priv!, users.target2!, 'WRITE');
    await t.db.watch.create({ data: { repoId: repos.priv!.id, userId: users.target2!.id } });
    expectGiteaError(await t.request('DELETE', url('alice/priv/collaborators/target2'), { headers: as('writer') }), 403);
    const del = await t.request('DELETE', url('alice/priv/collaborators/target2'), { headers: as('adminc') });
    expect(del.statusCode).toBe(204);
    expect(await mode(repos.priv!, users.target2!)).toBeNull();
    expect(await t.db.watch.count({ where: { repoId: repos.priv!.id, userId: users.target2!.id } })).toBe(0);
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events).toContainEqual({
      type: 'repo.collaboratorRemoved',
      repoId: repos.priv!.id,
      userId: users.target2!.id,
      actorId: users.adminc!.id,
    });
    expect((await t.request('DELETE', url('alice/priv/collaborators/target2'), { headers: as('adminc') })).statusCode).toBe(204);
    expectGiteaError(await t.request('DELETE', url('alice/priv/collaborators/ghost'), { headers: as('adminc') }), 422);
    expectGiteaError(await t.request('DELETE', url('alice/pub/collaborators/target2'), {}), 401);
  });

  it("a user's permission, computed for that user: RepoCollaboratorPermission", async () => {
    const get = (viewer: string, p: string, user: string) =>
      t.request('GET', url(`${p}/collaborators/${user}/permission`), { headers: as(viewer) });
    const own = await get('reader', 'alice/priv', 'reader');
    expect(own.statusCode).toBe(200);
    expect(Object.keys(own.json())).toEqual(['permission', 'role_name', 'user']);
    expect(own.json()).toMatchObject({ permission: 'read', role_name: 'read', user: { login: 'reader' } });
    const expectations: Array<[string, string, string, string]> = [
      ['alice', 'alice/priv', 'writer', 'write'],
      ['alice', 'alice/priv', 'adminc', 'admin'],
      ['alice', 'alice/priv', 'alice', 'owner'],
      ['alice', 'alice/priv', 'outsider', 'none'],
      ['alice', 'alice/pub', 'outsider', 'read'],
      ['adminc', 'alice/priv', 'root', 'owner'],
      ['root', 'acme/orepo', 'orgowner', 'owner'],
      ['orgowner', 'acme/orepo', 'member', 'none'],
      ['orgowner', 'acme/orepo', 'writer', 'write'],
    ];
    for (const [viewer, p, user, perm] of expectations) {
      const r = await get(viewer, p, user);
      expect({ viewer, p, user, perm: r.json().permission, role: r.json().role_name }).toEqual({ viewer, p, user, perm, role: perm });
    }
    expectGiteaError(
      await get('writer', 'alice/priv', 'reader'),
      403,
      'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
    );
    expectGiteaError(await get('alice', 'alice/priv', 'ghost'), 404, 'user does not exist [uid: 0, name: ghost]');
    expectGiteaError(await get('anon', 'alice/pub', 'reader'), 401);
    expectGiteaError(await get('outsider', 'alice/priv', 'outsider'), 404);
    const token = await t.createToken('reader', ['read:repository']);
    expect((await t.request('GET', url('alice/priv/collaborators/reader/permission'), { headers: tokenAuth(token) })).statusCode).toBe(200);
  });

  it('a new mode takes effect on the next request, and within the same request after the write', async () => {
    await collab(repos.pub!, users.target2!, 'READ');
    expectGiteaError(await t.request('PUT', url('alice/pub/collaborators/outsider'), { headers: as('target2'), body: {} }), 403);
    expect(
      (await t.request('PUT', url('alice/pub/collaborators/target2'), { headers: as('alice'), body: { permission: 'admin' } })).statusCode,
    ).toBe(204);
    expect(
      (await t.request('PUT', url('alice/pub/collaborators/outsider'), { headers: as('target2'), body: { permission: 'read' } }))
        .statusCode,
    ).toBe(204);
    // One service context (one request): after demoting itself, the admin's next call sees the new mode.
    const cx = contextFor(t, users.target2!);
    await collaboratorService.addOrUpdateCollaborator(cx, { owner: 'alice', repo: 'pub' }, 'target2', 'read');
    await expect(
      collaboratorService.addOrUpdateCollaborator(cx, { owner: 'alice', repo: 'pub' }, 'outsider', 'write'),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(await mode(repos.pub!, users.outsider!)).toBe('READ');
  });
});
