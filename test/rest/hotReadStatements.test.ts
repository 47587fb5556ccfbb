import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * The hot reads of issue #17 run a fixed, small number of statements (Prisma query events), never select the
 * password hash, and a warm token adds none. The figures are today's; a change that adds a statement must say why.
 */
describe.each(PROVIDERS)('hot REST reads: statements per request (%s)', (provider) => {
  let t: TestApp;
  let ownerToken: string;
  let readerToken: string;

  async function statements(url: string, headers: Record<string, string> = {}): Promise<string[]> {
    expect((await t.request('GET', url, { headers })).statusCode).toBe(200); // warm (token cache, plan cache)
    await t.app.deps.notifier.drain();
    t.queries.length = 0;
    const res = await t.request('GET', url, { headers });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    return [...t.queries];
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    await t.createUser('reader');
    ownerToken = await t.createToken('owner');
    readerToken = await t.createToken('reader');
    const h = basic('owner');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: h, body: { name: 'r', auto_init: true } })).statusCode).toBe(201);
    const label = (await t.request('POST', '/api/v1/repos/owner/r/labels', { headers: h, body: { name: 'bug', color: '#ff0000' } })).json();
    await t.request('PUT', '/api/v1/repos/owner/r/collaborators/reader', { headers: h, body: { permission: 'read' } });
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/api/v1/repos/owner/r/issues', {
        headers: h,
        body: { title: `issue ${i}`, labels: i ? [label.id] : [], assignees: i === 2 ? ['owner', 'reader'] : [] },
      });
      expect(res.statusCode).toBe(201);
    }
    // Ghost-free, label-free and assignee-free issue 1; labelled 2; labelled with two assignees 3.
  });
  afterAll(() => t.close());

  it('GET an issue: 9 statements bare, 10 with labels and assignees; a token adds none', async () => {
    expect(await statements('/api/v1/repos/owner/r/issues/1')).toHaveLength(9);
    const full = await statements('/api/v1/repos/owner/r/issues/3');
    expect(full).toHaveLength(10);
    expect(await statements('/api/v1/repos/owner/r/issues/3', tokenAuth(ownerToken))).toHaveLength(10);
    // A viewer who does not own the repository: their collaboration and blocks (2), never the token.
    const reader = await statements('/api/v1/repos/owner/r/issues/3', tokenAuth(readerToken));
    expect(reader).toHaveLength(12);
    expect(reader.filter((q) => q.includes('AccessToken'))).toEqual([]);
    expect(full.filter((q) => q.includes('passwordHash'))).toEqual([]);
  });

  it('GET a repository: 5 statements (repository, owner, units, language, licenses)', async () => {
    expect(await statements('/api/v1/repos/owner/r')).toHaveLength(5);
    expect(await statements('/api/v1/repos/owner/r', tokenAuth(ownerToken))).toHaveLength(5);
  });

  it('GET the issue list: the same count for one issue and for three', async () => {
    const one = await statements('/api/v1/repos/owner/r/issues?limit=1&state=all');
    const all = await statements('/api/v1/repos/owner/r/issues?limit=50&state=all');
    expect(all.length).toBe(one.length);
    expect(all.length).toBeLessThanOrEqual(12);
  });
});
