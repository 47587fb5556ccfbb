import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../helpers/db.ts';
import { startPgRace, type PgRace } from '../../helpers/pgRace.ts';

/**
 * A plain edit (title, body) changes the row in one statement computed from the row it read before its transaction,
 * guarded by the values it read (src/services/issue/edit.ts, plainGuard). When another write changed them in between,
 * the guarded UPDATE changes nothing and the edit reads the row locked and starts over: its timeline comment names
 * the title it replaced, not the one it first read. On PostgreSQL the interleaving is forced: a third connection
 * changes the title and holds the row until the edit waits for it. (SQLite runs one write transaction at a time.)
 */
describe.skipIf(!PROVIDERS.includes('postgresql'))('an edit racing another change of the issue (postgresql)', () => {
  let race: PgRace;

  beforeAll(async () => {
    race = await startPgRace();
  });
  afterAll(() => race.close());

  const call: PgRace['call'] = (...args) => race.call(...args);

  /** Edits issue `index` with `body` while another connection changes the row with `sql` and commits. */
  async function editWhile(index: number, body: object, sql: string, params: unknown[]) {
    const holder = new pg.Client({ connectionString: race.t.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(sql, params);
      const editing = call('PATCH', `/issues/${index}`, body);
      await race.until('the edit to wait for the row', async () => (await race.lockWaiters()) >= 1);
      await holder.query('COMMIT');
      return await editing;
    } finally {
      await holder.end();
    }
  }

  const titleChanges = async (index: number) =>
    (await call('GET', `/issues/${index}/timeline`))
      .json<{ type: string; old_title: string; new_title: string }[]>()
      .filter((e) => e.type === 'change_title')
      .map((e) => [e.old_title, e.new_title]);

  it('names the title another write set meanwhile as the one it replaced', async () => {
    const created = (await call('POST', '/issues', { title: 'first' })).json<{ id: number; number: number }>();
    const edited = await editWhile(created.number, { title: 'third' }, 'UPDATE "Issue" SET "title" = $1 WHERE "id" = $2', [
      'second',
      created.id,
    ]);
    expect(edited.statusCode).toBe(201);
    expect(edited.json<{ title: string }>().title).toBe('third');
    expect(await titleChanges(created.number)).toEqual([['second', 'third']]);
  });

  it('refuses a body edit made from a version another write replaced meanwhile (409), and changes nothing', async () => {
    const created = (await call('POST', '/issues', { title: 'versioned', body: 'v0' })).json<{ id: number; number: number }>();
    const sql = 'UPDATE "Issue" SET "content" = $1, "contentVersion" = "contentVersion" + 1 WHERE "id" = $2';
    const edited = await editWhile(created.number, { title: 'renamed', body: 'mine', content_version: 0 }, sql, ['theirs', created.id]);
    expect(edited.statusCode).toBe(409);
    const issue = (await call('GET', `/issues/${created.number}`)).json<{ title: string; body: string }>();
    expect(issue).toMatchObject({ title: 'versioned', body: 'theirs' });
    expect(await titleChanges(created.number)).toEqual([]);
  });
});
