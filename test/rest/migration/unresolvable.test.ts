import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

/** `.invalid` never resolves (RFC 6761), like any outside name on a machine without a resolver. */
const UNRESOLVABLE = 'https://forge.invalid/x.git';

/**
 * Issue #30, finding 5: a host that does not resolve is not a refusal while the request is checked (Gitea ignores a
 * failed lookup: some installations reach the outside only through a proxy), so the name conflict answers 409;
 * the migration itself then fails at connect time with git's reason, and blocked hosts are still refused.
 */
describe.each(PROVIDERS)('POST /repos/migrate with a host that does not resolve (%s)', (provider) => {
  let t: TestApp;
  const asBob = basic('bob');
  const migrate = (body: Record<string, unknown>) => t.request('POST', '/api/v1/repos/migrate', { headers: asBob, body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('bob');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: asBob, body: { name: 'taken' } })).statusCode).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an existing name answers 409, as Gitea does without a resolver', async () => {
    expectGiteaError(
      await migrate({ clone_addr: UNRESOLVABLE, repo_name: 'taken' }),
      409,
      'The repository with the same name already exists.',
    );
  });

  it('a fresh name fails at connect time with the reason (not a 500), leaving no repository', async () => {
    const res = await migrate({ clone_addr: UNRESOLVABLE, repo_name: 'fresh' });
    expectGiteaError(res, 422, /^Migration failed: .*forge\.invalid/);
    expect(await t.db.repository.count({ where: { lowerName: 'fresh' } })).toBe(0);
    const api = await migrate({ clone_addr: 'https://forge.invalid/o/x', repo_name: 'fresh', service: 'gitea', issues: true });
    expectGiteaError(api, 422, /^Migration failed: .*forge\.invalid/);
    expect(await t.db.repository.count({ where: { lowerName: 'fresh' } })).toBe(0);
  });

  it('blocked names and a name-only allow list still refuse an unresolvable host, before the name conflict', async () => {
    const { migrations } = t.config;
    migrations.blockedDomains = ['*.invalid'];
    try {
      expectGiteaError(await migrate({ clone_addr: UNRESOLVABLE, repo_name: 'taken' }), 422, 'You can not import from disallowed hosts.');
    } finally {
      migrations.blockedDomains = [];
    }
    migrations.allowedDomains = ['github.com'];
    try {
      expectGiteaError(await migrate({ clone_addr: UNRESOLVABLE, repo_name: 'taken' }), 422, 'You can not import from disallowed hosts.');
      // A name the allow list names passes whether or not it resolves.
      migrations.allowedDomains = ['*.invalid'];
      expectGiteaError(
        await migrate({ clone_addr: UNRESOLVABLE, repo_name: 'taken' }),
        409,
        'The repository with the same name already exists.',
      );
    } finally {
      migrations.allowedDomains = [];
    }
    // Addresses that resolve are judged as before: loopback and private ones are refused by default.
    expectGiteaError(
      await migrate({ clone_addr: 'https://localhost/x.git', repo_name: 'taken' }),
      422,
      'You can not import from disallowed hosts.',
    );
  });

  it('a push mirror to an unresolvable host is accepted like a migration (its syncs connect later)', async () => {
    const res = await t.request('POST', '/api/v1/repos/bob/taken/push_mirrors', {
      headers: asBob,
      body: { remote_address: UNRESOLVABLE, interval: '8h' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
