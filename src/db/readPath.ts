import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { pgModule } from '../lazyPackage.ts';
import type { DbLike, QueryEvent } from './client.ts';
import type { DbProvider } from './migrate/engine.ts';
import { parsePgUrl } from './migrate/pgConnectionConfig.ts';
import { pgTypes, PreparedNames, queryPrepared } from './pgConnection.ts';
import { queryText } from './rawStatements.ts';
import { rowsOf, type ModelName, type ModelRow } from './rowShape.ts';

/** A bound value: arrays expand in place (`IN (?)`), an empty one to NULL (matches nothing). */
export type Param = string | number | boolean | null | readonly (string | number)[];

/**
 * The read path below Prisma for the hottest reads (issue #17). Prisma owns the schema, migrations and writes;
 * these reads run the SQL written once for both databases (`?` placeholders, double-quoted identifiers) on a
 * connection of their own with statements prepared once: a read-only better-sqlite3 connection (WAL: it sees
 * every committed write) or a small `pg` pool with named prepared statements. Rows come back as Prisma shapes
 * them (rowShape.ts), so services and converters see no difference.
 */
export interface ReadPath {
  all(sql: string, params: readonly Param[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

const MAX_STATEMENTS = 500;

/** The SQL of a statement with its array parameters expanded: per statement text, per lengths of its arrays. */
const expansions = new Map<string, Map<string, string>>();
const MAX_EXPANSIONS = 2000;

/** `sql` with each array parameter expanded into `?, ?, …` (an empty one to NULL), checked against the parameters. */
function expandText(sql: string, params: readonly Param[]): string {
  let i = 0;
  const text = sql.replace(/\?/g, () => {
    const p = params[i++];
    if (!Array.isArray(p)) return '?';
    return p.length === 0 ? 'NULL' : p.map(() => '?').join(', ');
  });
  if (i !== params.length) throw new Error(`read path: ${params.length} parameters for ${i} placeholders`);
  return text;
}

/** Statements checked to take as many parameters as they were given, none an array: their text needs no expansion. */
const scalarStatements = new Map<string, number>();

/**
 * Expands array parameters into `?, ?, …` and flattens the values. The text is built once per statement and
 * shape of its parameters (a page's `IN (?)` has the same length request after request); a statement without array
 * parameters is checked once and then used as it is.
 */
function expand(sql: string, params: readonly Param[]): { sql: string; values: (string | number | boolean | null)[] } {
  if (scalarStatements.get(sql) === params.length && !params.some(Array.isArray)) {
    return { sql, values: params.slice() as (string | number | boolean | null)[] };
  }
  const values: (string | number | boolean | null)[] = [];
  let shape = '';
  for (const p of params) {
    if (Array.isArray(p)) {
      shape += `${p.length},`;
      for (const v of p as (string | number)[]) values.push(v);
    } else {
      shape += '-,';
      values.push(p as string | number | boolean | null);
    }
  }
  let byShape = expansions.get(sql);
  if (!byShape) {
    if (expansions.size >= MAX_EXPANSIONS) expansions.clear();
    expansions.set(sql, (byShape = new Map()));
  }
  let text = byShape.get(shape);
  if (text === undefined) {
    if (byShape.size >= MAX_EXPANSIONS) byShape.clear();
    text = expandText(sql, params);
    byShape.set(shape, text);
  }
  if (text === sql) {
    if (scalarStatements.size >= MAX_EXPANSIONS) scalarStatements.clear();
    scalarStatements.set(sql, params.length);
  }
  return { sql: text, values };
}

const numberedTexts = new Map<string, string>();

/** `?` placeholders as PostgreSQL's `$1, $2, …` (built once per expanded text). */
function numbered(sql: string): string {
  let text = numberedTexts.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (numberedTexts.size >= MAX_EXPANSIONS) numberedTexts.clear();
    numberedTexts.set(sql, text);
  }
  return text;
}

/** A cached statement in raw mode, and the compiled function building each row object from its values. */
interface RawStatement {
  stmt: Database.Statement;
  build: (values: unknown[]) => Record<string, unknown>;
}

/**
 * Builds row objects as an object literal of the statement's columns: better-sqlite3's own row objects get slow
 * beyond a few dozen columns (~9 µs a row for a 37-column Comment), a literal of the same keys costs next to
 * nothing. A repeated column name keeps its last value, as better-sqlite3's objects do.
 */
function rowBuilder(stmt: Database.Statement): RawStatement['build'] {
  const fields = stmt.columns().map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`);
  return new Function('v', `return { ${fields.join(', ')} };`) as RawStatement['build'];
}

function sqliteReadPath(url: string, onQuery: (e: QueryEvent) => void): ReadPath {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url.replace(/^file:/, '').replace(/\?.*$/, '');
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  const statements = new LRUCache<string, RawStatement>({ max: MAX_STATEMENTS });
  const prepared = (sql: string): RawStatement => {
    let entry = statements.get(sql);
    if (!entry) {
      const stmt = db.prepare(sql).raw(true);
      entry = { stmt, build: rowBuilder(stmt) };
      statements.set(sql, entry);
    }
    return entry;
  };
  return {
    async all(sql, params) {
      const q = expand(sql, params);
      const started = performance.now();
      const { stmt, build } = prepared(q.sql);
      for (let i = 0; i < q.values.length; i++) if (typeof q.values[i] === 'boolean') q.values[i] = Number(q.values[i]);
      const values = stmt.all(...q.values) as unknown[][];
      const rows: Record<string, unknown>[] = new Array(values.length);
      for (let i = 0; i < values.length; i++) rows[i] = build(values[i]!);
      onQuery({ query: q.sql, duration: performance.now() - started });
      return rows;
    },
    close: async () => void db.close(),
  };
}

function pgReadPath(url: string, onQuery: (e: QueryEvent) => void): ReadPath {
  const pool = new (pgModule().Pool)({ ...parsePgUrl(url).config, max: 4, application_name: 'forgegraph-reads', types: pgTypes });
  pool.on('error', () => undefined); // an idle client lost: the pool replaces it on the next query
  const names = new PreparedNames('fg_read_', MAX_STATEMENTS);
  return {
    async all(sql, params) {
      const q = expand(sql, params);
      const text = numbered(q.sql);
      const started = performance.now();
      const res = await queryPrepared(pool, names, text, q.values, true);
      onQuery({ query: text, duration: performance.now() - started });
      return res.rows as Record<string, unknown>[];
    },
    close: () => pool.end(),
  };
}

/** The read path of the configured database; `onQuery` sees each statement as Prisma's query event does. */
export function createReadPath(provider: DbProvider, url: string, onQuery: (e: QueryEvent) => void = () => undefined): ReadPath {
  return provider === 'sqlite' ? sqliteReadPath(url, onQuery) : pgReadPath(url, onQuery);
}

const registered = new WeakMap<object, ReadPath>();

/** Serves `db`'s reads through `path` (the application's root client; never a transaction client). */
export function registerReadPath(db: DbLike, path: ReadPath): void {
  registered.set(db, path);
}

/**
 * Rows of `model` for `sql` (select the model's columns under their own names). On a registered client the
 * read path runs it; on a transaction client (which must see its own writes) or an unregistered one, the client's
 * connection runs the same SQL (rawStatements.ts). Either way the rows have Prisma's types.
 */
export async function readRows<M extends ModelName, R = ModelRow<M>>(
  db: DbLike,
  model: M,
  sql: string,
  params: readonly Param[] = [],
): Promise<R[]> {
  const path = registered.get(db);
  if (path) return rowsOf(model, await path.all(sql, params)) as R[];
  const q = expand(sql, params);
  return rowsOf(model, await queryText(db, q.sql, q.values, numbered(q.sql))) as R[];
}

/**
 * readRows in a transaction, with the rows of `table` (a table of `sql` or its alias) locked until the transaction
 * ends on PostgreSQL (`FOR UPDATE OF`): a concurrent writer of them waits for this one's commit and then sees what it
 * wrote. On SQLite one transaction writes at a time, so the same statement runs without the clause.
 */
export async function readRowsForUpdate<M extends ModelName, R = ModelRow<M>>(
  tx: DbLike,
  model: M,
  sql: string,
  params: readonly Param[],
  table: string,
): Promise<R[]> {
  const q = expand(sql, params);
  return rowsOf(model, await queryText(tx, q.sql, q.values, `${numbered(q.sql)} FOR UPDATE OF ${table}`)) as R[];
}
