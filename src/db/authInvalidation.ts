import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { pgModule } from '../lazyPackage.ts';
import type { DbProvider } from './migrate/engine.ts';
import { parsePgUrl } from './migrate/pgConnectionConfig.ts';

/**
 * Tells caches of authentication facts (token → user) when users or tokens changed, in any process. Triggers
 * on "User" and "AccessToken" (migration token_cache_invalidation) and on deletes of "OAuth2Grant" (migration
 * oauth2_provider: revoking a grant revokes its OAuth2 access tokens) fire inside the writing transaction:
 * - SQLite (one file, the server and the CLI as writers): they bump "AuthGeneration".value; `generation()`
 *   reads it through a cached prepared statement on a read-only connection (a few µs, outside Prisma).
 * - PostgreSQL (several instances): they `NOTIFY forgegraph_auth` at commit; each instance LISTENs on its own
 *   connection and counts notifications. While that connection is down, `generation()` is null (no caching);
 *   a reconnect counts as a change, since notifications may have been missed.
 * `generation()` returns null when caching is unsafe; any change of its value means "forget everything".
 */
export interface AuthInvalidation {
  generation(): number | null;
  close(): Promise<void>;
}

const TRIGGERS = [
  'AuthGeneration_user_update',
  'AuthGeneration_user_delete',
  'AuthGeneration_token_update',
  'AuthGeneration_token_delete',
  'AuthGeneration_oauth2_grant_delete',
];

/** The invalidation source of the configured database. */
export function authInvalidation(provider: DbProvider, url: string, onError: (err: unknown) => void): AuthInvalidation {
  return provider === 'sqlite' ? sqliteGeneration(url) : pgListener(url, onError);
}

function sqliteGeneration(url: string): AuthInvalidation {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url.replace(/^file:/, '').replace(/\?.*$/, '');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  // A database whose User table was rebuilt (SQLite RedefineTables) lost its triggers: then never cache.
  const present = db.prepare(
    `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name IN (${TRIGGERS.map(() => '?').join(',')})`,
  );
  const complete = (present.get(...TRIGGERS) as { n: number }).n === TRIGGERS.length;
  const read = db.prepare('SELECT "value" FROM "AuthGeneration" WHERE "id" = 1').pluck();
  return {
    generation: () => (complete ? ((read.get() as number | undefined) ?? null) : null),
    close: async () => void db.close(),
  };
}

const RECONNECT_MS = 1_000;

function pgListener(url: string, onError: (err: unknown) => void): AuthInvalidation {
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const lost = (c: pg.Client, err?: unknown) => {
    if (client !== c) return;
    if (err) onError(err);
    listening = false;
    client = null;
    c.removeAllListeners();
    c.on('error', () => undefined);
    c.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RECONNECT_MS).unref();
  };
  const connect = () => {
    retry = null;
    const c = new (pgModule().Client)({ ...parsePgUrl(url).config, application_name: 'forgegraph-auth-listener' });
    client = c;
    c.on('notification', () => void generation++);
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    c.connect()
      .then(() => c.query('LISTEN forgegraph_auth'))
      .then(() => {
        if (client !== c) return;
        generation++;
        listening = true;
      })
      .catch((err: unknown) => lost(c, err));
  };
  connect();
  return {
    generation: () => (listening ? generation : null),
    async close() {
      closed = true;
      listening = false;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => undefined);
        await c.end().catch(() => undefined);
      }
    },
  };
}
