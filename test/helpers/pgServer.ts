// The PostgreSQL server the suite's PostgreSQL variant runs on (TEST_DATABASE_URL), and the statements that create
// its databases.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

/** The URL of database `name` on the TEST_DATABASE_URL server. */
export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` with a connection to `database` (the TEST_DATABASE_URL server's maintenance database by default). */
export async function withServer<T>(fn: (client: pg.Client) => Promise<T>, database?: string): Promise<T> {
  const client = new pg.Client({ connectionString: database ? databaseUrl(database) : serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** PostgreSQL's "… is being accessed by other users" (SQLSTATE 55006). */
function isInUse(err: unknown): boolean {
  return (err as { code?: string }).code === '55006';
}

/** Runs `statement`, retried while PostgreSQL refuses it because a database it names has sessions (55006). */
export async function retryWhileInUse(client: pg.Client, statement: string, beforeRetry?: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(statement);
      return;
    } catch (err) {
      if (!isInUse(err) || attempt >= 100) throw err;
      await beforeRetry?.();
      await sleep(50);
    }
  }
}
