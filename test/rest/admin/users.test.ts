import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo, editUser } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader, SWAGGER_URL } from '../../helpers/giteaAssert.ts';
import { createOrgAs } from '../../helpers/org.ts';

const API = '/api/v1/admin/users';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SCOPE_MSG = (level: string, scope: string) =>
  `token does not have at least one of required scope(s), required=[${level}:admin], token scope=${scope}`;

describe.each(PROVIDERS)('admin users REST (%s)', (provider) => {
  let t: TestApp;
  let root: Models.User;
  let admin: Record<string, string>;
  const row = (name: string) => t.db.user.findUnique({ where: { lowerName: name } });
  const call = (method: string, url: string, body?: unknown) => t.request(method, url, { headers: admin, body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    root = await t.createUser('root', { admin: true });
    await t.createUser('plain');
    admin = tokenAuth(await t.createToken('root', ['all']));
  });
  afterAll(() => t.close());

  describe('auth gates', () => {
    const routes = [
      { method: 'POST', url: API, level: 'write', body: { username: 'gated', email: 'gated@example.com', password: 'long-enough' } },
      { method: 'GET', url: API, level: 'read', body: undefined },
      { method: 'PATCH', url: `${API}/plain`, level: 'write', body: { login_name: 'plain', full_name: 'Gated' } },
      { method: 'DELETE', url: `${API}/plain`, level: 'write', body: undefined },
    ] as const;
    const callers = [
      { who: 'anonymous', auth: async () => ({}), status: 401, msg: () => 'token is required' },
      { who: 'a non-admin (basic)', auth: async () => basic('plain'), status: 403, msg: () => 'user should be the site admin' },
      {
        who: 'a non-admin token with write:admin',
        auth: async () => tokenAuth(await t.createToken('plain', ['write:admin'])),
        status: 403,
        msg: () => 'user should be the site admin',
      },
      {
        who: 'an admin token with only read:user',
        auth: async () => tokenAuth(await t.createToken('root', ['read:user'])),
        status: 403,
        msg: (l: string) => SCOPE_MSG(l, 'read:user'),
      },
    ];
    const cases = routes.flatMap((r) => callers.map((c) => ({ ...r, ...c })));

    it.each(cases)('$method $url by $who → $status', async (c) => {
      const res = await t.request(c.method, c.url, { headers: await c.auth(), body: c.body });
      expectGiteaError(res, c.status, c.msg(c.level));
    });

    it.each(routes.filter((r) => r.level === 'write'))('$method $url with a read:admin token → 403 scope', async (r) => {
      const res = await t.request(r.method, r.url, { headers: tokenAuth(await t.createToken('root', ['read:admin'])), body: r.body });
      expectGiteaError(res, 403, SCOPE_MSG('write', 'read:admin'));
    });

    it('refused calls change nothing; read:admin may list, write:admin may write', async () => {
      expect(await row('gated')).toBeNull();
      expect(await row('plain')).toMatchObject({ fullName: '' });
      const read = await t.request('GET', API, { headers: tokenAuth(await t.createToken('root', ['read:admin'])) });
      expect(read.statusCode).toBe(200);
      const write = await t.request('PATCH', `${API}/plain`, {
        headers: tokenAuth(await t.createToken('root', ['write:admin'])),
        body: { login_name: 'plain', location: 'Here' },
      });
      expect(write.statusCode).toBe(200);
      expect(await row('plain')).toMatchObject({ location: 'Here', loginName: 'plain' });
    });
  });

  describe('POST /admin/users', () => {
    it('creates an active user (201, private fields) with an activated primary address', async () => {
      const body = {
        username: 'newbie',
        email: 'NewBie@Example.com',
        password: 'long-enough',
        full_name: 'New Bie',
        login_name: 'nb-ext',
        visibility: 'limited',
        restricted: true,
      };
      const res = await call('POST', API, body);
      expect(res.statusCode).toBe(201);
      expect(res.headers['content-type']).toBe('application/json;charset=utf-8');
      const created = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'newbie' }, include: { emailAddresses: true } });
      expect(res.json()).toMatchObject({
        id: created.id,
        login: 'newbie',
        username: 'newbie',
        email: 'NewBie@Example.com',
        full_name: 'New Bie',
        login_name: 'nb-ext',
        source_id: 0,
        is_admin: false,
        active: true,
        prohibit_login: false,
        restricted: true,
        visibility: 'limited',
        html_url: 'http://localhost:3000/newbie',
        last_login: '1970-01-01T00:00:00Z',
      });
      expect(created).toMatchObject({
        type: 'INDIVIDUAL',
        mustChangePassword: true,
        isActive: true,
        isAdmin: false,
        isRestricted: true,
        visibility: 'LIMITED',
      });
      expect(created.passwordHash).not.toBe('');
      expect(created.passwordHash).not.toContain('long-enough');
      expect(created.emailAddresses).toEqual([
        expect.objectContaining({ email: 'NewBie@Example.com', lowerEmail: 'newbie@example.com', isPrimary: true, isActivated: true }),
      ]);
    });

    it('must_change_password defaults to true: the new user gets 403 (no url) on every call', async () => {
      for (const headers of [basic('newbie', 'long-enough'), basic('NewBie@Example.com', 'long-enough')]) {
        const res = await t.request('GET', '/api/v1/user', { headers });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: 'You must change your password. Change it at: http://localhost:3000//user/change_password' });
      }
    });

    it('honours must_change_password:false and created_at, from a form-urlencoded body', async () => {
      const payload =
        'username=formy&email=formy%40example.com&password=long-enough&must_change_password=false&created_at=2020-01-02T03%3A04%3A05Z';
      const res = await t.request('POST', API, { headers: { ...admin, ...FORM }, payload });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ login: 'formy', created: '2020-01-02T03:04:05Z' });
      expect(await row('formy')).toMatchObject({ mustChangePassword: false, createdAt: new Date('2020-01-02T03:04:05Z') });
      const me = await t.request('GET', '/api/v1/user', { headers: basic('formy', 'long-enough') });
      expect(me.statusCode).toBe(200);
      expect(me.json().login).toBe('formy');
    });

    const ok = { email: 'ok@example.com', password: 'long-enough' };
    it.each([
      ['a password shorter than 8', { username: 'shorty', email: 'shorty@example.com', password: '1234567' }, 400, 'PasswordIsRequired'],
      ['no password', { username: 'nopass', email: 'nopass@example.com' }, 400, 'PasswordIsRequired'],
      ['an invalid username', { ...ok, username: '-bad' }, 422, '[Username]: invalid username'],
      ['a doubled separator', { ...ok, username: 'a..b' }, 422, '[Username]: invalid username'],
      ['a reserved name', { ...ok, username: 'api' }, 422, 'name is reserved [name: api]'],
      ['a reserved pattern', { ...ok, username: 'x.keys' }, 422, 'name pattern is not allowed [pattern: *.keys]'],
      ['a 41-character name', { ...ok, username: 'a'.repeat(41) }, 422, '[Username]: MaxSize'],
      ['a missing username', { ...ok }, 422, '[Username]: Required'],
      ['an empty body', {}, 422, '[Username]: Required'],
      ['a missing email', { username: 'noemail', password: 'long-enough' }, 422, '[Email]: Required'],
      ['a taken name', { ...ok, username: 'plain' }, 422, 'user already exists [name: plain]'],
      ['a taken name in another case', { ...ok, username: 'PLAIN' }, 422, 'user already exists [name: PLAIN]'],
      [
        'a taken e-mail',
        { ...ok, username: 'dupmail', email: 'plain@example.com' },
        422,
        'e-mail already in use [email: plain@example.com]',
      ],
      [
        'a taken e-mail in another case',
        { ...ok, username: 'dupmail', email: 'Plain@Example.COM' },
        422,
        'e-mail already in use [email: Plain@Example.COM]',
      ],
      ['an invalid e-mail', { ...ok, username: 'badmail', email: 'not-an-email' }, 422, undefined],
      ['a bad visibility', { ...ok, username: 'vis', visibility: 'secret' }, 422, '[Visibility]: In'],
      ['an unknown source_id', { ...ok, username: 'src', source_id: 7 }, 422, 'login source does not exist [id: 7]'],
      ['a 101-character full_name', { ...ok, username: 'longfn', full_name: 'x'.repeat(101) }, 422, '[FullName]: MaxSize'],
    ] as const)('rejects %s', async (_case, body, status, message) => {
      const before = await t.db.user.count();
      expectGiteaError(await call('POST', API, body), status, message);
      expect(await t.db.user.count()).toBe(before);
    });
  });

  describe('PATCH /admin/users/{username}', () => {
    const patch = (name: string, body: Record<string, unknown>) => call('PATCH', `${API}/${name}`, body);

    it('changes only the given fields and answers the user with private fields', async () => {
      const u = await t.createUser('pat1', { fullName: 'Old Name', loginName: 'old-ext' });
      const before = await t.db.user.update({
        where: { id: u.id },
        data: { website: 'https://old.example', location: 'Old Town', description: 'old bio' },
      });
      const res = await patch('pat1', { login_name: 'new-ext', full_name: 'New Name' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: u.id,
        login: 'pat1',
        full_name: 'New Name',
        login_name: 'new-ext',
        website: 'https://old.example',
        location: 'Old Town',
        description: 'old bio',
        email: 'pat1@example.com',
        is_admin: false,
        active: true,
        restricted: false,
        visibility: 'public',
      });
      const after = await t.db.user.findUniqueOrThrow({ where: { id: u.id } });
      expect(after).toEqual({ ...before, fullName: 'New Name', loginName: 'new-ext', updatedAt: after.updatedAt });
    });

    it.each([
      ['active', false, 'isActive', false, 'active'],
      ['prohibit_login', true, 'prohibitLogin', true, 'prohibit_login'],
      ['must_change_password', true, 'mustChangePassword', true, null],
      ['allow_git_hook', true, 'allowGitHook', true, null],
      ['allow_import_local', true, 'allowImportLocal', true, null],
      ['allow_create_organization', false, 'allowCreateOrganization', false, null],
      ['max_repo_creation', 5, 'maxRepoCreation', 5, null],
      ['restricted', true, 'isRestricted', true, 'restricted'],
      ['visibility', 'private', 'visibility', 'PRIVATE', 'visibility'],
      ['location', 'Gallifrey', 'location', 'Gallifrey', 'location'],
      ['description', 'a bio', 'description', 'a bio', 'description'],
      ['website', 'https://new.example/x', 'website', 'https://new.example/x', 'website'],
      ['website', '', 'website', '', 'website'],
    ] as const)('%s: %j is persisted and nothing else changes', async (field, value, column, stored, apiField) => {
      const name = `fld-${field.replace(/_/g, '')}-${String(value).length}`;
      const u = await t.createUser(name);
      const before = await t.db.user.update({ where: { id: u.id }, data: { website: 'https://old.example' } });
      const res = await patch(name, { login_name: name, [field]: value });
      expect(res.statusCode).toBe(200);
      if (apiField) expect(res.json()[apiField]).toBe(value);
      const after = await t.db.user.findUniqueOrThrow({ where: { id: u.id } });
      expect(after).toEqual({ ...before, [column]: stored, loginName: name, updatedAt: after.updatedAt });
    });

    it("accepts a form-urlencoded body, as Gitea's own test sends", async () => {
      await t.createUser('frm');
      const res = await t.request('PATCH', `${API}/frm`, {
        headers: { ...admin, ...FORM },
        payload: 'login_name=frm&source_id=0&full_name=Form+Name&restricted=true',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ full_name: 'Form Name', restricted: true });
      expect(await row('frm')).toMatchObject({ fullName: 'Form Name', isRestricted: true });
    });

    const base = { login_name: 'rej', full_name: 'Should Not Stick' };
    it.each([
      ['no login_name', { full_name: 'Nope' }, 422, '[LoginName]: Required'],
      ['an empty login_name', { login_name: '', full_name: 'Nope' }, 422, '[LoginName]: Required'],
      ['an empty email', { ...base, email: '' }, 400, 'e-mail invalid [email: ]'],
      [
        'an email with a space',
        { ...base, email: 'bad mail@example.com' },
        400,
        'e-mail address contains unsupported character [email: bad mail@example.com]',
      ],
      ["another user's email", { ...base, email: 'plain@example.com' }, 400, 'e-mail already in use [email: plain@example.com]'],
      [
        "another user's email in another case",
        { ...base, email: 'PLAIN@example.com' },
        400,
        'e-mail already in use [email: PLAIN@example.com]',
      ],
      ['a 7-character password', { ...base, password: '1234567' }, 400, 'password must be at least 8 characters'],
      ['a bad visibility', { ...base, visibility: 'hidden' }, 422, '[Visibility]: In'],
      ['a website that is no URL', { ...base, website: 'not a url' }, 422, '[Website]: Url'],
      ['a non-http website', { ...base, website: 'ftp://files.example' }, 422, '[Website]: Url'],
      ['a 101-character full_name', { ...base, full_name: 'x'.repeat(101) }, 422, '[FullName]: MaxSize'],
      ['a 51-character location', { ...base, location: 'x'.repeat(51) }, 422, '[Location]: MaxSize'],
    ] as const)('rejects %s', async (_case, body, status, message) => {
      const u = (await row('rej')) ?? (await t.createUser('rej'));
      expectGiteaError(await patch('rej', body), status, message);
      const after = await t.db.user.findUniqueOrThrow({ where: { id: u.id } });
      expect(after).toMatchObject({ fullName: '', email: 'rej@example.com', passwordHash: u.passwordHash, location: '', website: '' });
    });

    it('unknown username → 404', async () => {
      expectGiteaError(await patch('nobody', { login_name: 'nobody' }), 404, 'user redirect does not exist [name: nobody]');
    });

    it('a new e-mail becomes the activated primary address and the old primary row is deleted', async () => {
      const u = await t.createUser('mailer');
      await t.db.emailAddress.create({ data: { userId: u.id, email: 'mailer-alt@example.com', lowerEmail: 'mailer-alt@example.com' } });
      const res = await patch('mailer', { login_name: 'mailer', email: 'Mailer.New@example.com' });
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe('Mailer.New@example.com');
      expect(await row('mailer')).toMatchObject({ email: 'Mailer.New@example.com' });
      const rows = await t.db.emailAddress.findMany({ where: { userId: u.id }, orderBy: { lowerEmail: 'asc' } });
      expect(rows.map(({ email, isPrimary, isActivated }) => ({ email, isPrimary, isActivated }))).toEqual([
        { email: 'mailer-alt@example.com', isPrimary: false, isActivated: false },
        { email: 'Mailer.New@example.com', isPrimary: true, isActivated: true },
      ]);
      expect(await t.db.emailAddress.findUnique({ where: { lowerEmail: 'mailer@example.com' } })).toBeNull();
      const signIn = await t.request('GET', '/api/v1/user', { headers: basic('Mailer.New@example.com') });
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json().login).toBe('mailer');
    });

    it('the same e-mail in another case is a no-op', async () => {
      const res = await patch('mailer', { login_name: 'mailer', email: 'MAILER.NEW@EXAMPLE.COM' });
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe('Mailer.New@example.com');
      expect(await t.db.emailAddress.count({ where: { user: { lowerName: 'mailer' } } })).toBe(2);
    });

    it('a password change lets the user sign in with the new password only', async () => {
      await t.createUser('pwd');
      const res = await patch('pwd', { login_name: 'pwd', password: 'brand-new-secret' });
      expect(res.statusCode).toBe(200);
      const fresh = await t.request('GET', '/api/v1/user', { headers: basic('pwd', 'brand-new-secret') });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.json().login).toBe('pwd');
      const stale = await t.request('GET', '/api/v1/user', { headers: basic('pwd') });
      expect(stale.statusCode).toBe(401);
      expect(stale.json()).toEqual({ message: 'invalid username, password or token', url: SWAGGER_URL });
    });

    it('admin:false on the last admin is 400; admin rights can be granted and revoked otherwise', async () => {
      expect(await t.db.user.count({ where: { isAdmin: true } })).toBe(1);
      expectGiteaError(
        await patch('root', { login_name: 'root', admin: false }),
        400,
        `can not delete the last admin user [uid: ${root.id}]`,
      );
      expect(await row('root')).toMatchObject({ isAdmin: true });
      expect((await patch('plain', { login_name: 'plain', admin: false })).statusCode).toBe(200);
      await t.createUser('second');
      const grant = await patch('second', { login_name: 'second', admin: true });
      expect(grant.statusCode).toBe(200);
      expect(grant.json().is_admin).toBe(true);
      expect(await row('second')).toMatchObject({ isAdmin: true });
      const revoke = await patch('second', { login_name: 'second', admin: false });
      expect(revoke.json().is_admin).toBe(false);
      expect(await row('second')).toMatchObject({ isAdmin: false });
    });
  });

  describe('DELETE /admin/users/{username}', () => {
    it('deletes a user with its addresses and tokens (204, empty body)', async () => {
      const u = await t.createUser('gone');
      const token = await t.createToken('gone');
      await t.db.emailAddress.create({ data: { userId: u.id, email: 'gone-2@example.com', lowerEmail: 'gone-2@example.com' } });
      const res = await call('DELETE', `${API}/gone`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await row('gone')).toBeNull();
      expect(await t.db.emailAddress.count({ where: { userId: u.id } })).toBe(0);
      expect(await t.db.accessToken.count({ where: { userId: u.id } })).toBe(0);
      expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(token) })).statusCode).toBe(401);
    });

    it('refuses to delete oneself (422)', async () => {
      expectGiteaError(await call('DELETE', `${API}/root`), 422, 'you cannot delete yourself');
      expect(await row('root')).not.toBeNull();
    });

    it('unknown username → 404', async () => {
      expectGiteaError(await call('DELETE', `${API}/nobody`), 404, 'user redirect does not exist [name: nobody]');
    });

    it('a repository owner is 422 unless ?purge=true, which removes the repositories too', async () => {
      const owner = await t.createUser('owner1');
      const repo = await createRepo(t, owner, 'proj');
      for (const q of ['', '?purge=false']) {
        expectGiteaError(await call('DELETE', `${API}/owner1${q}`), 422, `user still has ownership of repositories [uid: ${owner.id}]`);
      }
      expect(await row('owner1')).not.toBeNull();
      expect(await t.db.repository.findUnique({ where: { id: repo.id } })).not.toBeNull();
      expect((await call('DELETE', `${API}/owner1?purge=true`)).statusCode).toBe(204);
      expect(await row('owner1')).toBeNull();
      expect(await t.db.repository.findUnique({ where: { id: repo.id } })).toBeNull();
    });

    it('an organization member is 422 unless purged; an organization is not a user', async () => {
      const member = await t.createUser('member1');
      // member1 creates it, so is its one member (in the Owners team).
      const org = await createOrgAs(t, member, 'guild');
      expectGiteaError(await call('DELETE', `${API}/member1`), 422, `user still has membership of organizations [uid: ${member.id}]`);
      expect((await call('DELETE', `${API}/member1?purge=true`)).statusCode).toBe(204);
      expect(await t.db.orgUser.count({ where: { orgId: org.id } })).toBe(0);
      expectGiteaError(await call('DELETE', `${API}/guild`), 422, 'guild is an organization not a user');
      expect(await row('guild')).not.toBeNull();
    });
  });
});

describe.each(PROVIDERS)('GET /admin/users filters and pagination (%s)', (provider) => {
  let t: TestApp;
  let admin: Record<string, string>;
  const ALL = ['amy', 'bob', 'cat', 'dan', 'eve', 'root'];
  const list = (query = '') => t.request('GET', `/api/v1/admin/users${query ? `?${query}` : ''}`, { headers: admin });

  beforeAll(async () => {
    t = await startTestApp(provider);
    const root = await t.createUser('root', { admin: true });
    await t.createUser('amy', { fullName: 'Amy Pond' });
    await t.createUser('bob', { visibility: 'LIMITED', restricted: true });
    await t.createUser('cat', { visibility: 'PRIVATE' });
    await editUser(t, { name: 'cat' }, { active: false, prohibitLogin: true });
    await t.createUser('dan', { admin: true, fullName: 'Daniel Zed', email: 'dz@mail.test' });
    await t.createUser('eve', { loginName: 'eve-ext' });
    await t.db.user.update({ where: { lowerName: 'eve' }, data: { loginSource: 3 } });
    await createOrgAs(t, root, 'orga');
    await t.db.user.update({ where: { lowerName: 'amy' }, data: { location: 'Leadworth', updatedAt: new Date(Date.now() + 60_000) } });
    admin = tokenAuth(await t.createToken('root', ['read:admin']));
  });
  afterAll(() => t.close());

  it('lists individual users by name with private fields, X-Total-Count and no Link on one page', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('6');
    expect(res.headers['access-control-expose-headers']).toContain('X-Total-Count');
    expect(res.headers.link).toBeUndefined();
    const body: Array<Record<string, unknown>> = res.json();
    expect(body.map((u) => u.login)).toEqual(ALL);
    expect(body.find((u) => u.login === 'cat')).toMatchObject({
      active: false,
      prohibit_login: true,
      visibility: 'private',
      email: 'cat@example.com',
    });
    expect(body.find((u) => u.login === 'dan')).toMatchObject({ is_admin: true, email: 'dz@mail.test' });
    expect(body.find((u) => u.login === 'eve')).toMatchObject({ login_name: 'eve-ext', source_id: 3 });
  });

  it.each([
    ['q=amy', ['amy']],
    ['q=POND', ['amy']],
    ['q=mail.test', ['dan']],
    ['q=%20zed%20', ['dan']],
    ['q=orga', []],
    ['visibility=limited', ['bob']],
    ['visibility=private', ['cat']],
    ['visibility=public', ['amy', 'dan', 'eve', 'root']],
    ['is_admin=true', ['dan', 'root']],
    ['is_admin=false', ['amy', 'bob', 'cat', 'eve']],
    ['is_active=false', ['cat']],
    ['is_restricted=true', ['bob']],
    ['is_prohibit_login=true', ['cat']],
    ['login_name=eve-ext', ['eve']],
    ['source_id=3', ['eve']],
    ['is_admin=false&visibility=public', ['amy', 'eve']],
    ['sort=name&order=desc', [...ALL].reverse()],
    ['sort=id', ['root', 'amy', 'bob', 'cat', 'dan', 'eve']],
    ['sort=id&order=desc', ['eve', 'dan', 'cat', 'bob', 'amy', 'root']],
    ['sort=created&order=desc', ['eve', 'dan', 'cat', 'bob', 'amy', 'root']],
    ['sort=updated', ['root', 'bob', 'cat', 'dan', 'eve', 'amy']],
    ['order=desc', ALL],
    ['order=sideways', ALL],
  ])('?%s', async (query, logins) => {
    const res = await list(query);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Array<{ login: string }>).map((u) => u.login)).toEqual(logins);
    expect(res.headers['x-total-count']).toBe(String(logins.length));
    expect(res.headers.link).toBeUndefined();
  });

  it.each([
    ['visibility=bogus', undefined],
    ['sort=bogus', 'Invalid sort mode: "bogus"'],
    ['sort=name&order=sideways', 'Invalid sort order: "sideways"'],
  ])('?%s → 422', async (query, message) => {
    expectGiteaError(await list(query), 422, message);
  });

  const U = 'admin/users';
  it.each([
    [
      'limit=2',
      6,
      ['amy', 'bob'],
      '<http://localhost:3000/api/v1/admin/users?limit=2&page=2>; rel="next",<http://localhost:3000/api/v1/admin/users?limit=2&page=3>; rel="last"',
    ],
    [
      'page=2&limit=2',
      6,
      ['cat', 'dan'],
      linkHeader(U, { limit: '2' }, [
        ['next', 3],
        ['last', 3],
        ['first', 1],
        ['prev', 1],
      ]),
    ],
    [
      'limit=2&page=3',
      6,
      ['eve', 'root'],
      '<http://localhost:3000/api/v1/admin/users?limit=2&page=1>; rel="first",<http://localhost:3000/api/v1/admin/users?limit=2&page=2>; rel="prev"',
    ],
    [
      'limit=2&page=9',
      6,
      [],
      linkHeader(U, { limit: '2' }, [
        ['first', 1],
        ['prev', 2],
      ]),
    ],
    [
      'page=2&limit=2&is_admin=false',
      4,
      ['cat', 'eve'],
      '<http://localhost:3000/api/v1/admin/users?is_admin=false&limit=2&page=1>; rel="first",<http://localhost:3000/api/v1/admin/users?is_admin=false&limit=2&page=1>; rel="prev"',
    ],
    [
      'visibility=public&limit=1',
      4,
      ['amy'],
      '<http://localhost:3000/api/v1/admin/users?limit=1&page=2&visibility=public>; rel="next",<http://localhost:3000/api/v1/admin/users?limit=1&page=4&visibility=public>; rel="last"',
    ],
    ['q=zzz&limit=1', 0, [], undefined],
    ['limit=0', 6, ALL, undefined],
    ['limit=-3&page=0', 6, ALL, undefined],
    ['limit=abc&page=-1', 6, ALL, undefined],
  ])("?%s pages with Gitea's Link header", async (query, total, logins, link) => {
    const res = await list(query);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Array<{ login: string }>).map((u) => u.login)).toEqual(logins);
    expect(res.headers['x-total-count']).toBe(String(total));
    expect(res.headers.link).toBe(link);
  });

  it('limit defaults to 30 and is clamped to 50', async () => {
    await t.db.user.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({
        name: `bulk${String(i).padStart(2, '0')}`,
        lowerName: `bulk${String(i).padStart(2, '0')}`,
        email: `bulk${i}@example.com`,
      })),
    });
    const dflt = await list();
    expect(dflt.json()).toHaveLength(30);
    expect(dflt.headers['x-total-count']).toBe('56');
    expect(dflt.headers.link).toBe(
      '<http://localhost:3000/api/v1/admin/users?page=2>; rel="next",<http://localhost:3000/api/v1/admin/users?page=2>; rel="last"',
    );
    const big = await list('limit=100');
    expect(big.json()).toHaveLength(50);
    expect(big.headers.link).toBe(
      '<http://localhost:3000/api/v1/admin/users?limit=100&page=2>; rel="next",<http://localhost:3000/api/v1/admin/users?limit=100&page=2>; rel="last"',
    );
  });
});
