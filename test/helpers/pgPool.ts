// Migrated PostgreSQL test databases, reused. A CREATE DATABASE … TEMPLATE copies the template through the
// write-ahead log and a DROP DATABASE forces a checkpoint: together 1-3 s per suite and much of the PostgreSQL
// server's CPU over a run. A suite's database is instead emptied when the suite drops it and parked under a free
// name, and the next suite renames a free one to its own name. Renaming needs a database without sessions, so a
// process that outlived its suite cannot write into the next suite's database: it finds its database gone.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { retryWhileInUse, withServer } from './pgServer.ts';

/** Rows that the migrations write, and the tables holding them; everything else starts empty. */
const KEPT_TABLES = new Set(['_prisma_migrations', 'Installation', 'AuthGeneration']);
const RESET_KEPT_ROWS = `UPDATE "AuthGeneration" SET "value" = 0`;

const freePrefix = (template: string) => `${template.replace(/^fg_template_/, 'fg_free_')}_`;
const newName = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`;

/** Takes a parked database of `template`'s history under a new test name, or null when none is free. */
export async function takePooled(template: string): Promise<string | null> {
  return withServer(async (c) => {
    const prefix = freePrefix(template);
    const free = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of free.rows) {
      const name = newName('fg_test_');
      try {
        // Atomic: of two workers renaming the same database, one finds it gone and tries the next.
        await c.query(`ALTER DATABASE ${datname} RENAME TO ${name}`);
        return name;
      } catch {
        continue;
      }
    }
    return null;
  });
}

/** The statement that empties a database of `template`'s history, built from its tables once per process. */
const resetStatements = new Map<string, Promise<string>>();
function resetStatement(c: pg.Client, template: string): Promise<string> {
  let found = resetStatements.get(template);
  if (!found) {
    found = c
      .query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
      .then(({ rows }) =>
        [
          'BEGIN',
          // Foreign keys are triggers, which replica mode does not fire: the tables empty in any order.
          'SET LOCAL session_replication_role = replica',
          ...rows.filter((r) => !KEPT_TABLES.has(r.tablename)).map((r) => `DELETE FROM "${r.tablename}"`),
          RESET_KEPT_ROWS,
          "SELECT setval(c.oid::regclass, 1, false) FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = 'public'::regnamespace",
          'COMMIT',
        ].join(';\n'),
      );
    found.catch(() => resetStatements.delete(template));
    resetStatements.set(template, found);
  }
  return found;
}

/**
 * The migration history table's rows and the schema's shape (tables and their columns, indexes, triggers and
 * functions) as one text: what the suite must leave as it found it to be parked. Emptying restores rows only; a
 * suite that changed the schema (test/rest/badInput.test.ts drops a table, test/graphql/mutationScopes.test.ts
 * creates a function) leaves a database that is dropped, so the next suite does not find it.
 */
export async function schemaShape(c: pg.Client): Promise<string> {
  const { rows } = await c.query<{ h: string | null; t: string | null; i: string | null; g: string | null; f: string | null }>(
    `SELECT (SELECT string_agg(concat_ws(',', "id", "migration_name", "checksum", "finished_at", "rolled_back_at", "applied_steps_count"), E'\\n' ORDER BY "id") FROM "_prisma_migrations") AS h,
            (SELECT string_agg(concat_ws('.', table_name, column_name, data_type, is_nullable), ',' ORDER BY table_name, column_name) FROM information_schema.columns WHERE table_schema = 'public') AS t,
            (SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE schemaname = 'public') AS i,
            (SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger g JOIN pg_class r ON r.oid = g.tgrelid WHERE NOT g.tgisinternal AND r.relnamespace = 'public'::regnamespace) AS g,
            (SELECT string_agg(p.oid::regprocedure::text, ',' ORDER BY p.oid::regprocedure::text) FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace) AS f`,
  );
  const r = rows[0];
  return [r?.h ?? '', `tables: ${r?.t ?? ''}`, `indexes: ${r?.i ?? ''}`, `triggers: ${r?.g ?? ''}`, `functions: ${r?.f ?? ''}`].join('\n');
}

/**
 * Empties test database `name` (a copy of `template`) and parks it for the next suite; drops it when that fails or
 * when the suite changed its migration history or schema (`history`, as the suite found it: schemaShape), which
 * emptying cannot restore.
 * Sessions left on it (a server process a test killed, a pool not yet closed) are ended first.
 */
export async function parkPooled(name: string, template: string, history: string): Promise<void> {
  const endSessions = (c: pg.Client) =>
    c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  try {
    await withServer(endSessions);
    await withServer(async (c) => {
      if ((await schemaShape(c)) !== history) throw new Error(`${name}: the suite changed the migration history or the schema`);
      await c.query(await resetStatement(c, template));
    }, name);
    const parked = newName(freePrefix(template));
    await withServer((c) => retryWhileInUse(c, `ALTER DATABASE ${name} RENAME TO ${parked}`, () => endSessions(c)));
  } catch {
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

/** Drops the parked databases of every migration history but `template`'s (a new history makes them useless). */
export async function dropStalePooled(c: pg.Client, template: string): Promise<void> {
  const stale = await c.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE starts_with(datname, 'fg_free_') AND NOT starts_with(datname, $1)",
    [freePrefix(template)],
  );
  for (const { datname } of stale.rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
}
