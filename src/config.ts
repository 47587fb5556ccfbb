import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseBoolSetting, parseCount, parseDurationSetting, parsePort } from './envValues.ts';
import { ROOT } from './paths.ts';
import { loadCronConfig, loadJobsConfig, type CronConfig, type JobsConfig } from './jobs/settings.ts';
import { loadWebhookConfig, type WebhookConfig } from './webhooks/settings.ts';
import { loadSshSettings, type SshSettings } from './ssh/settings.ts';
import { parsePasswordHashAlgo, type PasswordHashParams } from './auth/passwordHashSettings.ts';

/** How the server's log lines are written (LOG_FORMAT). */
export type LogFormat = 'pretty' | 'json';

/** Typed runtime configuration, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  repositoriesDir: string;
  databaseUrl: string;
  /** Which database `databaseUrl` names (src/db's DbProvider; config imports nothing of the layers below). */
  dbProvider: 'sqlite' | 'postgresql';
  /** Always ends with `/`; used for html_url, clone_url, Link headers. */
  rootUrl: string;
  secretKey: string;
  /** GITEA_RUNNER_REGISTRATION_TOKEN (or the content of …_FILE): seeded as the active instance runner registration token; "" = none. */
  runnerRegistrationToken: string;
  logLevel: string;
  /** LOG_FORMAT: `pretty` (one human line per entry) or `json` (pino's lines); unset, pretty when stdout is a terminal. */
  logFormat: LogFormat;
  appName: string;
  /** Gitea's API level we implement (`/api/v1/version`). */
  version: string;
  /** Forgegraph's own release (package.json). */
  packageVersion: string;
  /** Domain of the placeholder e-mail shown for private addresses (Gitea `NO_REPLY_ADDRESS`). */
  noReplyAddress: string;
  minPasswordLength: number;
  /** PASSWORD_HASH_ALGO (Gitea `[security]`): argon2id parameters of new password hashes (src/auth/passwordHashSettings.ts). */
  passwordHash: PasswordHashParams;
  production: boolean;
  /** Which peers may set X-Forwarded-For (Fastify `trustProxy`); the client address feeds sign-in throttling. */
  trustProxy: boolean | string[];
  loginThrottle: LoginThrottleSettings;
  /**
   * GraphQL subscriptions over SSE: LIVE_MAX_SUBSCRIPTIONS_PER_USER (open subscriptions of one account, or of one
   * client address when anonymous; default 20) and LIVE_QUEUE_SIZE (events waiting for one slow client before its
   * subscription is ended; default 100). One SSE connection carries one subscription (graphql-sse's distinct
   * connections mode).
   */
  live: { maxSubscriptionsPerUser: number; queueSize: number };
  /**
   * GRAPHQL_PRELOAD (default false): `serve` builds the GraphQL schema at start rather than at the first GraphQL
   * request, which otherwise waits ~0.3 s for it; while no GraphQL request came, the process idles ~18 MB smaller.
   */
  graphqlPreload: boolean;
  /** REDIS_URL: live subscription events go through Redis pub/sub (every instance's subscribers); null = in process. */
  redisUrl: string | null;
  /** Durable background jobs (src/jobs): JOBS_WORKER, JOBS_CONCURRENCY, JOBS_POLL_INTERVAL, JOBS_LEASE, JOBS_SHUTDOWN_TIMEOUT, JOBS_RETRY_BASE, JOBS_RETRY_MAX, JOBS_KEEP_DONE, JOBS_KEEP_FAILED. */
  jobs: JobsConfig;
  /** Cron (Gitea `[cron]`): CRON_ENABLED, and per task CRON_<TASK>_{ENABLED,SCHEDULE,RUN_AT_START,NOTICE_ON_SUCCESS,OLDER_THAN,…}. */
  cron: CronConfig;
  /** Webhooks (Gitea `[webhook]`): WEBHOOK_ALLOWED_HOST_LIST, WEBHOOK_DELIVER_TIMEOUT, WEBHOOK_SKIP_TLS_VERIFY, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_BASE, WEBHOOK_RETRY_MAX, WEBHOOK_DISABLED. */
  webhook: WebhookConfig;
  /**
   * DATABASE_TRANSACTION_TIMEOUT (Go duration, default 15s): how long a write may wait for the database and run;
   * a write that cannot finish in time is answered 503 with Retry-After and leaves nothing behind.
   */
  transactionTimeoutMs: number;
  /** REPO_LOCK_TIMEOUT (Go duration, default 2m): how long a git write waits for another write of the same repository. */
  repoLockTimeoutMs: number;
  /**
   * SHUTDOWN_DELAY (Go duration, default 5s): on SIGTERM the instance keeps serving while only /readyz fails, this
   * long, so a balancer's health checks take it out of rotation before the listener closes.
   */
  shutdownDelayMs: number;
  /**
   * DISABLE_GIT_HOOKS (Gitea `[security]`, default true): while true, repositories' own git hook scripts are neither
   * run on push nor editable through /repos/{o}/{r}/hooks/git (403 for everyone).
   */
  disableGitHooks: boolean;
  /** Test hook FORGEGRAPH_TEST_CRASH_AFTER_REF_UPDATE=1: the process kills itself after a push moved refs, before its bookkeeping runs. */
  testCrashAfterRefUpdate: boolean;
  /** SHOW_INTERNAL_ERRORS=true: 500 answers carry the internal error text for everyone (debugging only; admins always see it). */
  showInternalErrors: boolean;
  /** Uploaded files of issues, comments and releases (Gitea `[attachment]` and `[repository.release]`). */
  attachments: AttachmentSettings;
  /** Uploaded avatars of accounts and repositories (Gitea `[picture]`). */
  avatars: AvatarSettings;
  /** Package registries (Gitea `[packages]`): storage directory, size limits and per-owner quotas. */
  packages: PackageSettings;
  /**
   * Migrations and mirrors (Gitea `[migrations]`): MIGRATIONS_ALLOW_LOCALNETWORKS (false: loopback and private
   * addresses are refused), MIGRATIONS_ALLOWED_DOMAINS and MIGRATIONS_BLOCKED_DOMAINS (comma-separated globs).
   */
  migrations: MigrationSettings;
  /** The OAuth2 and OpenID Connect provider (Gitea `[oauth2]`). */
  oauth2: OAuth2Settings;
  /**
   * Git over SSH (Gitea's START_SSH_SERVER model): DISABLE_SSH, START_SSH_SERVER, SSH_LISTEN_HOST, SSH_LISTEN_PORT,
   * SSH_DOMAIN, SSH_PORT, SSH_USER, SSH_HANDSHAKE_TIMEOUT, SSH_IDLE_TIMEOUT, SSH_MAX_CONNECTIONS, SSH_MAX_CONNECTIONS_PER_IP.
   */
  ssh: SshSettings;
}

/** Gitea `[oauth2]`: whether the provider's endpoints are served, and how long its tokens live. */
export interface OAuth2Settings {
  /** OAUTH2_ENABLED (default true): `false` leaves /login/oauth/* and the OpenID discovery document unserved. */
  enabled: boolean;
  /** OAUTH2_ACCESS_TOKEN_EXPIRATION_TIME, in seconds (Gitea's unit; default 3600): access and ID tokens. */
  accessTokenSeconds: number;
  /** OAUTH2_REFRESH_TOKEN_EXPIRATION_TIME, in hours (Gitea's unit; default 730), kept here in seconds. */
  refreshTokenSeconds: number;
}

/** Gitea `[migrations]` address policy. */
export interface MigrationSettings {
  allowLocalNetworks: boolean;
  allowedDomains: string[];
  blockedDomains: string[];
}

/** Package registry limits (Gitea `[packages] LIMIT_*`); -1 = unlimited. */
export interface PackageSettings {
  /** `<DATA_DIR>/packages`: content-addressed blobs (`<sha256[0:2]>/<sha256[2:4]>/<sha256>`) and upload temp files. */
  dir: string;
  /** PACKAGES_LIMIT_TOTAL_OWNER_SIZE: bytes all packages of one owner may take. */
  limitTotalOwnerSize: number;
  /** PACKAGES_LIMIT_TOTAL_OWNER_COUNT: package versions one owner may have. */
  limitTotalOwnerCount: number;
  /** PACKAGES_LIMIT_SIZE_GENERIC: largest generic package file. */
  limitSizeGeneric: number;
  /** PACKAGES_LIMIT_SIZE_NPM: largest npm tarball. */
  limitSizeNpm: number;
  /** PACKAGES_NPM_MAX_BODY: largest npm publish request (JSON with the base64 tarball). */
  npmMaxBody: number;
}

/** Gitea's attachment settings: where files live, how large they may be, which types are allowed. */
export interface AvatarSettings {
  /** `<DATA_DIR>/avatars`: account avatars (Gitea `[picture] AVATAR_UPLOAD_PATH`). */
  dir: string;
  /** `<DATA_DIR>/repo-avatars`: repository avatars (Gitea `[picture] REPOSITORY_AVATAR_UPLOAD_PATH`). */
  repoDir: string;
  /** AVATAR_MAX_FILE_SIZE: the largest image accepted, in bytes (Gitea's default 1 MiB). */
  maxFileSize: number;
  /** AVATAR_MAX_WIDTH and AVATAR_MAX_HEIGHT: the largest image accepted, in pixels (Gitea's default 4096). */
  maxWidth: number;
  maxHeight: number;
  /** The stored edge in pixels: Gitea's DefaultAvatarSize (256) × AVATAR_RENDERED_SIZE_FACTOR (default 2). */
  renderedSize: number;
}

export interface AttachmentSettings {
  /** `<DATA_DIR>/attachments` (Gitea's `[attachment] PATH`). */
  dir: string;
  /** ATTACHMENT_MAX_SIZE in MiB (Gitea `[attachment] MAX_SIZE`, default 2048). */
  maxBytes: number;
  /** ATTACHMENT_ALLOWED_TYPES for issue and comment files: extensions, mime types or mime families; empty = all. */
  allowedTypes: string[];
  /** RELEASE_ALLOWED_TYPES for release assets (Gitea `[repository.release] ALLOWED_TYPES`, default all). */
  releaseAllowedTypes: string[];
}

/** Gitea's default `[attachment] ALLOWED_TYPES`. */
const DEFAULT_ATTACHMENT_TYPES =
  '.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip';

/** A comma list of types; the all-types pattern allows all, as Gitea. */
function parseTypes(value: string): string[] {
  const types = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return types.includes('*/*') ? [] : types;
}

/** Failed sign-in throttling (see src/auth/loginThrottle.ts); a maximum of 0 turns that limit off. */
export interface LoginThrottleSettings {
  /** Consecutive failed sign-ins for one account from one address before that pair is blocked. */
  maxFailsPerAccount: number;
  /** How long a blocked account+address pair is refused. */
  accountBlockSeconds: number;
  /** Failed sign-ins (any accounts, unknown tokens) from one address within a day before the address is blocked. */
  maxFailsPerIp: number;
  /** How long a blocked address is refused. */
  ipBlockSeconds: number;
}

export const VERSION = '1.27.0';

/** Forgegraph's release, from package.json (`forgegraph --version`). */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Gitea initGlobalRunnerToken's source: the variable, else the file it names; at least 32 characters. */
function runnerRegistrationToken(env: NodeJS.ProcessEnv): string {
  const file = env.GITEA_RUNNER_REGISTRATION_TOKEN_FILE;
  const token = (env.GITEA_RUNNER_REGISTRATION_TOKEN || (file ? readFileSync(file, 'utf8') : '')).trim();
  if (token && token.length < 32) throw new Error('GITEA_RUNNER_REGISTRATION_TOKEN must be at least 32 characters');
  return token;
}

/** Builds the Config from environment variables (all optional); creates the data directory and secret key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort('PORT', env.PORT, 3000);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = env.DATABASE_URL || `file:${path.join(dataDir, 'forgegraph.db')}`;
  const dbProvider: Config['dbProvider'] = /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgresql' : 'sqlite';
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
    runnerRegistrationToken: runnerRegistrationToken(env),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: parseLogFormat(env.LOG_FORMAT, process.stdout.isTTY === true),
    appName: 'Forgegraph',
    version: VERSION,
    packageVersion: PACKAGE_VERSION,
    noReplyAddress: `noreply.${new URL(rootUrl).hostname}`,
    minPasswordLength: 8,
    passwordHash: parsePasswordHashAlgo(env.PASSWORD_HASH_ALGO),
    production: env.NODE_ENV === 'production',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    loginThrottle: {
      maxFailsPerAccount: parseCount('LOGIN_MAX_FAILS_PER_ACCOUNT', env.LOGIN_MAX_FAILS_PER_ACCOUNT, 10),
      accountBlockSeconds: parseCount('LOGIN_BLOCK_SECONDS', env.LOGIN_BLOCK_SECONDS, 3600, 1),
      maxFailsPerIp: parseCount('LOGIN_MAX_FAILS_PER_IP', env.LOGIN_MAX_FAILS_PER_IP, 100),
      ipBlockSeconds: parseCount('LOGIN_IP_BLOCK_SECONDS', env.LOGIN_IP_BLOCK_SECONDS, 86_400, 1),
    },
    live: {
      maxSubscriptionsPerUser: parseCount('LIVE_MAX_SUBSCRIPTIONS_PER_USER', env.LIVE_MAX_SUBSCRIPTIONS_PER_USER, 20, 1),
      queueSize: parseCount('LIVE_QUEUE_SIZE', env.LIVE_QUEUE_SIZE, 100, 1),
    },
    graphqlPreload: parseBoolSetting('GRAPHQL_PRELOAD', env.GRAPHQL_PRELOAD, false),
    redisUrl: env.REDIS_URL || null,
    jobs: loadJobsConfig(env),
    webhook: loadWebhookConfig(env),
    cron: loadCronConfig(env),
    transactionTimeoutMs: parseDurationSetting('DATABASE_TRANSACTION_TIMEOUT', env.DATABASE_TRANSACTION_TIMEOUT, '15s'),
    repoLockTimeoutMs: parseDurationSetting('REPO_LOCK_TIMEOUT', env.REPO_LOCK_TIMEOUT, '2m'),
    shutdownDelayMs: parseDurationSetting('SHUTDOWN_DELAY', env.SHUTDOWN_DELAY, '5s', 0),
    disableGitHooks: parseBoolSetting('DISABLE_GIT_HOOKS', env.DISABLE_GIT_HOOKS, true),
    testCrashAfterRefUpdate: env.FORGEGRAPH_TEST_CRASH_AFTER_REF_UPDATE === '1',
    showInternalErrors: env.SHOW_INTERNAL_ERRORS === 'true',
    attachments: {
      dir: path.join(dataDir, 'attachments'),
      maxBytes: parseCount('ATTACHMENT_MAX_SIZE', env.ATTACHMENT_MAX_SIZE, 2048, 1) * 1024 * 1024,
      allowedTypes: parseTypes(env.ATTACHMENT_ALLOWED_TYPES ?? DEFAULT_ATTACHMENT_TYPES),
      releaseAllowedTypes: parseTypes(env.RELEASE_ALLOWED_TYPES ?? ''),
    },
    avatars: {
      dir: path.join(dataDir, 'avatars'),
      repoDir: path.join(dataDir, 'repo-avatars'),
      maxFileSize: parseSize('AVATAR_MAX_FILE_SIZE', env.AVATAR_MAX_FILE_SIZE, 1024 * 1024, 1),
      maxWidth: parseCount('AVATAR_MAX_WIDTH', env.AVATAR_MAX_WIDTH, 4096, 1),
      maxHeight: parseCount('AVATAR_MAX_HEIGHT', env.AVATAR_MAX_HEIGHT, 4096, 1),
      renderedSize: 256 * parseCount('AVATAR_RENDERED_SIZE_FACTOR', env.AVATAR_RENDERED_SIZE_FACTOR, 2, 1),
    },
    packages: {
      dir: path.join(dataDir, 'packages'),
      limitTotalOwnerSize: parseSize('PACKAGES_LIMIT_TOTAL_OWNER_SIZE', env.PACKAGES_LIMIT_TOTAL_OWNER_SIZE, -1),
      limitTotalOwnerCount: parseCount('PACKAGES_LIMIT_TOTAL_OWNER_COUNT', env.PACKAGES_LIMIT_TOTAL_OWNER_COUNT, -1, -1),
      limitSizeGeneric: parseSize('PACKAGES_LIMIT_SIZE_GENERIC', env.PACKAGES_LIMIT_SIZE_GENERIC, -1),
      limitSizeNpm: parseSize('PACKAGES_LIMIT_SIZE_NPM', env.PACKAGES_LIMIT_SIZE_NPM, -1),
      npmMaxBody: parseSize('PACKAGES_NPM_MAX_BODY', env.PACKAGES_NPM_MAX_BODY, 256 * 1024 * 1024, 1),
    },
    migrations: {
      allowLocalNetworks: env.MIGRATIONS_ALLOW_LOCALNETWORKS === 'true',
      allowedDomains: splitList(env.MIGRATIONS_ALLOWED_DOMAINS),
      blockedDomains: splitList(env.MIGRATIONS_BLOCKED_DOMAINS),
    },
    oauth2: {
      enabled: env.OAUTH2_ENABLED !== 'false',
      accessTokenSeconds: parseCount('OAUTH2_ACCESS_TOKEN_EXPIRATION_TIME', env.OAUTH2_ACCESS_TOKEN_EXPIRATION_TIME, 3600, 1),
      refreshTokenSeconds: parseCount('OAUTH2_REFRESH_TOKEN_EXPIRATION_TIME', env.OAUTH2_REFRESH_TOKEN_EXPIRATION_TIME, 730, 1) * 3600,
    },
    ssh: loadSshSettings(env, { host, rootUrl, dataDir }),
  };
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** A byte size from the environment (`fallback` when unset): `-1` (unlimited), or a number with an optional unit (`500 MiB`, `2GB`). */
function parseSize(name: string, value: string | undefined, fallback: number, min = -1): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (value.trim() === '-1' && min < 0) return -1;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const unit = m ? SIZE_UNITS[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`${name} must be -1 or a size such as 100 MiB, got ${value}`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (bytes < Math.max(min, 0)) throw new Error(`${name} must be at least ${min} bytes, got ${value}`);
  return bytes;
}

/** LOG_FORMAT; unset or empty: `pretty` for a person at a terminal, `json` for a service manager or log shipper. */
function parseLogFormat(value: string | undefined, stdoutIsTerminal: boolean): LogFormat {
  if (!value) return stdoutIsTerminal ? 'pretty' : 'json';
  if (value === 'pretty' || value === 'json') return value;
  throw new Error(`LOG_FORMAT must be pretty or json, got "${value}"`);
}

/**
 * TRUST_PROXY: `true`/`false`, or a comma list of addresses, CIDR ranges and proxy-addr's
 * keywords (`loopback`, `linklocal`, `uniquelocal`). Default `loopback`, like Gitea's
 * REVERSE_PROXY_TRUSTED_PROXIES (127.0.0.0/8,::1/128): a remote client cannot pick its own address.
 */
function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value.trim() === '') return ['loopback'];
  const v = value.trim();
  if (v === 'true') return true;
  if (v === 'false') return false;
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
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

/** The database a Config opens, for people: the SQLite file, or the PostgreSQL URL without its password. */
export function describeDatabase(config: Pick<Config, 'dbProvider' | 'databaseUrl'>): string {
  if (config.dbProvider === 'sqlite') {
    const file = config.databaseUrl.replace(/^file:(\/\/(?=\/))?/, '').split('?')[0] ?? '';
    return `SQLite ${file === ':memory:' ? file : path.resolve(file)}`;
  }
  return `PostgreSQL ${redactUrl(config.databaseUrl)}`;
}

/** A URL with its password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/** A comma-separated setting as its non-empty trimmed entries. */
function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}
