import type pg from 'pg';
import { pgModule } from '../../lazyPackage.ts';

const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';

/**
 * Connects a `pg.Client`, first creating the target database (from the `postgres` maintenance
 * database) when it does not exist, as `prisma migrate deploy` does.
 */
export async function connectPgCreatingDatabase(config: pg.ClientConfig): Promise<pg.Client> {
  try {
    return await connectPg(config);
  } catch (err) {
    if (pgErrorCode(err) !== INVALID_CATALOG_NAME || config.database === undefined) throw err;
    const admin = await connectPg({ ...config, database: 'postgres' });
    try {
      await admin.query(`CREATE DATABASE ${pgModule().escapeIdentifier(config.database)}`);
    } catch (createErr) {
      if (pgErrorCode(createErr) !== DUPLICATE_DATABASE) throw createErr;
    } finally {
      await admin.end();
    }
    return connectPg(config);
  }
}

/** Whether the database `config` names exists (false on SQLSTATE 3D000; other failures throw). */
export async function pgDatabaseExists(config: pg.ClientConfig): Promise<boolean> {
  try {
    await (await connectPg(config)).end();
    return true;
  } catch (err) {
    if (pgErrorCode(err) === INVALID_CATALOG_NAME) return false;
    throw err;
  }
}

async function connectPg(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new (pgModule().Client)(config);
  client.on('error', () => {}); // a dropped idle connection must not crash the process
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return client;
}

/** The SQLSTATE of a `pg` error, if any. */
export function pgErrorCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
