import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';

/** REST lists are converted from bulk-loaded relations: the SQL statement count must not grow with the page. */
describe.each(PROVIDERS)('REST list endpoints cost a constant number of statements (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let org: Models.User;
  let grown = 0;

  async function grow(to: number): Promise<void> {
    for (; grown < to; grown++) {
      const member = await t.createUser(`member${grown}`);
      await addMember(t, org, member, { team: `team${grown}` });
      expect(
        (
          await t.request('POST', '/api/v1/orgs/acme/repos', {
            headers: basic('owner'),
            body: { name: `repo${grown}`, private: grown % 2 === 0 },
          })
        ).statusCode,
      ).toBe(201);
      await t.request('POST', '/api/v1/orgs/acme/labels', { headers: basic('owner'), body: { name: `label${grown}`, color: '#00ff00' } });
      await t.request('PUT', `/api/v1/repos/acme/repo${grown}/collaborators/member${grown}`, {
        headers: basic('owner'),
        body: { permission: 'read' },
      });
    }
  }

  async function statements(url: string): Promise<number> {
    await t.app.deps.notifier.drain(); // activity rows for new repositories are written in the background
    t.queries.length = 0;
    const res = await t.request('GET', url, { headers: basic('owner') });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    return t.queries.length;
  }

  const urls = [
    '/api/v1/orgs/acme/repos',
    '/api/v1/user/repos',
    '/api/v1/repos/search?q=repo',
    '/api/v1/orgs/acme/teams',
    '/api/v1/orgs/acme/members',
    '/api/v1/orgs/acme/labels',
    '/api/v1/admin/users',
    '/api/v1/users/owner/orgs',
  ];

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('owner', { admin: true });
    org = await createOrgAs(t, owner, 'acme');
  });
  afterAll(() => t.close());

  async function measureAll(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const u of urls) out[u] = await statements(u); // one at a time: t.queries is shared
    return out;
  }

  it('for 2 items and for 10 items', async () => {
    await grow(2);
    const small = await measureAll();
    await grow(10);
    const large = await measureAll();
    expect(large).toEqual(small);
    expect(Math.max(...Object.values(large))).toBeLessThan(40);
  });
});
