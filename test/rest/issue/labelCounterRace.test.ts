import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectExactLabelCounters } from '../../helpers/labelCounters.ts';
import { startPgRace, type PgRace } from '../../helpers/pgRace.ts';

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
  let race: PgRace;
  let holder: pg.Client;
  let n = 0;

  beforeAll(async () => {
    race = await startPgRace();
  });
  afterAll(() => race.close());

  const call: PgRace['call'] = (...args) => race.call(...args);
  const lockWaiters = () => race.lockWaiters();
  const until: PgRace['until'] = (...args) => race.until(...args);

  /** Adds a new label to a new open issue while `other` (a close or a delete of that issue) runs. */
  async function labelWhile(other: (index: number) => Promise<{ statusCode: number }>, otherStatus: number): Promise<number> {
    n++;
    const label = (await call('POST', '/labels', { name: `l${n}`, color: '#00ff00' })).json<{ id: number }>().id;
    const issue = (await call('POST', '/issues', { title: `i${n}` })).json<{ number: number }>().number;
    holder = new pg.Client({ connectionString: race.t.config.databaseUrl });
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
  const counters = (id: number) => race.t.db.label.findUniqueOrThrow({ where: { id }, select: { numIssues: true, numClosedIssues: true } });

  it('counts the label closed when the issue is closed while the label is being added', async () => {
    const label = await labelWhile((issue) => call('PATCH', `/issues/${issue}`, { state: 'closed' }), 201);
    expect(await counters(label)).toEqual({ numIssues: 1, numClosedIssues: 1 });
    await expectExactLabelCounters(race.t);
  });

  it('does not count the label for an issue deleted while the label is being added', async () => {
    const label = await labelWhile((issue) => call('DELETE', `/issues/${issue}`), 204);
    expect(await counters(label)).toEqual({ numIssues: 0, numClosedIssues: 0 });
    await expectExactLabelCounters(race.t);
  });
});
