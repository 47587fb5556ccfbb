import type pg from 'pg';

/** A `postgresql://` URL split into discrete `pg` settings plus Prisma's `?schema=`. */
export interface PgConnectionConfig {
  config: pg.PoolConfig;
  /** The PostgreSQL schema Prisma works in (`?schema=`), when not the default `public`. */
  schema?: string;
}

/**
 * Parses a `postgres(ql)://user:pass@host:port/db?sslmode=…&schema=…` URL into discrete settings.
 * Discrete settings matter: `pg` lets `connectionString` override `database`, so a pool built from
 * `{ connectionString, database: shadow }` would silently connect to the main database.
 */
export function parsePgUrl(url: string): PgConnectionConfig {
  const u = new URL(url);
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new RangeError(`not a PostgreSQL URL: ${u.protocol}//…`);
  }
  const q = u.searchParams;
  const config: pg.PoolConfig = {
    host: q.get('host') ?? (u.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost'),
    port: u.port === '' ? 5432 : Number(u.port),
  };
  if (u.username !== '') config.user = decodeURIComponent(u.username);
  if (u.password !== '') config.password = decodeURIComponent(u.password);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (database !== '') config.database = database;
  const sslmode = q.get('sslmode');
  if (sslmode === 'verify-ca' || sslmode === 'verify-full') config.ssl = true;
  else if (sslmode === 'require' || sslmode === 'prefer' || sslmode === 'no-verify') config.ssl = { rejectUnauthorized: false };
  const connectTimeout = q.get('connect_timeout');
  if (connectTimeout !== null) config.connectionTimeoutMillis = Number(connectTimeout) * 1000;
  const applicationName = q.get('application_name');
  if (applicationName !== null) config.application_name = applicationName;
  const schema = q.get('schema');
  return schema === null || schema === 'public' ? { config } : { config, schema };
}
