import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * The hot reads of issue #17 run a fixed, small number of statements (Prisma query events and the read path's,
 * src/db/readPath.ts), never select the password hash, and a warm token adds none. The figures are today's; a
 * change that adds a statement must say why. The GETs of an issue, a repository and a pull request run entirely
 * on the read path: none of their statements is Prisma's (Prisma qualifies tables: `main`.… or "public".…).
 */
const isPrisma = (q: string): boolean => q.includes('`main`.') || q.includes('"public".');

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
    // Pull request 1 (feature → main), before the issues 2, 3, 4.
    await t.request('POST', '/api/v1/repos/owner/r/branches', {
      headers: h,
      body: { new_branch_name: 'feature', old_branch_name: 'main' },
    });
    const file = { content: Buffer.from('feature\n').toString('base64'), branch: 'feature' };
    expect((await t.request('POST', '/api/v1/repos/owner/r/contents/feature.txt', { headers: h, body: file })).statusCode).toBe(201);
    const pull = await t.request('POST', '/api/v1/repos/owner/r/pulls', {
      headers: h,
      body: { head: 'feature', base: 'main', title: 'p' },
    });
    expect(pull.statusCode).toBe(201);
    await t.app.jobs.drain();
    const label = (await t.request('POST', '/api/v1/repos/owner/r/labels', { headers: h, body: { name: 'bug', color: '#ff0000' } })).json();
    await t.request('PUT', '/api/v1/repos/owner/r/collaborators/reader', { headers: h, body: { permission: 'read' } });
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/api/v1/repos/owner/r/issues', {
        headers: h,
        body: { title: `issue ${i}`, labels: i ? [label.id] : [], assignees: i === 2 ? ['owner', 'reader'] : [] },
      });
      expect(res.statusCode).toBe(201);
    }
    // Label-free and assignee-free issue 2; labelled 3; labelled with two assignees 4.
  });
  afterAll(() => t.close());

  it('GET an issue: 6 statements on the read path, with or without labels and assignees (poster and assignees in one); a token adds none', async () => {
    const bare = await statements('/api/v1/repos/owner/r/issues/2');
    expect(bare).toHaveLength(6);
    // The repository, its owner's facts and its units in one statement (requireRepo).
    expect(bare.filter((q) => q.includes('"RepoUnit"'))).toHaveLength(1);
    expect(bare.find((q) => q.includes('"RepoUnit"'))).toContain('FROM "Repository" r JOIN "User" o');
    const full = await statements('/api/v1/repos/owner/r/issues/4');
    expect(full).toHaveLength(6);
    // The poster and the assignees: one statement.
    expect(full.filter((q) => /"User" u\b/.test(q))).toHaveLength(1);
    expect([...bare, ...full].filter(isPrisma)).toEqual([]);
    expect(await statements('/api/v1/repos/owner/r/issues/4', tokenAuth(ownerToken))).toHaveLength(6);
    // A viewer who does not own the repository: their collaboration and blocks (2), never the token.
    const reader = await statements('/api/v1/repos/owner/r/issues/4', tokenAuth(readerToken));
    expect(reader).toHaveLength(8);
    expect(reader.filter((q) => q.includes('AccessToken'))).toEqual([]);
    expect(full.filter((q) => q.includes('passwordHash'))).toEqual([]);
  });

  it('GET a repository: 4 statements on the read path (repository, owner, units; language, licenses and counts in one)', async () => {
    const anonymous = await statements('/api/v1/repos/owner/r');
    expect(anonymous).toHaveLength(4);
    expect(anonymous.filter(isPrisma)).toEqual([]);
    expect(await statements('/api/v1/repos/owner/r', tokenAuth(ownerToken))).toHaveLength(4);
  });

  it('GET a pull request: 12 statements on the read path, its row read once, no review-request query when there is none', async () => {
    const anonymous = await statements('/api/v1/repos/owner/r/pulls/1');
    expect(anonymous).toHaveLength(12);
    expect(anonymous.filter((q) => q.includes('FROM "PullRequest"'))).toHaveLength(1);
    expect(anonymous.filter(isPrisma)).toEqual([]);
    expect(await statements('/api/v1/repos/owner/r/pulls/1', tokenAuth(ownerToken))).toHaveLength(12);
  });

  it('GET the issue list: the same count for one issue and for three; filtered by state and type only, on the read path', async () => {
    const one = await statements('/api/v1/repos/owner/r/issues?limit=1&state=all&type=issues');
    const all = await statements('/api/v1/repos/owner/r/issues?limit=50&state=all&type=issues');
    expect(all.length).toBe(one.length);
    expect(all.length).toBeLessThanOrEqual(12);
    expect([...all, ...(await statements('/api/v1/repos/owner/r/issues?limit=50'))].filter(isPrisma)).toEqual([]);
  });
});
