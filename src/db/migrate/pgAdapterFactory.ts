import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { delegateAdapter, disposeOnce } from './delegateAdapter.ts';
import { parsePgUrl } from './pgConnectionConfig.ts';

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * The adapter-pg factory for the schema engine, with three fixes:
 * 1. built from discrete settings, so the shadow pool really targets the shadow database;
 * 2. the shadow database is created and dropped here, closing its pool *before* `DROP DATABASE`
 *    (adapter-pg drops first, which fails while connected and leaks the database);
 * 3. PostgreSQL's internal `"char"` type (OID 18), which the engine's schema describer reads from
 *    `pg_catalog`, is reported as text; adapter-pg cannot map it otherwise.
 */
export function pgAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const { config, schema } = parsePgUrl(url);
  const options = schema === undefined ? {} : { schema };
  const base = new PrismaPg(config, options);
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      return withCharAsText(await base.connect());
    },
    async connectToShadowDb(): Promise<SqlDriverAdapter> {
      const database = `prisma_migrate_shadow_db_${randomUUID()}`;
      const admin = new pg.Client(config);
      admin.on('error', () => {});
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
      } catch (err) {
        await admin.end();
        throw err;
      }
      const shadow = await new PrismaPg({ ...config, database }, options).connect();
      return withCharAsText(shadow, async () => {
        try {
          await shadow.dispose();
          await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)}`);
        } finally {
          await admin.end();
        }
      });
    },
  };
}

function withCharAsText(adapter: SqlDriverAdapter, dispose: () => Promise<void> = () => adapter.dispose()): SqlDriverAdapter {
  patchPerformIO(adapter);
  return delegateAdapter(adapter, {
    async startTransaction(isolationLevel): Promise<Transaction> {
      const tx = await adapter.startTransaction(isolationLevel);
      patchPerformIO(tx);
      return tx;
    },
    dispose: disposeOnce(dispose),
  });
}

type PerformIO = (query: SqlQuery) => Promise<{ fields: Array<{ dataTypeID: number }> }>;

// adapter-pg funnels every query through its private `performIO`; this is the narrowest place to
// rewrite the column type before the adapter maps it. Versions are pinned; fail loudly if it moves.
function patchPerformIO(queryable: object): void {
  const target = queryable as { performIO?: PerformIO };
  const original = target.performIO;
  if (typeof original !== 'function') {
    throw new TypeError('@prisma/adapter-pg no longer has performIO: update the "char" fix in pgAdapterFactory.ts');
  }
  target.performIO = async (query) => {
    const result = await original.call(queryable, query);
    for (const field of result.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
}
