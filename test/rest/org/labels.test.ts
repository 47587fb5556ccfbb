import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { createServiceContext } from '../../../src/services/context.ts';
import * as orgService from '../../../src/services/org/org.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

const LABEL_KEYS = ['id', 'name', 'exclusive', 'is_archived', 'color', 'description', 'url'];

/** Request headers: `anon` or a login (Basic with the test password). */
const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST organization labels (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const orgs: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];

  /** An organization owned by `owner`, plus plain (non-owner) members. */
  async function org(name: string, owner: Models.User, visibility: Models.Visibility, members: Models.User[] = []): Promise<Models.User> {
    const o = await orgService.createOrg(createServiceContext(t.app.deps, owner), { name, visibility });
    for (const m of members) await t.db.orgUser.create({ data: { orgId: o.id, userId: m.id } });
    return o;
  }
  const label = (orgRow: Models.User, name: string, extra: Partial<Models.Label> = {}) =>
    t.db.label.create({ data: { orgId: orgRow.id, name, color: 'ee0701', ...extra } });
  const url = (orgName: string, id: number) => `http://localhost:3000/api/v1/orgs/${orgName}/labels/${id}`;

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'member', 'outsider', 'other']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    orgs.pub = await org('pub-org', users.owner!, 'PUBLIC', [users.member!]);
    orgs.priv = await org('priv-org', users.owner!, 'PRIVATE', [users.member!]);
    orgs.lim = await org('lim-org', users.owner!, 'LIMITED');
    orgs.elsewhere = await org('elsewhere', users.other!, 'PUBLIC');
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  describe('TestAPIModifyOrgLabels', () => {
    it('creates labels (201, Gitea field order, colour normalised without #), refuses #12345g (422), lists them', async () => {
      await label(orgs.pub!, 'fixture-1');
      await label(orgs.pub!, 'fixture-2');
      const a = await t.request('POST', '/api/v1/orgs/pub-org/labels', {
        headers: as('owner'),
        body: { name: 'TestL 1', color: '#FFAA00', description: 'first' },
      });
      expect(a.statusCode).toBe(201);
      expect(Object.keys(a.json())).toEqual(LABEL_KEYS);
      expect(a.json()).toEqual({
        id: expect.any(Number),
        name: 'TestL 1',
        exclusive: false,
        is_archived: false,
        color: 'ffaa00',
        description: 'first',
        url: url('pub-org', a.json().id),
      });
      const b = await t.request('POST', '/api/v1/orgs/pub-org/labels', { headers: as('owner'), body: { name: 'TestL 2', color: 'AbC' } });
      expect(b.statusCode).toBe(201);
      expect(b.json().color).toBe('aabbcc');
      expect((await t.db.label.findUnique({ where: { id: b.json().id } }))?.color).toBe('aabbcc');
      const bad = await t.request('POST', '/api/v1/orgs/pub-org/labels', {
        headers: as('owner'),
        body: { name: 'TestL bad', color: '#12345g' },
      });
      expectGiteaError(bad, 422, 'invalid color: #12345g');
      const list = await t.request('GET', '/api/v1/orgs/pub-org/labels', { headers: as('owner') });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toHaveLength(4);
      expect(list.headers['x-total-count']).toBe('4');
      expect(list.headers.link).toBeUndefined();
      for (const l of list.json() as { color: string }[]) expect(l.color).not.toContain('#');
    });

    it('gets one label by id and by name; edits and deletes it', async () => {
      const l = await label(orgs.pub!, 'edit-me', { description: 'x' });
      const got = await t.request('GET', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as('outsider') });
      expect(got.json()).toEqual({
        id: l.id,
        name: 'edit-me',
        exclusive: false,
        is_archived: false,
        color: 'ee0701',
        description: 'x',
        url: url('pub-org', l.id),
      });
      expect((await t.request('GET', '/api/v1/orgs/pub-org/labels/edit-me', { headers: as('outsider') })).json().id).toBe(l.id);
      expectGiteaError(
        await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as('owner'), body: { color: '09g76a' } }),
        422,
        'invalid color: #09g76a',
      );
      const patched = await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${l.id}`, {
        headers: as('owner'),
        body: { name: 'area/ui', exclusive: true, color: '#00AABB' },
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ name: 'area/ui', exclusive: true, color: '00aabb', description: 'x', is_archived: false });
      const del = await t.request('DELETE', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as('owner') });
      expect(del.statusCode).toBe(204);
      expect(del.body).toBe('');
      expectGiteaError(await t.request('GET', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as('owner') }), 404, 'not found');
      expect(await t.db.label.findUnique({ where: { id: l.id } })).toBeNull();
    });

    it('archives and unarchives (is_archived; absent leaves it alone), keeping the first archive time', async () => {
      const created = await t.request('POST', '/api/v1/orgs/pub-org/labels', {
        headers: as('owner'),
        body: { name: 'old', color: '123456', is_archived: true },
      });
      expect(created.json().is_archived).toBe(true);
      const id = created.json().id as number;
      const first = (await t.db.label.findUnique({ where: { id } }))?.archivedAt;
      expect(first).toBeInstanceOf(Date);
      const renamed = await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${id}`, {
        headers: as('owner'),
        body: { name: 'older', is_archived: true },
      });
      expect(renamed.json().is_archived).toBe(true);
      expect((await t.db.label.findUnique({ where: { id } }))?.archivedAt?.getTime()).toBe(first?.getTime());
      expect(
        (await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${id}`, { headers: as('owner'), body: { description: 'd' } })).json()
          .is_archived,
      ).toBe(true);
      expect(
        (await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${id}`, { headers: as('owner'), body: { is_archived: false } })).json()
          .is_archived,
      ).toBe(false);
      expect((await t.db.label.findUnique({ where: { id } }))?.archivedAt).toBeNull();
    });

    it('publishes label events after commit', async () => {
      events.length = 0;
      const res = await t.request('POST', '/api/v1/orgs/lim-org/labels', { headers: as('owner'), body: { name: 'evented', color: 'fff' } });
      await t.app.deps.notifier.drain();
      expect(events).toContainEqual({
        type: 'label.created',
        labelId: res.json().id,
        orgId: orgs.lim!.id,
        repoId: null,
        actorId: users.owner!.id,
      });
    });
  });

  describe('TestAPIOrgLabelsVisibility', () => {
    let privLabel: Models.Label;
    beforeAll(async () => {
      privLabel = await label(orgs.priv!, 'secret');
    });

    it.each([
      ['outsider', 404],
      ['anon', 404],
      ['member', 200],
      ['owner', 200],
      ['root', 200],
    ])('private org list, as %s → %i', async (viewer, status) => {
      const res = await t.request('GET', '/api/v1/orgs/priv-org/labels', { headers: as(viewer) });
      expect(res.statusCode).toBe(status);
      if (status === 404) expectGiteaError(res, 404);
      else expect((res.json() as { name: string }[]).map((l) => l.name)).toEqual(['secret']);
    });

    it('private org single label: outsider 404, member 200', async () => {
      expectGiteaError(await t.request('GET', `/api/v1/orgs/priv-org/labels/${privLabel.id}`, { headers: as('outsider') }), 404);
      expect((await t.request('GET', `/api/v1/orgs/priv-org/labels/${privLabel.id}`, { headers: as('member') })).statusCode).toBe(200);
    });

    it('public org list by a non-member and anonymously → 200; limited org needs a signed-in viewer', async () => {
      expect((await t.request('GET', '/api/v1/orgs/pub-org/labels', { headers: as('outsider') })).statusCode).toBe(200);
      expect((await t.request('GET', '/api/v1/orgs/pub-org/labels')).statusCode).toBe(200);
      expect((await t.request('GET', '/api/v1/orgs/lim-org/labels', { headers: as('outsider') })).statusCode).toBe(200);
      expectGiteaError(await t.request('GET', '/api/v1/orgs/lim-org/labels'), 404);
    });

    it('an unknown organization is 404', async () => {
      expectGiteaError(await t.request('GET', '/api/v1/orgs/no-such-org/labels'), 404);
    });
  });

  describe('who may write', () => {
    const body = { name: 'perm', color: 'abcdef' };

    it('anonymous → 401 token is required (create, get one, edit, delete)', async () => {
      const l = await label(orgs.pub!, 'anon-target');
      expectGiteaError(await t.request('POST', '/api/v1/orgs/pub-org/labels', { body }), 401, 'token is required');
      expectGiteaError(await t.request('GET', `/api/v1/orgs/pub-org/labels/${l.id}`), 401, 'token is required');
      expectGiteaError(await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${l.id}`, { body }), 401, 'token is required');
      expectGiteaError(await t.request('DELETE', `/api/v1/orgs/pub-org/labels/${l.id}`), 401, 'token is required');
    });

    it('members who are not owners, and outsiders of a public org → 403 Must be an organization owner', async () => {
      const l = await label(orgs.pub!, 'member-target');
      for (const viewer of ['member', 'outsider']) {
        expectGiteaError(
          await t.request('POST', '/api/v1/orgs/pub-org/labels', { headers: as(viewer), body }),
          403,
          'Must be an organization owner',
        );
        expectGiteaError(
          await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as(viewer), body }),
          403,
          'Must be an organization owner',
        );
        expectGiteaError(
          await t.request('DELETE', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as(viewer) }),
          403,
          'Must be an organization owner',
        );
      }
      expect(await t.db.label.count({ where: { orgId: orgs.pub!.id, name: 'perm' } })).toBe(0);
    });

    it('outsiders of a private org → 404 (the organization is not revealed)', async () => {
      expectGiteaError(await t.request('POST', '/api/v1/orgs/priv-org/labels', { headers: as('outsider'), body }), 404);
    });

    it('site admins may manage any organization label', async () => {
      const res = await t.request('POST', '/api/v1/orgs/priv-org/labels', { headers: as('root'), body });
      expect(res.statusCode).toBe(201);
      expect((await t.request('DELETE', `/api/v1/orgs/priv-org/labels/${res.json().id}`, { headers: as('root') })).statusCode).toBe(204);
    });

    it('a label id of another organization is 404 for get, edit and delete', async () => {
      const foreign = await label(orgs.elsewhere!, 'foreign');
      for (const [method, extra] of [
        ['GET', {}],
        ['PATCH', { body: { name: 'hijack' } }],
        ['DELETE', {}],
      ] as const) {
        expectGiteaError(
          await t.request(method, `/api/v1/orgs/pub-org/labels/${foreign.id}`, { headers: as('owner'), ...extra }),
          404,
          'not found',
        );
      }
      expect((await t.db.label.findUnique({ where: { id: foreign.id } }))?.name).toBe('foreign');
      for (const id of ['0', '-1', 'abc', '99999999999']) {
        const method = id === 'abc' ? 'PATCH' : 'DELETE';
        expectGiteaError(
          await t.request(method, `/api/v1/orgs/pub-org/labels/${id}`, { headers: as('owner'), body: method === 'PATCH' ? {} : undefined }),
          404,
        );
      }
    });

    it('token scopes: read:organization may list but not create', async () => {
      const read = tokenAuth(await t.createToken('owner', ['read:organization']));
      expect((await t.request('GET', '/api/v1/orgs/pub-org/labels', { headers: read })).statusCode).toBe(200);
      expectGiteaError(
        await t.request('POST', '/api/v1/orgs/pub-org/labels', { headers: read, body }),
        403,
        /^token does not have at least one of required scope\(s\), required=\[write:organization\]/,
      );
      const write = tokenAuth(await t.createToken('owner', ['write:organization']));
      expect((await t.request('POST', '/api/v1/orgs/lim-org/labels', { headers: write, body })).statusCode).toBe(201);
    });
  });

  describe('validation (never a 500)', () => {
    it.each([
      [{ color: 'ffffff' }, '[Name]: Required'],
      [{ name: '', color: 'ffffff' }, '[Name]: Required'],
      [{ name: 'x' }, '[Color]: Required'],
      [{ name: 'x', color: '' }, '[Color]: Required'],
      [{ name: 'x', color: 'ff' }, 'invalid color: ff'],
      [{ name: 'x', color: '#ffff' }, 'invalid color: #ffff'],
      [{ name: 'x', color: 'fffffff' }, 'invalid color: fffffff'],
      [{ name: 7, color: 'fff' }, /^\[Name\]: /],
      [{ name: 'nul\u0000', color: 'fff' }, '[Name]: Invalid'],
    ])('create %j → 422 %s', async (body, message) => {
      expectGiteaError(await t.request('POST', '/api/v1/orgs/pub-org/labels', { headers: as('owner'), body }), 422, message);
    });

    it('edit: an empty name or a bad colour → 422; malformed JSON → 422', async () => {
      const l = await label(orgs.pub!, 'valid');
      expectGiteaError(
        await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as('owner'), body: { name: '' } }),
        422,
        '[Name]: Required',
      );
      expectGiteaError(
        await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${l.id}`, { headers: as('owner'), body: { color: '  ' } }),
        422,
        'invalid color: ',
      );
      const res = await t.request('PATCH', `/api/v1/orgs/pub-org/labels/${l.id}`, {
        headers: { ...as('owner'), 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expectGiteaError(res, 422);
    });

    it('accepts form-encoded bodies, trims colour spaces', async () => {
      const res = await t.request('POST', '/api/v1/orgs/lim-org/labels', {
        headers: { ...as('owner'), 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=form&color=%20%23ABCDEF%20&exclusive=true',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ name: 'form', color: 'abcdef', exclusive: true });
    });
  });

  describe('list order and pages', () => {
    beforeAll(async () => {
      const o = await org('sorted', users.owner!, 'PUBLIC');
      await label(o, 'beta', { numIssues: 5 });
      await label(o, 'alpha', { numIssues: 9 });
      await label(o, 'gamma', { numIssues: 1 });
    });
    const names = async (query: string) =>
      ((await t.request('GET', `/api/v1/orgs/sorted/labels${query}`)).json() as { name: string }[]).map((l) => l.name);

    it.each([
      ['', ['alpha', 'beta', 'gamma']],
      ['?sort=alphabetically', ['alpha', 'beta', 'gamma']],
      ['?sort=reversealphabetically', ['gamma', 'beta', 'alpha']],
      ['?sort=leastissues', ['gamma', 'beta', 'alpha']],
      ['?sort=mostissues', ['alpha', 'beta', 'gamma']],
      ['?sort=bogus', ['alpha', 'beta', 'gamma']],
    ])('sort %s', async (query, expected) => {
      expect(await names(query)).toEqual(expected);
    });

    it('pages with page/limit (X-Total-Count, no Link); without page, the first page', async () => {
      const res = await t.request('GET', '/api/v1/orgs/sorted/labels?page=2&limit=2');
      expect(res.json().map((l: { name: string }) => l.name)).toEqual(['gamma']);
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.headers.link).toBeUndefined();
      // Always paged (issue #10): no page means page 1, not every label.
      expect(await names('?limit=1')).toEqual(['alpha']);
      expect(await names('?page=1&limit=1')).toEqual(['alpha']);
    });
  });

  it('is described in /swagger.v1.json', async () => {
    const doc = (await t.request('GET', '/swagger.v1.json')).json();
    expect(doc.paths['/orgs/{org}/labels'].get.operationId).toBe('orgListLabels');
    expect(doc.paths['/orgs/{org}/labels/{id}'].patch.operationId).toBe('orgEditLabel');
    expect(Object.keys(doc.components.schemas.Label.properties)).toEqual(LABEL_KEYS);
  });
});
