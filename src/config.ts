import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DbProvider } from './db/migrate/engine.ts';

/** Typed runtime configuration, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  repositoriesDir: string;
  databaseUrl: string;
  dbProvider: DbProvider;
  /** Always ends with `/`; used for html_url, clone_url, Link headers. */
  rootUrl: string;
  secretKey: string;
  logLevel: string;
  appName: string;
  version: string;
  /** Domain of the placeholder e-mail shown for private addresses (Gitea `NO_REPLY_ADDRESS`). */
  noReplyAddress: string;
  minPasswordLength: number;
  production: boolean;
  /** SHOW_INTERNAL_ERRORS=true: 500 answers carry the internal error text for everyone (debugging only; admins always see it). */
  showInternalErrors: boolean;
}

export const VERSION = '1.27.0';

/** Builds the Config from environment variables (all optional); creates the data directory and secret key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = env.DATABASE_URL || `file:${path.join(dataDir, 'forgegraph.db')}`;
  const dbProvider: DbProvider = /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgresql' : 'sqlite';
  if (dbProvider === 'sqlite' && !databaseUrl.startsWith('file:')) {
    throw new Error(`DATABASE_URL must be a file: URL (SQLite) or a postgresql:// URL, got ${databaseUrl}`);
  }
  let rootUrl = env.ROOT_URL || `http://localhost:${port}/`;
  if (!rootUrl.endsWith('/')) rootUrl += '/';
  const host = env.HOST || '0.0.0.0';
  return {
    port,
    host,
    dataDir,
    repositoriesDir: path.join(dataDir, 'repositories'),
    databaseUrl,
    dbProvider,
    rootUrl,
    secretKey: env.SECRET_KEY || loadOrCreateSecretKey(dataDir),
    logLevel: env.LOG_LEVEL || 'info',
    appName: 'Forgegraph',
    version: VERSION,
    noReplyAddress: `noreply.${new URL(rootUrl).hostname}`,
    minPasswordLength: 8,
    production: env.NODE_ENV === 'production',
    showInternalErrors: env.SHOW_INTERNAL_ERRORS === 'true',
  };
}

function parsePort(value: string | undefined): number {
  if (!value) return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0-65535, got ${value}`);
  return port;
}

function loadOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const key = randomBytes(32).toString('hex');
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  }
}
