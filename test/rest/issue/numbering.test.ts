import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';

describe.each(PROVIDERS)('issue numbering under concurrency (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    // 200 writes queue on one repository's counter row: on a machine whose cores are shared with another suite the
    // last of them waited past the 15 s default and answered 503 (busy, rolled back). This test is about numbers,
    // not latency: the wait is long enough not to time out (503 under contention is tested in test/db).
    t = await startTestApp(provider, { DATABASE_TRANSACTION_TIMEOUT: '120s' });
    await t.createUser('alice');
    await t.createUser('bob');
    const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'race' } });
    expect(res.statusCode, res.body).toBe(201);
  });
  afterAll(() => t.close());

  it('200 concurrent POST …/issues give numbers 1…200 with no gap or duplicate, and an exact open_issues_count', async () => {
    const N = 200;
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        t.request('POST', '/api/v1/repos/alice/race/issues', {
          headers: basic(i % 2 ? 'bob' : 'alice'),
          body: { title: `issue ${i}`, closed: i % 10 === 0 },
        }),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const numbers = results.map((r) => r.json().number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    const repo = await t.request('GET', '/api/v1/repos/alice/race', { headers: basic('alice') });
    expect(repo.json().open_issues_count).toBe(N - N / 10);
    const row = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'race' } });
    expect({ numIssues: row.numIssues, numClosedIssues: row.numClosedIssues }).toEqual({ numIssues: N, numClosedIssues: N / 10 });
    expect((await t.db.issueIndex.findUniqueOrThrow({ where: { repoId: row.id } })).maxIndex).toBe(N);
    const next = await t.request('POST', '/api/v1/repos/alice/race/issues', { headers: basic('alice'), body: { title: 'after' } });
    expect(next.json().number).toBe(N + 1);
  }, 120_000);
});
