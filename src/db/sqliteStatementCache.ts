import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

// @prisma/adapter-better-sqlite3 7.10 prepares every statement again on every call (`client.prepare(sql).bind(args)`,
// reference/performance.md §1.3): 5–8% of a request's CPU, and most of the cost of a long statement. This keeps the
// connection's prepared statements, keyed by their SQL, and hands the adapter a fresh binding of the cached one each
// time: better-sqlite3 binds a statement for good with bind(), so the facade passes the arguments to each call.
//
// The adapter also asks every reader for its columns (names and declared types), and better-sqlite3 builds them anew
// each time: ~110 µs for the 37 columns of User, more than running the statement. They are fixed by the statement's
// SQL and the schema, so they are kept with the statement. DDL run on the connection drops every cached statement
// (better-sqlite3 reads a statement's columns from its last preparation, and SQLite prepares it again only when it
// runs, so a cached `SELECT *` answered the old columns' names for the new row).

/** Statements kept per connection (least recently used go first). */
const CACHE_SIZE = 500;

type Args = unknown[];

/** What the adapter (and rawStatements.ts) uses of a bound statement. */
export interface BoundStatement {
  readonly reader: boolean;
  run(): Database.RunResult;
  columns(): Database.ColumnDefinition[];
  raw(): { all(): unknown[] };
  /** The same statement bound to other arguments (better-sqlite3's `prepare(sql).bind(args)`, as the adapter calls it). */
  bind(args: Args): BoundStatement;
}

/** SQL that changes the schema (its statements' columns may then differ). */
const DDL = /^\s*(?:CREATE|ALTER|DROP)\b/i;

/** A cached statement, whether it is DDL, and, once a reader asked, its columns. */
interface Entry {
  stmt: Database.Statement;
  ddl: boolean;
  columns: Database.ColumnDefinition[] | null;
}

const NOTHING = (): void => undefined;

/**
 * A cached statement bound to arguments. A class, not an object of closures: the adapter binds every statement it
 * runs twice (`prepare(sql)`, then `.bind(args)`), and a write runs several.
 */
class Bound implements BoundStatement {
  constructor(
    private readonly entry: Entry,
    private readonly args: Args,
    private readonly onRun: () => void,
  ) {}

  get reader(): boolean {
    return this.entry.stmt.reader;
  }

  run(): Database.RunResult {
    const result = this.entry.stmt.run(...this.args);
    this.onRun();
    return result;
  }

  columns(): Database.ColumnDefinition[] {
    return (this.entry.columns ??= this.entry.stmt.columns());
  }

  /** Itself: `raw().all()` reads the rows as arrays. */
  raw(): { all(): unknown[] } {
    return this;
  }

  all(): unknown[] {
    return this.entry.stmt.raw(true).all(...this.args);
  }

  bind(args: Args): BoundStatement {
    return new Bound(this.entry, args, this.onRun);
  }
}

/**
 * Makes `db.prepare` return cached statements behind a per-call binding (the adapter's only use of prepare), with
 * their columns, until DDL runs on the connection (a statement, or a script through `db.exec`).
 */
function cacheStatements(db: Database.Database): void {
  // The prototype's prepare, looked up at each miss (not captured), is the one the adapter would have called.
  const prepare = (sql: string): Database.Statement => Database.prototype.prepare.call(db, sql);
  const cache = new LRUCache<string, Entry>({ max: CACHE_SIZE });
  const cached = (sql: string): Entry => {
    let entry = cache.get(sql);
    if (!entry) {
      entry = { stmt: prepare(sql), ddl: DDL.test(sql), columns: null };
      cache.set(sql, entry);
    }
    return entry;
  };
  /** After DDL, every statement is prepared again (and asked its columns again). */
  const forget = () => cache.clear();
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    const result = exec(sql);
    forget();
    return result;
  };
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const entry = cached(sql);
    return new Bound(entry, [], entry.ddl ? forget : NOTHING);
  };
}

/** `sql` bound to `args` on a connection of CachedSqliteAdapterFactory: its cached statement, as the adapter runs it. */
export function boundStatement(db: Database.Database, sql: string, args: Args): BoundStatement {
  return (db.prepare(sql) as unknown as BoundStatement).bind(args);
}

/** The better-sqlite3 adapter factory, its connections' statements prepared once; `onConnect` sees each connection. */
export class CachedSqliteAdapterFactory extends PrismaBetterSqlite3 {
  readonly #onConnect: ((db: Database.Database) => void) | undefined;

  constructor(config: ConstructorParameters<typeof PrismaBetterSqlite3>[0], onConnect?: (db: Database.Database) => void) {
    super(config);
    this.#onConnect = onConnect;
  }

  override async connect(): Promise<SqlDriverAdapter> {
    const adapter = await super.connect();
    const db = (adapter as unknown as { client: Database.Database }).client;
    cacheStatements(db);
    this.#onConnect?.(db);
    return adapter;
  }
}
