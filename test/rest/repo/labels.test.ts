import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import * as repoCreate from '../../../src/services/repo/create.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, editRepo, setUnits } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, contextFor, createOrgAs } from '../../helpers/org.ts';

const LABEL_KEYS = ['id', 'name', 'exclusive', 'is_archived', 'color', 'description', 'url'];

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST repository labels (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const events: DomainEvent[] = [];

  /** Creates a repository through the repository service, then keeps only `units` when given. */
  async function repo(
    creator: Models.User,
    name: string,
    isPrivate: boolean,
    opts: { org?: string; units?: Models.RepoUnitType[] } = {},
  ): Promise<Models.Repository> {
    const ref: repoCreate.RepoOwnerRef = opts.org ? { kind: 'org', org: opts.org } : { kind: 'viewer' };
    const created = (await repoCreate.createRepo(contextFor(t, creator), ref, { name, private: isPrivate })).repo;
    if (opts.units) await setUnits(t, created, opts.units);
    return created;
  }
  const collab = (r: Models.Repository, u: Models.User, mode: Models.AccessMode) => addCollaborator(t, r, u, mode);
  const label = (r: Models.Repository, name: string, extra: Partial<Models.Label> = {}) =>
    t.db.label.create({ data: { repoId: r.id, name, color: 'ee0701', ...extra } });
  const apiUrl = (p: string, id: number) => `http://localhost:3000/api/v1/repos/${p}/labels/${id}`;
  const create = (viewer: string, p: string, body: unknown) =>
    t.request('POST', `/api/v1/repos/${p}/labels`, { headers: as(viewer), body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'adminc', 'outsider', 'orgowner', 'member', 'promoted']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    const org = await createOrgAs(t, users.orgowner!, 'acme');
    users.acme = org;
    await addMember(t, org, users.member!);
    repos.pub = await repo(users.alice!, 'pub', false);
    repos.priv = await repo(users.alice!, 'priv', true);
    repos.org = await repo(users.orgowner!, 'orepo', true, { org: 'acme' });
    repos.other = await repo(users.alice!, 'other', false);
    repos.noissues = await repo(users.alice!, 'noissues', false, { units: ['CODE'] });
    repos.pullsonly = await repo(users.alice!, 'pullsonly', false, { units: ['CODE', 'PULL_REQUESTS'] });
    repos.archived = await repo(users.alice!, 'archived', false);
    for (const r of [repos.pub, repos.priv, repos.org, repos.archived]) {
      await collab(r, users.reader!, 'READ');
      await collab(r, users.writer!, 'WRITE');
      await collab(r, users.adminc!, 'ADMIN');
    }
    repos.archived = await editRepo(t, repos.archived, { archived: true });
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('TestAPIModifyLabels: create, list, get by id and by name, edit, delete', async () => {
    await label(repos.pub!, 'fixture');
    const a = await create('alice', 'alice/pub', { name: 'TestL 1', color: '#FFAA00', description: 'first' });
    expect(a.statusCode, a.body).toBe(201);
    expect(Object.keys(a.json())).toEqual(LABEL_KEYS);
    expect(a.json()).toEqual({
      id: expect.any(Number),
      name: 'TestL 1',
      exclusive: false,
      is_archived: false,
      color: 'ffaa00',
      description: 'first',
      url: apiUrl('alice/pub', a.json().id),
    });
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events).toContainEqual({
      type: 'label.created',
      labelId: a.json().id,
      orgId: null,
      repoId: repos.pub!.id,
      actorId: users.alice!.id,
    });
    expectGiteaError(await create('alice', 'alice/pub', { name: 'bad', color: '#12345g' }), 422, 'invalid color: #12345g');
    expectGiteaError(await create('alice', 'alice/pub', { color: 'aabbcc' }), 422, '[Name]: Required');
    const list = await t.request('GET', '/api/v1/repos/alice/pub/labels', { headers: as('anon') });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((l: { name: string }) => l.name)).toEqual(['TestL 1', 'fixture']);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.headers.link).toBeUndefined();
    const paged = await t.request('GET', '/api/v1/repos/alice/pub/labels?page=2&limit=1', { headers: as('anon') });
    expect(paged.json().map((l: { name: string }) => l.name)).toEqual(['fixture']);
    const id = a.json().id as number;
    const got = await t.request('GET', `/api/v1/repos/alice/pub/labels/${id}`, { headers: as('anon') });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(a.json());
    expect(
      (await t.request('GET', `/api/v1/repos/alice/pub/labels/${encodeURIComponent('TestL 1')}`, { headers: as('outsider') })).json().id,
    ).toBe(id);
    expectGiteaError(
      await t.request('PATCH', `/api/v1/repos/alice/pub/labels/${id}`, { headers: as('writer'), body: { color: '09g76a' } }),
      422,
      'invalid color: #09g76a',
    );
    const patched = await t.request('PATCH', `/api/v1/repos/alice/pub/labels/${id}`, {
      headers: as('writer'),
      body: { name: 'area/ui', exclusive: true, color: 'ABC', is_archived: true },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      id,
      name: 'area/ui',
      exclusive: true,
      color: 'aabbcc',
      description: 'first',
      is_archived: true,
      url: apiUrl('alice/pub', id),
    });
    const del = await t.request('DELETE', `/api/v1/repos/alice/pub/labels/${id}`, { headers: as('writer') });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expectGiteaError(
      await t.request('GET', `/api/v1/repos/alice/pub/labels/${id}`, { headers: as('alice') }),
      404,
      `label does not exist [label_id: ${id}, repo_id: ${repos.pub!.id}]`,
    );
    expectGiteaError(
      await t.request('GET', '/api/v1/repos/alice/pub/labels/nope', { headers: as('alice') }),
      404,
      `label does not exist [label_id: 0, repo_id: ${repos.pub!.id}]`,
    );
    expectGiteaError(await t.request('PATCH', `/api/v1/repos/alice/pub/labels/${id}`, { headers: as('alice'), body: { name: 'x' } }), 404);
    expectGiteaError(await t.request('DELETE', `/api/v1/repos/alice/pub/labels/${id}`, { headers: as('alice') }), 404);
  });

  it("never mixes owners: another repository's or the organization's labels are not found and not listed", async () => {
    const foreign = await label(repos.other!, 'foreign');
    const orgLabel = await t.db.label.create({ data: { orgId: users.acme!.id, name: 'org-wide', color: '00ff00' } });
    await label(repos.org!, 'own');
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/pub/labels/${foreign.id}`, { headers: as('alice') }), 404);
    expectGiteaError(
      await t.request('PATCH', `/api/v1/repos/alice/pub/labels/${foreign.id}`, { headers: as('alice'), body: { name: 'stolen' } }),
      404,
    );
    expectGiteaError(await t.request('DELETE', `/api/v1/repos/alice/pub/labels/${foreign.id}`, { headers: as('alice') }), 404);
    expectGiteaError(await t.request('GET', `/api/v1/repos/acme/orepo/labels/${orgLabel.id}`, { headers: as('orgowner') }), 404);
    const list = await t.request('GET', '/api/v1/repos/acme/orepo/labels', { headers: as('orgowner') });
    expect(list.json().map((l: { name: string }) => l.name)).toEqual(['own']);
    expect((await t.db.label.findUniqueOrThrow({ where: { id: foreign.id } })).name).toBe('foreign');
  });

  it('reads need the repository visible and issues or pull requests readable', async () => {
    const cases: Array<[string, string, number]> = [
      ['anon', 'alice/pub', 200],
      ['anon', 'alice/priv', 404],
      ['outsider', 'alice/priv', 404],
      ['reader', 'alice/priv', 200],
      ['writer', 'alice/priv', 200],
      ['adminc', 'alice/priv', 200],
      ['alice', 'alice/priv', 200],
      ['member', 'acme/orepo', 404],
      ['orgowner', 'acme/orepo', 200],
      ['root', 'acme/orepo', 200],
      ['alice', 'alice/noissues', 404],
      ['anon', 'alice/pullsonly', 200],
      ['anon', 'alice/archived', 200],
    ];
    for (const [viewer, p, status] of cases) {
      const r = await t.request('GET', `/api/v1/repos/${p}/labels`, { headers: as(viewer) });
      expect({ viewer, p, status: r.statusCode }).toEqual({ viewer, p, status });
    }
  });

  it('writes need write on issues or pull requests; archived repositories answer 423', async () => {
    const cases: Array<[string, string, number]> = [
      ['anon', 'alice/pub', 401],
      ['anon', 'alice/priv', 404],
      ['outsider', 'alice/pub', 403],
      ['outsider', 'alice/priv', 404],
      ['reader', 'alice/priv', 403],
      ['writer', 'alice/priv', 201],
      ['adminc', 'alice/priv', 201],
      ['alice', 'alice/priv', 201],
      ['root', 'alice/priv', 201],
      ['member', 'acme/orepo', 404],
      ['reader', 'acme/orepo', 403],
      ['writer', 'acme/orepo', 201],
      ['orgowner', 'acme/orepo', 201],
      ['alice', 'alice/noissues', 404],
      ['alice', 'alice/pullsonly', 201],
      ['writer', 'alice/archived', 423],
      ['alice', 'alice/archived', 423],
    ];
    for (const [viewer, p, status] of cases) {
      const r = await create(viewer, p, { name: `by-${viewer}`, color: '123456' });
      expect({ viewer, p, status: r.statusCode }).toEqual({ viewer, p, status });
      if (status === 403) expectGiteaError(r, 403, 'user should have a permission to write to a repo');
      if (status === 423) expectGiteaError(r, 423, 'repo is archived');
      if (status === 401) expectGiteaError(r, 401, 'token is required');
    }
    const archivedLabel = await label(repos.archived!, 'frozen');
    expectGiteaError(
      await t.request('PATCH', `/api/v1/repos/alice/archived/labels/${archivedLabel.id}`, { headers: as('alice'), body: { name: 'x' } }),
      423,
    );
    expectGiteaError(await t.request('DELETE', `/api/v1/repos/alice/archived/labels/${archivedLabel.id}`, { headers: as('alice') }), 423);
    expect((await t.request('GET', `/api/v1/repos/alice/archived/labels/frozen`, { headers: as('anon') })).statusCode).toBe(200);
  });

  it('a read collaborator upgraded to write can edit labels on the next request', async () => {
    await collab(repos.pub!, users.promoted!, 'READ');
    expectGiteaError(await create('promoted', 'alice/pub', { name: 'promo', color: 'aaaaaa' }), 403);
    expect(
      (await t.request('PUT', '/api/v1/repos/alice/pub/collaborators/promoted', { headers: as('alice'), body: { permission: 'write' } }))
        .statusCode,
    ).toBe(204);
    expect((await create('promoted', 'alice/pub', { name: 'promo', color: 'aaaaaa' })).statusCode).toBe(201);
    expect((await t.request('DELETE', '/api/v1/repos/alice/pub/collaborators/promoted', { headers: as('alice') })).statusCode).toBe(204);
    expectGiteaError(await create('promoted', 'alice/pub', { name: 'promo2', color: 'aaaaaa' }), 403);
  });

  it('honours token scopes: read:issue lists, write:issue creates', async () => {
    const read = await t.createToken('alice', ['read:issue']);
    expect((await t.request('GET', '/api/v1/repos/alice/priv/labels', { headers: tokenAuth(read) })).statusCode).toBe(200);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/priv/labels', { headers: tokenAuth(read), body: { name: 'tok', color: 'aaaaaa' } }),
      403,
      /token does not have at least one of required scope/,
    );
    const repoOnly = await t.createToken('alice', ['write:repository']);
    expectGiteaError(
      await t.request('GET', '/api/v1/repos/alice/priv/labels', { headers: tokenAuth(repoOnly) }),
      403,
      /required=\[read:issue\]/,
    );
    const write = await t.createToken('alice', ['write:issue']);
    expect(
      (await t.request('POST', '/api/v1/repos/alice/priv/labels', { headers: tokenAuth(write), body: { name: 'tok', color: 'aaaaaa' } }))
        .statusCode,
    ).toBe(201);
  });
});
