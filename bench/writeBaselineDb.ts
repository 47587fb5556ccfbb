// The hand-written write path of bench/writes.ts: one connection (better-sqlite3) or a small `pg` pool (named
// prepared statements), the SQL written once for both databases (`?` placeholders), a transaction per write and
// a statement counter. It knows nothing of Prisma; the rows it writes are the rows Forgegraph writes.
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Provider } from './scratchDb.ts';

export type Value = string | number | boolean | Date | null;
/** Runs one statement inside the current transaction; rows for RETURNING/SELECT. */
export type Run = (sql: string, params?: readonly Value[]) => Promise<Record<string, unknown>[]>;

export interface BaselineDb {
  provider: Provider;
  /** Statements run since the last reset (BEGIN and COMMIT included, as Prisma's query events count them). */
  statements: { n: number };
  tx<T>(fn: (run: Run) => Promise<T>): Promise<T>;
  /** One statement outside a transaction. */
  query: Run;
  close(): Promise<void>;
}

function sqliteDb(url: string): BaselineDb {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url.replace(/^file:/, '').replace(/\?.*$/, '');
  const db = new Database(file, { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const cache = new Map<string, Database.Statement>();
  const statements = { n: 0 };
  // better-sqlite3 values: booleans as 0/1, dates as Prisma's adapter writes them (ISO 8601).
  const bind = (v: Value) => (typeof v === 'boolean' ? Number(v) : v instanceof Date ? v.toISOString() : v);
  const run: Run = async (sql, params = []) => {
    statements.n++;
    let stmt = cache.get(sql);
    if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
    const values = params.map(bind);
    return stmt.reader ? (stmt.all(...values) as Record<string, unknown>[]) : (stmt.run(...values), []);
  };
  // One connection: transactions take turns (as Prisma's SQLite adapter serializes its own).
  let chain: Promise<unknown> = Promise.resolve();
  return {
    provider: 'sqlite',
    statements,
    query: run,
    tx(fn) {
      const next = chain.then(async () => {
        await run('BEGIN IMMEDIATE');
        try {
          const result = await fn(run);
          await run('COMMIT');
          return result;
        } catch (err) {
          await run('ROLLBACK');
          throw err;
        }
      });
      chain = next.catch(() => undefined);
      return next;
    },
    close: async () => void db.close(),
  };
}

function pgDb(url: string): BaselineDb {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const names = new Map<string, string>();
  const statements = { n: 0 };
  const text = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const on =
    (client: pg.PoolClient | pg.Pool): Run =>
    async (sql, params = []) => {
      statements.n++;
      let name = names.get(sql);
      if (name === undefined) names.set(sql, (name = `w${names.size}`));
      const res = params.length ? await client.query({ name, text: text(sql), values: params as unknown[] }) : await client.query(sql);
      return res.rows as Record<string, unknown>[];
    };
  return {
    provider: 'postgresql',
    statements,
    query: on(pool),
    async tx(fn) {
      const client = await pool.connect();
      const run = on(client);
      try {
        await run('BEGIN');
        const result = await fn(run);
        await run('COMMIT');
        return result;
      } catch (err) {
        await run('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export function baselineDb(provider: Provider, url: string): BaselineDb {
  return provider === 'sqlite' ? sqliteDb(url) : pgDb(url);
}
