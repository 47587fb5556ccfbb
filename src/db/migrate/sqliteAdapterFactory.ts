import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { delegateAdapter } from './delegateAdapter.ts';

/** How long a statement waits for another process's write lock before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/** The file path of a SQLite URL (`file:/abs.db`, `file:./rel.db` or `:memory:`), made absolute. */
export function sqliteFilePath(url: string): string {
  if (url === ':memory:' || url === 'file::memory:') return ':memory:';
  const withoutScheme = url.replace(/^file:(\/\/(?=\/))?/, '');
  const withoutQuery = withoutScheme.replace(/\?.*$/, '');
  return path.resolve(withoutQuery);
}

/**
 * The schema engine (8.1) reads a partial index's definition with `… AND name = "<index>"`: a string in double
 * quotes, which SQLite takes as a string only when it has no column of that name and when built to accept it
 * (SQLITE_DQS). better-sqlite3 is built without, so the statement fails; it is sent with the name in single quotes.
 */
const INDEX_SQL_BY_NAME = /^(SELECT sql FROM sqlite_master WHERE type = 'index' AND name = )"((?:[^"]|"")*)"(;?)$/;

/** `query` with its double-quoted index name as a string literal (see INDEX_SQL_BY_NAME); other queries unchanged. */
function quoteIndexName<Q extends { sql: string }>(query: Q): Q {
  const m = INDEX_SQL_BY_NAME.exec(query.sql.trim());
  if (!m) return query;
  return { ...query, sql: `${m[1]}'${m[2]!.replace(/""/g, '"').replace(/'/g, "''")}'${m[3]}` };
}

/** An adapter whose queries go through quoteIndexName. */
const withQuotedIndexNames = (inner: SqlDriverAdapter, overrides: Partial<SqlDriverAdapter> = {}): SqlDriverAdapter =>
  delegateAdapter(inner, { queryRaw: (query) => inner.queryRaw(quoteIndexName(query)), ...overrides });

/**
 * The better-sqlite3 adapter factory for the schema engine, with a busy timeout and the parent
 * directory created on connect. A file database is put in the server's own modes first (src/db/client.ts):
 * write-ahead log, synchronous NORMAL. The engine runs a migration's statements one by one, each its own
 * transaction; in the default rollback-journal mode every one of them synced the disk several times (2,206
 * fsyncs and ~440 ms for the 21 migrations of a first start, against 11 and ~150 ms). Closing the engine's
 * connection checkpoints the log into the file when no other connection is open (the first start, the CLI);
 * beside a running server its commits are as durable as the server's own.
 * The engine replays each migration on the shadow database through `executeRaw`, which better-sqlite3 rejects for
 * multi-statement scripts, so argument-less `executeRaw` calls on the shadow connection are routed to `executeScript` (`db.exec`).
 */
export function sqliteAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const file = sqliteFilePath(url);
  const base = new PrismaBetterSqlite3({ url: file, timeout: SQLITE_BUSY_TIMEOUT_MS });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      if (file === ':memory:') return withQuotedIndexNames(await base.connect());
      await mkdir(path.dirname(file), { recursive: true });
      const adapter = await base.connect();
      await adapter.executeScript('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
      return withQuotedIndexNames(adapter);
    },
    async connectToShadowDb(): Promise<SqlDriverAdapter> {
      const shadow = await base.connectToShadowDb();
      return withQuotedIndexNames(shadow, {
        async executeRaw(query) {
          if (query.args.length > 0) return shadow.executeRaw(query);
          await shadow.executeScript(query.sql);
          return 0;
        },
      });
    },
  };
}
