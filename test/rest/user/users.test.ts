import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { editUser } from '../../helpers/fixtures.ts';
import { createOrgAs } from '../../helpers/org.ts';
import { basic, isGiteaError, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';

const SWAGGER = 'http://localhost:3000/api/swagger';
const UNIX_ZERO = '1970-01-01T00:00:00Z';
const GO_ZERO = '0001-01-01T00:00:00Z';

/** Request headers for a viewer: `anon` or a login (Basic with the test password). */
const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

/** Gitea's expected Link header for /users/search. */
function searchLink(query: Record<string, string>, rels: [string, number][]): string {
  return rels
    .map(([rel, page]) => {
      const params = new URLSearchParams({ ...query, page: String(page) });
      params.sort();
      return `<http://localhost:3000/api/v1/users/search?${params.toString()}>; rel="${rel}"`;
    })
    .join(',');
}

describe.each(PROVIDERS)('REST users (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const placeholder = (name: string) => `${users[name]?.id}+${name}@noreply.localhost`;

  beforeAll(async () => {
    t = await startTestApp(provider);
    users.alice = await t.createUser('alice', { fullName: 'Alice Liddell' });
    users.bob = await t.createUser('bob', { email: 'hidden-b@example.org' });
    users.carol = await t.createUser('carol', { visibility: 'PRIVATE' });
    users.dave = await t.createUser('dave', { visibility: 'LIMITED' });
    users.erin = await t.createUser('erin');
    users.frank = await t.createUser('frank', { restricted: true });
    users.root = await t.createUser('root', { admin: true });
    await t.db.user.update({ where: { id: users.alice.id }, data: { language: 'de-DE', loginName: 'alice-ext' } });
    await t.db.user.update({ where: { id: users.bob.id }, data: { keepEmailPrivate: true } });
    await editUser(t, users.erin, { active: false });
    await createOrgAs(t, users.root, 'acme', 'PUBLIC', { email: 'acme@example.com' });
  });
  afterAll(() => t.close());

  describe('GET /user', () => {
    it('is 401 `token is required` anonymously', async () => {
      const res = await t.request('GET', '/api/v1/user');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'token is required', url: SWAGGER });
    });

    it('returns every private field to the user itself', async () => {
      const res = await t.request('GET', '/api/v1/user', { headers: basic('alice') });
      expect(res.statusCode).toBe(200);
      const alice = users.alice!;
      expect(res.json()).toEqual({
        id: alice.id,
        login: 'alice',
        login_name: 'alice-ext',
        source_id: 0,
        full_name: 'Alice Liddell',
        email: 'alice@example.com',
        avatar_url: expect.stringMatching(/^http:\/\/localhost:3000\/avatars\/[0-9a-f]{32}$/),
        html_url: 'http://localhost:3000/alice',
        language: 'de-DE',
        is_admin: false,
        last_login: UNIX_ZERO,
        created: alice.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        restricted: false,
        active: true,
        prohibit_login: false,
        location: '',
        website: '',
        description: '',
        visibility: 'public',
        followers_count: 0,
        following_count: 0,
        starred_repos_count: 0,
        username: 'alice',
      });
    });
  });

  describe('GET /users/{username}', () => {
    // [viewer, e-mail shown, private fields shown]
    it.each([
      ['anon', 'placeholder', false],
      ['bob', 'real', false],
      ['alice', 'real', true],
      ['root', 'real', true],
    ] as const)('alice seen by %s: %s e-mail, private fields %s', async (viewer, email, priv) => {
      const res = await t.request('GET', '/api/v1/users/alice', { headers: as(viewer) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: users.alice?.id,
        login: 'alice',
        full_name: 'Alice Liddell',
        email: email === 'real' ? 'alice@example.com' : placeholder('alice'),
        login_name: priv ? 'alice-ext' : '',
        language: priv ? 'de-DE' : '',
        is_admin: false,
        last_login: priv ? UNIX_ZERO : GO_ZERO,
        active: priv,
        prohibit_login: false,
      });
    });

    it.each([
      ['anon', false],
      ['alice', false],
      ['root', true],
    ])('is_admin of an admin seen by %s is %s', async (viewer, shown) => {
      const res = await t.request('GET', '/api/v1/users/root', { headers: as(viewer) });
      expect(res.statusCode).toBe(200);
      expect(res.json().is_admin).toBe(shown);
    });

    it.each([
      ['anon', false],
      ['alice', false],
      ['bob', true],
      ['root', true],
    ])('a keep_email_private user seen by %s: real e-mail %s', async (viewer, real) => {
      const res = await t.request('GET', '/api/v1/users/bob', { headers: as(viewer) });
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe(real ? 'hidden-b@example.org' : placeholder('bob'));
    });

    it('last_login is the real time for self and admins, the Go zero time for others', async () => {
      const id = users.alice?.id;
      await t.db.user.update({ where: { id }, data: { lastLoginAt: new Date('2024-05-06T07:08:09.123Z') } });
      try {
        for (const [viewer, expected] of [
          ['alice', '2024-05-06T07:08:09Z'],
          ['root', '2024-05-06T07:08:09Z'],
          ['bob', GO_ZERO],
          ['anon', GO_ZERO],
        ]) {
          const res = await t.request('GET', '/api/v1/users/alice', { headers: as(viewer ?? 'anon') });
          expect(res.json().last_login).toBe(expected);
        }
      } finally {
        await t.db.user.update({ where: { id }, data: { lastLoginAt: null } });
      }
    });

    it('the login is matched case-insensitively', async () => {
      const res = await t.request('GET', '/api/v1/users/ALICE');
      expect(res.statusCode).toBe(200);
      expect(res.json().login).toBe('alice');
    });

    it('an unknown user is 404', async () => {
      const res = await t.request('GET', '/api/v1/users/nobody');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'user redirect does not exist [name: nobody]', url: SWAGGER });
    });

    it.each([
      ['carol', 'anon', 404],
      ['carol', 'alice', 404],
      ['carol', 'carol', 200],
      ['carol', 'root', 200],
      ['dave', 'anon', 404],
      ['dave', 'alice', 200],
      ['dave', 'dave', 200],
      ['dave', 'root', 200],
    ])('%s (non-public) seen by %s → %i', async (target, viewer, status) => {
      const res = await t.request('GET', `/api/v1/users/${target}`, { headers: as(viewer) });
      expect(res.statusCode).toBe(status);
      if (status === 404) expect(isGiteaError(res.json())).toBe(true);
      else expect(res.json()).toMatchObject({ login: target, visibility: target === 'carol' ? 'private' : 'limited' });
    });
  });

  describe('GET /users/search', () => {
    const search = async (query: string, viewer = 'anon') => {
      const res = await t.request('GET', `/api/v1/users/search${query ? `?${query}` : ''}`, { headers: as(viewer) });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { ok: boolean; data: { login: string; email: string }[] };
      expect(body.ok).toBe(true);
      return { res, body, logins: body.data.map((u) => u.login) };
    };

    it('answers {"ok":true,"data":[…]} with the public view of each user', async () => {
      const { body } = await search('q=alice');
      expect(Object.keys(body).sort()).toEqual(['data', 'ok']);
      expect(body.data).toHaveLength(1);
      expect(body.data[0]).toMatchObject({ login: 'alice', email: placeholder('alice'), login_name: '', last_login: GO_ZERO });
    });

    // Only active individual users the viewer may see, ordered by name.
    it.each([
      ['anon', ['alice', 'bob', 'frank', 'root']],
      ['alice', ['alice', 'bob', 'dave', 'frank', 'root']],
      ['carol', ['alice', 'bob', 'carol', 'dave', 'frank', 'root']],
      ['frank', ['frank']],
      ['root', ['alice', 'bob', 'carol', 'dave', 'frank', 'root']],
    ])('without q, %s sees %j', async (viewer, expected) => {
      const { res, logins } = await search('', viewer);
      expect(logins).toEqual(expected);
      expect(res.headers['x-total-count']).toBe(String(expected.length));
    });

    it.each([
      ['q=liddell', 'anon', ['alice']],
      ['q=LIDDELL', 'anon', ['alice']],
      ['q=ALI', 'anon', ['alice']],
      ['q=alice%40example', 'anon', ['alice']],
      ['q=example.com', 'anon', ['alice', 'frank', 'root']],
      ['q=example.com', 'alice', ['alice', 'dave', 'frank', 'root']],
      // bob keeps his e-mail private: only he and admins can find him by it.
      ['q=hidden-b', 'anon', []],
      ['q=hidden-b', 'alice', []],
      ['q=hidden-b', 'bob', ['bob']],
      ['q=hidden-b', 'root', ['bob']],
      ['q=acme', 'root', []],
      ['q=erin', 'root', []],
      ['q=nothing-matches', 'root', []],
    ])('%s as %s finds %j', async (query, viewer, expected) => {
      const { logins } = await search(query, viewer);
      expect(logins).toEqual(expected);
    });

    it.each([
      ['alice', 'anon', ['alice']],
      ['carol', 'anon', []],
      ['carol', 'root', ['carol']],
      ['erin', 'root', []],
    ])('uid of %s as %s finds %j', async (name, viewer, expected) => {
      const { logins } = await search(`uid=${users[name]?.id}`, viewer);
      expect(logins).toEqual(expected);
    });

    it('uid and q combine', async () => {
      expect((await search(`uid=${users.alice?.id}&q=bob`)).logins).toEqual([]);
      expect((await search(`uid=${users.alice?.id}&q=lid`)).logins).toEqual(['alice']);
    });

    it('a public-only token finds public users only, even itself', async () => {
      const token = await t.createToken('carol', ['public-only', 'read:user']);
      const res = await t.request('GET', '/api/v1/users/search', { headers: tokenAuth(token) });
      expect(res.statusCode).toBe(200);
      expect((res.json().data as { login: string }[]).map((u) => u.login)).toEqual(['alice', 'bob', 'frank', 'root']);
    });

    it.each([
      [
        'limit=2&page=1',
        ['alice', 'bob'],
        [
          ['next', 2],
          ['last', 2],
        ],
      ],
      [
        'limit=2&page=2',
        ['frank', 'root'],
        [
          ['first', 1],
          ['prev', 1],
        ],
      ],
      [
        'limit=1&page=2',
        ['bob'],
        [
          ['next', 3],
          ['last', 4],
          ['first', 1],
          ['prev', 1],
        ],
      ],
      [
        'page=2&limit=3',
        ['root'],
        [
          ['first', 1],
          ['prev', 1],
        ],
      ],
      ['limit=10', ['alice', 'bob', 'frank', 'root'], []],
    ] as [string, string[], [string, number][]][])('pagination %s', async (query, expected, rels) => {
      const { res, logins } = await search(query);
      expect(logins).toEqual(expected);
      expect(res.headers['x-total-count']).toBe('4');
      const params = Object.fromEntries(new URLSearchParams(query));
      delete params.page;
      expect(res.headers.link).toBe(rels.length ? searchLink(params, rels) : undefined);
    });

    it('the Link header keeps q, with sorted keys', async () => {
      const { res, logins } = await search('q=example.com&limit=1');
      expect(logins).toEqual(['alice']);
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.headers.link).toBe(
        searchLink({ limit: '1', q: 'example.com' }, [
          ['next', 2],
          ['last', 3],
        ]),
      );
    });

    it('no Link header when nothing matches', async () => {
      const { res } = await search('q=nothing-matches');
      expect(res.headers['x-total-count']).toBe('0');
      expect(res.headers.link).toBeUndefined();
    });
  });
});
