// The package API (/api/v1/packages/{owner}…) and the npm registry's wire answers (Gitea's statuses and bodies).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs } from '../../helpers/org.ts';

const PACKAGE_FIELDS = ['id', 'owner', 'repository', 'creator', 'type', 'name', 'version', 'html_url', 'created_at'];

/** An npm publish body for `name@version` with a tarball of `content`. */
function npmBody(name: string, version: string, content = `tarball of ${name}@${version}`, tags: string[] = ['latest']) {
  const data = Buffer.from(content);
  const integrity = `sha512-${createHash('sha512').update(data).digest('base64')}`;
  return {
    _id: name,
    name,
    description: 'a test package',
    'dist-tags': Object.fromEntries(tags.map((t) => [t, version])),
    versions: {
      [version]: {
        name,
        version,
        description: 'a test package',
        author: { name: 'Tester' },
        license: 'MIT',
        keywords: ['test'],
        dist: { integrity, shasum: createHash('sha1').update(data).digest('hex') },
      },
    },
    _attachments: {
      [`${name}-${version}.tgz`]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length },
    },
  };
}

describe.each(PROVIDERS)('package API and npm wire answers (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let other: Models.User;
  let admin: Models.User;
  const events: DomainEvent[] = [];
  const putGeneric = (user: string, name: string, version: string, file: string, body = 'x') =>
    t.app.server.inject({
      method: 'PUT',
      url: `/api/packages/${user}/generic/${name}/${version}/${file}`,
      headers: basic(user),
      payload: body,
    });
  const npmUrl = (user: string, rest: string) => `/api/packages/${user}/npm/${rest}`;

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('pkg-owner');
    other = await t.createUser('pkg-other');
    admin = await t.createUser('pkg-admin', { admin: true });
    t.app.deps.notifier.subscribe({
      name: 'test',
      handle: (e) => {
        if (e.type.startsWith('package.')) events.push(e);
      },
    });
    for (const v of ['1.0.3', '1.0.10', '1.0.2'])
      expect((await putGeneric(owner.name, 'test-package', v, 'file.bin')).statusCode).toBe(201);
    expect((await putGeneric(owner.name, 'other-thing', '2', 'a.txt')).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('lists package versions newest first with type and q filters, Link and X-Total-Count', async () => {
    const res = await t.request('GET', `/api/v1/packages/${owner.name}?limit=2`, { headers: basic(owner.name) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('4');
    expect(res.headers.link).toContain('rel="next"');
    const body = res.json() as Record<string, unknown>[];
    expect(body.map((p) => `${p.name}@${p.version}`)).toEqual(['other-thing@2', 'test-package@1.0.2']);
    expect(Object.keys(body[0] ?? {})).toEqual(PACKAGE_FIELDS);
    expect(body[0]?.type).toBe('generic');
    expect(body[0]?.repository).toBeNull();
    expect((body[0]?.creator as { login: string }).login).toBe(owner.name);
    expect(body[0]?.html_url).toBe(`http://localhost:3000/${owner.name}/-/packages/generic/other-thing/2`);
    const q = await t.request('GET', `/api/v1/packages/${owner.name}?q=TEST-pack`, { headers: basic(owner.name) });
    expect((q.json() as unknown[]).length).toBe(3);
    const npmOnly = await t.request('GET', `/api/v1/packages/${owner.name}?type=npm`, { headers: basic(owner.name) });
    expect(npmOnly.json()).toEqual([]);
  });

  it('★ -/latest is the last uploaded version, not the highest semver; 404s and 401 as Gitea', async () => {
    const res = await t.request('GET', `/api/v1/packages/${owner.name}/generic/test-package/-/latest`, { headers: basic(other.name) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, unknown>;
    expect(body.version).toBe('1.0.2');
    expect(body.type).toBe('generic');
    expect(body.name).toBe('test-package');
    expect(Object.keys(body)).toEqual(PACKAGE_FIELDS);
    // reqToken first: anonymous is 401 even for a public owner.
    const anon = await t.request('GET', `/api/v1/packages/${owner.name}/generic/test-package/-/latest`);
    expectGiteaError(anon, 401);
    expectGiteaError(
      await t.request('GET', `/api/v1/packages/${owner.name}/dummy/test-package/-/latest`, { headers: basic(owner.name) }),
      404,
    );
    expectGiteaError(await t.request('GET', `/api/v1/packages/${owner.name}/generic/nope/-/latest`, { headers: basic(owner.name) }), 404);
    expectGiteaError(await t.request('GET', `/api/v1/packages/nobody/generic/nope/-/latest`, { headers: basic(owner.name) }), 404);
  });

  it('gets a version, lists its files and versions, deletes a version and a package (events)', async () => {
    const got = await t.request('GET', `/api/v1/packages/${owner.name}/generic/test-package/1.0.3`, { headers: basic(owner.name) });
    expect(got.statusCode).toBe(200);
    const files = await t.request('GET', `/api/v1/packages/${owner.name}/generic/test-package/1.0.3/files`, { headers: basic(owner.name) });
    expect(files.json()).toEqual([
      {
        id: expect.any(Number),
        size: 1,
        name: 'file.bin',
        md5: createHash('md5').update('x').digest('hex'),
        sha1: createHash('sha1').update('x').digest('hex'),
        sha256: createHash('sha256').update('x').digest('hex'),
        sha512: createHash('sha512').update('x').digest('hex'),
      },
    ]);
    const versions = await t.request('GET', `/api/v1/packages/${owner.name}/generic/test-package`, { headers: basic(owner.name) });
    expect((versions.json() as { version: string }[]).map((v) => v.version)).toEqual(['1.0.2', '1.0.10', '1.0.3']);
    expectGiteaError(
      await t.request('DELETE', `/api/v1/packages/${owner.name}/generic/test-package/1.0.3`, { headers: basic(other.name) }),
      403,
    );
    events.length = 0;
    expect(
      (await t.request('DELETE', `/api/v1/packages/${owner.name}/generic/test-package/1.0.3`, { headers: basic(owner.name) })).statusCode,
    ).toBe(204);
    expectGiteaError(
      await t.request('GET', `/api/v1/packages/${owner.name}/generic/test-package/1.0.3`, { headers: basic(owner.name) }),
      404,
    );
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events.map((e) => e.type)).toEqual(['package.deleted']);
    expect(
      (await t.request('DELETE', `/api/v1/packages/${owner.name}/generic/other-thing`, { headers: basic(admin.name) })).statusCode,
    ).toBe(204);
    expect(await t.db.package.count({ where: { lowerName: 'other-thing' } })).toBe(0);
  });

  it('token scopes: read:package reads, write:package deletes, others are refused with 403', async () => {
    const noScope = await t.createToken(owner.name, ['read:repository']);
    const refused = await t.request('GET', `/api/v1/packages/${owner.name}`, { headers: tokenAuth(noScope) });
    expectGiteaError(refused, 403);
    expect((refused.json() as { message: string }).message).toContain('required=[read:package]');
    const readTok = await t.createToken(owner.name, ['read:package']);
    expect((await t.request('GET', `/api/v1/packages/${owner.name}`, { headers: tokenAuth(readTok) })).statusCode).toBe(200);
    expectGiteaError(
      await t.request('DELETE', `/api/v1/packages/${owner.name}/generic/test-package/1.0.2`, { headers: tokenAuth(readTok) }),
      403,
    );
  });

  it('private owners: outsiders get 403 for existing packages (existence checked first), 404 for missing ones', async () => {
    const orgOwner = await t.createUser('pkg-org-owner');
    const org = await createOrgAs(t, orgOwner, 'pkg-private-org', 'PRIVATE');
    const member = await t.createUser('pkg-member');
    await addMember(t, org, member);
    expect((await putGeneric(orgOwner.name, 'x', '1', 'f')).statusCode).toBe(201);
    const up = await t.app.server.inject({
      method: 'PUT',
      url: `/api/packages/${org.name}/generic/secret/1/f`,
      headers: basic(orgOwner.name),
      payload: 'x',
    });
    expect(up.statusCode).toBe(201);
    expect(
      (await t.request('GET', `/api/v1/packages/${org.name}/generic/secret/-/latest`, { headers: basic(member.name) })).statusCode,
    ).toBe(200);
    const outsider = await t.request('GET', `/api/v1/packages/${org.name}/generic/secret/-/latest`, { headers: basic(other.name) });
    expectGiteaError(outsider, 403);
    expect((outsider.json() as { message: string }).message).toBe('user should have specific permission or be a site admin');
    expectGiteaError(await t.request('GET', `/api/v1/packages/${org.name}/generic/missing/-/latest`, { headers: basic(other.name) }), 404);
  });

  it('links a package to a repository of its owner and unlinks it', async () => {
    const repo = await createRepo(t, owner, 'pkg-repo');
    const url = `/api/v1/packages/${owner.name}/generic/test-package/-/link/${repo.name}`;
    expectGiteaError(await t.request('POST', url, { headers: basic(other.name) }), 403);
    expect((await t.request('POST', url, { headers: basic(owner.name) })).statusCode).toBe(201);
    expectGiteaError(await t.request('POST', url, { headers: basic(owner.name) }), 400);
    const latest = await t.request('GET', `/api/v1/packages/${owner.name}/generic/test-package/-/latest`, { headers: basic(owner.name) });
    expect((latest.json() as { repository: { full_name: string } }).repository.full_name).toBe(`${owner.name}/pkg-repo`);
    expectGiteaError(
      await t.request('POST', `/api/v1/packages/${owner.name}/generic/test-package/-/link/nope`, { headers: basic(owner.name) }),
      404,
    );
    expect(
      (await t.request('POST', `/api/v1/packages/${owner.name}/generic/test-package/-/unlink`, { headers: basic(owner.name) })).statusCode,
    ).toBe(201);
    expectGiteaError(
      await t.request('POST', `/api/v1/packages/${owner.name}/generic/test-package/-/unlink`, { headers: basic(owner.name) }),
      400,
    );
  });

  it('the package list issues the same number of statements for 1 and for many versions', async () => {
    const count = async (user: string) => {
      // Jobs and after-commit subscribers of the uploads must not be counted.
      await t.app.jobs.drain();
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await t.request('GET', `/api/v1/packages/${user}`, { headers: basic(user) });
      expect(res.statusCode).toBe(200);
      return t.queries.length;
    };
    const few = await t.createUser('pkg-few');
    const lots = await t.createUser('pkg-lots');
    const repo = await createRepo(t, lots, 'linked');
    await putGeneric(few.name, 'a', '1', 'f');
    for (let i = 0; i < 12; i++) await putGeneric(lots.name, `p${i % 3}`, String(i), 'f');
    await t.request('POST', `/api/v1/packages/${lots.name}/generic/p0/-/link/${repo.name}`, { headers: basic(lots.name) });
    const fewRepo = await createRepo(t, few, 'linked');
    await t.request('POST', `/api/v1/packages/${few.name}/generic/a/-/link/${fewRepo.name}`, { headers: basic(few.name) });
    expect(await count(lots.name)).toBe(await count(few.name));
  });

  it('npm: publish 201, again 409, bad integrity 400, packument, tarball, tags and search answers', async () => {
    const name = '@scope/wire';
    const put = (body: unknown, user = owner.name) =>
      t.request('PUT', npmUrl(owner.name, '@scope%2fwire'), { headers: { ...basic(user), 'content-type': 'application/json' }, body });
    events.length = 0;
    expect((await put(npmBody(name, '1.0.0'))).statusCode).toBe(201);
    await t.app.deps.notifier.drain();
    expect(events.map((e) => e.type)).toEqual(['package.created']);
    const dup = await put(npmBody(name, '1.0.0'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'package version already exists' });
    const bad = npmBody(name, '1.0.1');
    bad.versions['1.0.1']!.dist.integrity = 'sha512-AAAA';
    expect((await put(bad)).json()).toEqual({ error: 'failed to validate integrity' });
    expect((await put({ ...npmBody('Bad Name', '1.0.0') })).json()).toEqual({ error: 'package name is invalid' });
    expect((await put(npmBody(name, 'not-a-version'))).json()).toEqual({ error: 'package version is invalid' });
    expect((await put(npmBody(name, '1.0.1'), other.name)).statusCode).toBe(401);
    const anon = await t.request('PUT', npmUrl(owner.name, '@scope%2fwire'), { body: npmBody(name, '1.0.2') });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['www-authenticate']).toBe('Basic realm="Gitea Package API"');
    expect((await put(npmBody(name, '1.1.0-beta.1', 'beta', ['next']))).statusCode).toBe(201);

    const doc = await t.request('GET', npmUrl(owner.name, '@scope%2fwire'));
    expect(doc.statusCode).toBe(200);
    const packument = doc.json() as Record<string, unknown> & { versions: Record<string, { dist: Record<string, string> }> };
    expect(packument.name).toBe(name);
    expect(packument['dist-tags']).toEqual({ latest: '1.0.0', next: '1.1.0-beta.1' });
    const dist = packument.versions['1.0.0']?.dist ?? {};
    expect(dist.tarball).toBe(`http://localhost:3000/api/packages/${owner.name}/npm/%40scope%2Fwire/-/1.0.0/wire-1.0.0.tgz`);
    expect(dist.integrity).toBe(`sha512-${createHash('sha512').update(`tarball of ${name}@1.0.0`).digest('base64')}`);
    // The same packument through the unencoded scoped path.
    expect((await t.request('GET', npmUrl(owner.name, '@scope/wire'))).statusCode).toBe(200);
    expect((await t.request('GET', npmUrl(owner.name, 'unknown'))).json()).toEqual({ error: 'package does not exist' });

    const tar = await t.request('GET', npmUrl(owner.name, '@scope%2fwire/-/1.0.0/wire-1.0.0.tgz'));
    expect(tar.statusCode).toBe(200);
    expect(tar.body).toBe(`tarball of ${name}@1.0.0`);
    expect((await t.request('GET', npmUrl(owner.name, '@scope/wire/-/wire-1.0.0.tgz'))).statusCode).toBe(200);

    const tagUrl = (tag: string) => npmUrl(owner.name, `-/package/@scope%2fwire/dist-tags/${tag}`);
    const tagPut = (tag: string, payload: string) =>
      t.request('PUT', tagUrl(tag), { headers: { ...basic(owner.name), 'content-type': 'application/json' }, payload });
    expect((await tagPut('1.0', '"1.0.0"')).statusCode).toBe(400);
    expect((await tagPut('v1.0', '"1.0.0"')).statusCode).toBe(400);
    expect((await tagPut('stable', '"9.9.9"')).statusCode).toBe(404);
    expect((await tagPut('stable', `"${'x'.repeat(5000)}"`)).statusCode).toBe(413);
    expect((await tagPut('stable', '"1.0.0"')).statusCode).toBe(200);
    const tags = await t.request('GET', npmUrl(owner.name, '-/package/@scope%2fwire/dist-tags'));
    expect(tags.json()).toEqual({ latest: '1.0.0', stable: '1.0.0', next: '1.1.0-beta.1' });
    expect((await t.request('DELETE', tagUrl('1.0'), { headers: basic(owner.name) })).statusCode).toBe(400);
    expect((await t.request('DELETE', tagUrl('stable'), { headers: basic(owner.name) })).statusCode).toBe(200);
    expect((await t.request('DELETE', tagUrl('unknown'), { headers: basic(owner.name) })).statusCode).toBe(200);

    const search = await t.request('GET', npmUrl(owner.name, '-/v1/search?text=wire&from=0&size=20'));
    const result = search.json() as { total: number; objects: { package: Record<string, unknown> }[] };
    expect(result.total).toBe(1);
    expect(result.objects[0]?.package).toMatchObject({ scope: '@scope', name: 'wire', version: '1.1.0-beta.1', maintainers: [] });

    expect((await t.request('DELETE', npmUrl(owner.name, '@scope%2fwire/-rev/1'))).statusCode).toBe(401);
    const oneVersion = await t.request('DELETE', npmUrl(owner.name, '@scope%2fwire/-/1.0.0/wire-1.0.0.tgz/-rev/1'), {
      headers: basic(owner.name),
    });
    expect(oneVersion.statusCode).toBe(200);
    expect(Object.keys((await t.request('GET', npmUrl(owner.name, '@scope%2fwire'))).json().versions as object)).toEqual(['1.1.0-beta.1']);
    expect((await t.request('DELETE', npmUrl(owner.name, '@scope%2fwire/-rev/1'), { headers: basic(owner.name) })).statusCode).toBe(200);
    expect((await t.request('DELETE', npmUrl(owner.name, '@scope%2fwire/-rev/1'), { headers: basic(owner.name) })).statusCode).toBe(404);
  });
});
