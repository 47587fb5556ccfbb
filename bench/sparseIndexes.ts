// What the partial indexes on sparse foreign keys save (issue #35 item 3). Comment has 14 indexes on foreign keys
// that most rows leave NULL (label, milestone, project, assignee, review… of timeline events); a full index holds an
// entry for every row, so each comment inserted wrote ~14 index pages it never needed. The schema makes them
// partial (`WHERE "<column>" IS NOT NULL`; lookups by value, foreign key actions included, still use them). This
// bench builds the committed schema and a copy with those indexes full, fills Comment with `prefill` rows, then
// times `n` comment insertions, each its own transaction as a request's, and prints µs per insertion and the size
// of Comment's indexes for both.
// Usage: npx tsx bench/sparseIndexes.ts [n=4000] [prefill=50000] [sqlite|postgresql|both=both]
import Database from 'better-sqlite3';
import pg from 'pg';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { providersArg, scratchDatabase, type Provider } from './scratchDb.ts';

const n = Number(process.argv[2] ?? 4000);
const prefill = Number(process.argv[3] ?? 50_000);
const providers = providersArg(process.argv[4], 'both');

type Variant = 'partial' | 'full';
const INSERT = `INSERT INTO "Comment" ("createdAt", "updatedAt", "type", "posterId", "issueId", "content") VALUES (?, ?, 'COMMENT', 1, ?, ?)`;
const PARTIAL = /^(CREATE INDEX .*) WHERE \(?"\w+" IS NOT NULL\)?;?$/;

interface Db {
  exec(sql: string): Promise<void>;
  rows(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  insert(issueId: number, body: string): Promise<void>;
  fill(count: number): Promise<void>;
  close(): Promise<void>;
}

function sqliteDb(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF'); // the rows name a user and issues the bench does not create
  const insert = db.prepare(INSERT);
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  return {
    exec: async (sql) => void db.exec(sql),
    rows: async (sql, params = []) => db.prepare(sql).all(...params) as Record<string, unknown>[],
    insert: async (issueId, body) => {
      begin.run();
      insert.run(Date.now(), Date.now(), issueId, body);
      commit.run();
    },
    fill: async (count) =>
      db.transaction(() => {
        for (let i = 0; i < count; i++) insert.run(Date.now(), Date.now(), i % 500, `prefill ${i}`);
      })(),
    close: async () => void db.close(),
  };
}

async function postgresDb(url: string): Promise<Db> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SET session_replication_role = replica'); // no foreign key checks, as on SQLite above
  let i = 0;
  const text = INSERT.replace(/\?/g, () => `$${++i}`);
  return {
    exec: async (sql) => void (await client.query(sql)),
    rows: async (sql, params = []) => (await client.query(sql, params)).rows as Record<string, unknown>[],
    insert: async (issueId, body) => {
      await client.query('BEGIN');
      await client.query({ name: 'insert', text, values: [new Date(), new Date(), issueId, body] });
      await client.query('COMMIT');
    },
    fill: async (count) =>
      void (await client.query(
        `INSERT INTO "Comment" ("createdAt", "updatedAt", "type", "posterId", "issueId", "content")
         SELECT now(), now(), 'COMMENT', 1, g % 500, 'prefill ' || g FROM generate_series(1, $1) g`,
        [count],
      )),
    close: () => client.end(),
  };
}

/** Comment's partial indexes as full ones: dropped and created again without their WHERE. */
async function makeFull(db: Db, provider: Provider): Promise<number> {
  const defs =
    provider === 'sqlite'
      ? await db.rows(`SELECT sql AS def FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Comment' AND sql IS NOT NULL`)
      : await db.rows(`SELECT indexdef AS def FROM pg_indexes WHERE tablename = 'Comment'`);
  let changed = 0;
  for (const { def } of defs) {
    const full = PARTIAL.exec(
      String(def)
        .replace(/\s+/g, ' ')
        .replace(/ ON (public\.)?"Comment" USING btree /, ' ON "Comment"'),
    )?.[1];
    if (!full) continue;
    await db.exec(`DROP INDEX "${/INDEX "?([\w]+)"?/.exec(full)![1]}"`);
    await db.exec(full);
    changed++;
  }
  return changed;
}

async function indexBytes(db: Db, provider: Provider): Promise<number> {
  const [row] =
    provider === 'sqlite'
      ? await db.rows(
          `SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Comment')`,
        )
      : await db.rows(`SELECT SUM(pg_relation_size(indexrelid)) AS bytes FROM pg_index WHERE indrelid = '"Comment"'::regclass`);
  return Number(row?.bytes ?? 0);
}

async function run(provider: Provider, variant: Variant): Promise<{ us: number; bytes: number; changed: number }> {
  const scratch = await scratchDatabase(provider, 'sparse');
  try {
    await deployMigrations({ provider, url: scratch.url });
    const db = provider === 'sqlite' ? sqliteDb(scratch.url.slice('file:'.length)) : await postgresDb(scratch.url);
    try {
      const changed = variant === 'full' ? await makeFull(db, provider) : 0;
      await db.fill(prefill);
      for (let i = 0; i < 200; i++) await db.insert(i % 500, `warm ${i}`);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await db.insert(i % 500, `comment ${i}`);
      const us = ((performance.now() - t0) * 1000) / n;
      return { us, bytes: await indexBytes(db, provider), changed };
    } finally {
      await db.close();
    }
  } finally {
    await scratch.drop();
  }
}

console.log(`${n} comment insertions, one transaction each, after ${prefill} rows; µs per insertion; Comment's index bytes`);
console.log('database | partial (committed) | full | full/partial | index MB partial | full');
for (const provider of providers) {
  // Alternated, twice each, to spread the machine's drift over both.
  const results: Record<Variant, { us: number[]; bytes: number; changed: number }> = {
    partial: { us: [], bytes: 0, changed: 0 },
    full: { us: [], bytes: 0, changed: 0 },
  };
  for (const variant of ['partial', 'full', 'full', 'partial'] as const) {
    const r = await run(provider, variant);
    results[variant].us.push(r.us);
    results[variant].bytes = r.bytes;
    results[variant].changed = r.changed;
  }
  if (results.full.changed === 0) throw new Error(`${provider}: Comment has no partial index on a sparse column to compare`);
  const best = (xs: number[]) => Math.min(...xs);
  const [p, f] = [best(results.partial.us), best(results.full.us)];
  const mb = (b: number) => (b / 1048576).toFixed(1);
  console.log(
    `${provider} | ${p.toFixed(0)} | ${f.toFixed(0)} | ${(f / p).toFixed(2)}× | ${mb(results.partial.bytes)} | ${mb(results.full.bytes)} (${results.full.changed} indexes)`,
  );
}
