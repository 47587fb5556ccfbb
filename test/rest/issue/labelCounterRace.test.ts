import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectExactLabelCounters } from '../../helpers/labelCounters.ts';

/**
 * On PostgreSQL a label added to an issue while another request closes or deletes that issue keeps the label's
 * counters exact: the label change locks the issue first (readRowsForUpdate), so the close or delete waits for it
 * and then shifts the counters of every link, the new one included. Before, each transaction read the other's state
 * from before its commit and one closed count (or one issue count) was lost. (SQLite runs one write transaction at a
 * time: there is no such interleaving there.)
 *
 * The interleaving is forced: a third connection holds the label's row, so the label change stops at its counter
 * update, after it has read the issue and linked the label; the close or delete starts then.
 */
describe.skipIf(!PROVIDERS.includes('postgresql'))('label counters under concurrent changes of one issue (postgresql)', () => {
  let t: TestApp;
  let holder: pg.Client;
  let observer: pg.Client;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp('postgresql');
    await t.createUser('owner');
    const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name: 'r' } });
    expect(res.statusCode).toBe(201);
    observer = new pg.Client({ connectionString: t.config.databaseUrl });
    await observer.connect();
  });
  afterAll(async () => {
    await observer.end();
    await t.close();
  });

  const call = (method: string, url: string, body?: unknown) =>
    t.request(method, `/api/v1/repos/owner/r${url}`, { headers: basic('owner'), ...(body === undefined ? {} : { body }) });

  /** Statements of this database waiting for a lock now. */
  const lockWaiters = async () =>
    Number(
      (
        await observer.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        )
      ).rows[0]!.n,
    );
  const until = async (what: string, ok: () => Promise<boolean>) => {
    for (let i = 0; i < 400; i++) {
      if (await ok()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  /** Adds a new label to a new open issue while `other` (a close or a delete of that issue) runs. */
  async function labelWhile(other: (index: number) => Promise<{ statusCode: number }>, otherStatus: number): Promise<number> {
    n++;
    const label = (await call('POST', '/labels', { name: `l${n}`, color: '#00ff00' })).json<{ id: number }>().id;
    const issue = (await call('POST', '/issues', { title: `i${n}` })).json<{ number: number }>().number;
    holder = new pg.Client({ connectionString: t.config.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM "Label" WHERE "id" = $1 FOR UPDATE', [label]);
    const adding = call('POST', `/issues/${issue}/labels`, { labels: [label] });
    await until('the label change to wait at its counter update', async () => (await lockWaiters()) >= 1);
    let otherDone = false;
    const otherWrite = other(issue).finally(() => (otherDone = true));
    // Done at once (it did not wait for the label change), or waiting for it: either way, let the label change go on.
    await until('the close or delete to finish or to wait', async () => otherDone || (await lockWaiters()) >= 2);
    await holder.query('ROLLBACK');
    await holder.end();
    expect((await adding).statusCode).toBe(200);
    expect((await otherWrite).statusCode).toBe(otherStatus);
    return label;
  }
  const counters = (id: number) => t.db.label.findUniqueOrThrow({ where: { id }, select: { numIssues: true, numClosedIssues: true } });

  it('counts the label closed when the issue is closed while the label is being added', async () => {
    const label = await labelWhile((issue) => call('PATCH', `/issues/${issue}`, { state: 'closed' }), 201);
    expect(await counters(label)).toEqual({ numIssues: 1, numClosedIssues: 1 });
    await expectExactLabelCounters(t);
  });

  it('does not count the label for an issue deleted while the label is being added', async () => {
    const label = await labelWhile((issue) => call('DELETE', `/issues/${issue}`), 204);
    expect(await counters(label)).toEqual({ numIssues: 0, numClosedIssues: 0 });
    await expectExactLabelCounters(t);
  });
});
