import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import Database from 'better-sqlite3';

// @prisma/adapter-better-sqlite3 7.10 prepares every statement again on every call (`client.prepare(sql).bind(args)`,
// reference/performance.md §1.3): 5–8% of a request's CPU, and most of the cost of a long statement. This keeps the
// connection's prepared statements, keyed by their SQL, and hands the adapter a fresh binding of the cached one each
// time: better-sqlite3 binds a statement for good with bind(), so the facade passes the arguments to each call.

/** Statements kept per connection (least recently used go first). */
const CACHE_SIZE = 500;

type Args = unknown[];

/** What the adapter uses of a bound statement. */
interface BoundStatement {
  readonly reader: boolean;
  run(): Database.RunResult;
  columns(): Database.ColumnDefinition[];
  raw(): { all(): unknown[] };
}

function bound(stmt: Database.Statement, args: Args): BoundStatement {
  return {
    reader: stmt.reader,
    run: () => stmt.run(...args),
    columns: () => stmt.columns(),
    raw: () => ({ all: () => stmt.raw(true).all(...args) }),
  };
}

/** Makes `db.prepare` return cached statements behind a per-call binding (the adapter's only use of prepare). */
function cacheStatements(db: Database.Database): void {
  // The prototype's prepare, looked up at each miss (not captured), is the one the adapter would have called.
  const prepare = (sql: string): Database.Statement => Database.prototype.prepare.call(db, sql);
  const cache = new Map<string, Database.Statement>();
  const cached = (sql: string): Database.Statement => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
    } else {
      stmt = prepare(sql);
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, stmt);
    return stmt;
  };
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const stmt = cached(sql);
    return { ...bound(stmt, []), bind: (args: Args) => bound(stmt, args) };
  };
}

/** The better-sqlite3 adapter factory, its connections' statements prepared once. */
export class CachedSqliteAdapterFactory extends PrismaBetterSqlite3 {
  override async connect(): Promise<SqlDriverAdapter> {
    const adapter = await super.connect();
    cacheStatements((adapter as unknown as { client: Database.Database }).client);
    return adapter;
  }
}
