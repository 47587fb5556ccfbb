// The PostgreSQL test database pool parks a suite's database for the next suite only when emptying it restores the
// state the suite found. Rows are restored by emptying; the schema is not: a suite that dropped a table (the internal
// error test in test/rest/badInput.test.ts) once handed the next suite a database without labels. schemaShape is
// the comparison that decides, so it must see every change of the schema and none of the data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedDatabase, PROVIDERS, type TestDatabase } from '../helpers/db.ts';
import { schemaShape } from '../helpers/pgPool.ts';
import { withServer } from '../helpers/pgServer.ts';

describe.runIf(PROVIDERS.includes('postgresql'))('the test database pool (postgresql)', () => {
  let database: TestDatabase;
  const name = () => new URL(database.url).pathname.slice(1);
  const shape = () => withServer(schemaShape, name());
  const run = (sql: string) => withServer((c) => c.query(sql), name());

  beforeAll(async () => {
    database = await createMigratedDatabase('postgresql');
  });
  afterAll(() => database.drop());

  it('sees no change when only rows change', async () => {
    const before = await shape();
    await run(`INSERT INTO "Label" ("name", "color", "description", "createdAt", "updatedAt") VALUES ('x', 'ff0000', '', now(), now())`);
    expect(await shape()).toBe(before);
  });

  it.each([
    ['a column added', 'ALTER TABLE "Label" ADD COLUMN "scratch" INTEGER', 'ALTER TABLE "Label" DROP COLUMN "scratch"'],
    ['an index created', 'CREATE INDEX "scratch_idx" ON "Label" ("name")', 'DROP INDEX "scratch_idx"'],
    [
      'a trigger created',
      `CREATE FUNCTION scratch_fn() RETURNS trigger AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER scratch_tg BEFORE INSERT ON "Label" FOR EACH ROW EXECUTE FUNCTION scratch_fn()`,
      'DROP TRIGGER scratch_tg ON "Label"; DROP FUNCTION scratch_fn()',
    ],
    ['a table renamed', 'ALTER TABLE "Job" RENAME TO "JobAway"', 'ALTER TABLE "JobAway" RENAME TO "Job"'],
  ])('sees %s, and sees it undone', async (_what, change, undo) => {
    const before = await shape();
    await run(change);
    expect(await shape()).not.toBe(before);
    await run(undo);
    expect(await shape()).toBe(before);
  });

  it('sees a table dropped', async () => {
    const before = await shape();
    await run('DROP TABLE "Label" CASCADE');
    const after = await shape();
    expect(after).not.toBe(before);
    expect(before).toContain('Label.name');
    expect(after).not.toContain('Label.name');
  });
});
