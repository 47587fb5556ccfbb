import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Models } from '../../src/db/client.ts';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import { createSystemContext, type ServiceContext } from '../../src/services/context.ts';
import * as tokenService from '../../src/services/user/token.ts';
import * as userService from '../../src/services/user/user.ts';
import { createMigratedDatabase, type TestDatabase } from './db.ts';

export const PASSWORD = 'password123!';

/**
 * Argon2id with 64 KiB and one pass for the tests' apps and servers: hashing and verifying take well under a
 * millisecond instead of ~12 ms each, and the suite creates and signs in thousands of users (about a tenth of its
 * CPU went to argon2). test/auth/passwordHash.test.ts checks the default parameters; a test passes its own
 * PASSWORD_HASH_ALGO to see them.
 */
export const TEST_PASSWORD_HASH_ALGO = 'argon2$1$64$1$32';

/** A credential form Gitea accepts; `as(user, form)` builds requests with it. */
export type CredentialForm =
  'basic' | 'basic-token' | 'basic-token-user' | 'token-header' | 'bearer' | 'query-token' | 'query-access-token';
export const CREDENTIAL_FORMS: CredentialForm[] = [
  'basic',
  'basic-token',
  'basic-token-user',
  'token-header',
  'bearer',
  'query-token',
  'query-access-token',
];

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw payload (sent as given, with the given content-type header). */
  payload?: string;
}

/** A running app on a fresh database, with helpers to call it the way clients do. */
export interface TestApp {
  provider: DbProvider;
  app: App;
  config: Config;
  db: App['deps']['db'];
  /** The CLI's context: site-admin rights, for fixtures. */
  system: ServiceContext;
  /** SQL statements executed since the last reset. */
  queries: string[];
  request(method: string, url: string, opts?: RequestOptions): Promise<LightMyRequestResponse>;
  /** Runs a GraphQL operation (POST /api/graphql) with optional auth headers. */
  graphql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Creates a user (active, no forced password change unless asked) with PASSWORD. */
  createUser(name: string, opts?: Partial<userService.CreateUserInput>): Promise<Models.User>;
  /** Creates a token for a user; returns the secret. */
  createToken(user: string, scopes?: string[], name?: string): Promise<string>;
  close(): Promise<void>;
}

/** Auth headers for one credential form. Token forms need `token`. */
export function authHeaders(login: string, form: CredentialForm, token?: string): { headers: Record<string, string>; query: string } {
  const basic = (u: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
  switch (form) {
    case 'basic':
      return { headers: basic(login, PASSWORD), query: '' };
    case 'basic-token':
      return { headers: basic(login, token ?? ''), query: '' };
    case 'basic-token-user':
      return { headers: basic(token ?? '', 'x-oauth-basic'), query: '' };
    case 'token-header':
      return { headers: { authorization: `token ${token}` }, query: '' };
    case 'bearer':
      return { headers: { authorization: `Bearer ${token}` }, query: '' };
    case 'query-token':
      return { headers: {}, query: `token=${token}` };
    case 'query-access-token':
      return { headers: {}, query: `access_token=${token}` };
  }
}

/** Basic auth header for a user with PASSWORD. */
export function basic(login: string, password = PASSWORD): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
}

/** `token <t>` header. */
export function tokenAuth(token: string): Record<string, string> {
  return { authorization: `token ${token}` };
}

/** Starts the app on a fresh migrated database of `provider`, with `env` added to its configuration. */
export async function startTestApp(provider: DbProvider, env: Record<string, string> = {}): Promise<TestApp> {
  const database: TestDatabase = await createMigratedDatabase(provider);
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    SECRET_KEY: 'test-secret',
    PASSWORD_HASH_ALGO: TEST_PASSWORD_HASH_ALGO,
    ROOT_URL: 'http://localhost:3000/',
    ...env,
  });
  const queries: string[] = [];
  const app = await buildApp(config, { onQuery: (e) => queries.push(e.query) });
  await app.server.ready();
  const system = createSystemContext(app.deps);

  const t: TestApp = {
    provider,
    app,
    config,
    db: app.deps.db,
    system,
    queries,
    async request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      let payload: string | undefined = opts.payload;
      if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      return app.server.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
    },
    graphql(query, variables, headers = {}) {
      return t.request('POST', '/api/graphql', { headers, body: { query, variables } });
    },
    createUser(name, opts = {}) {
      return userService.createUser(system, {
        username: name,
        email: `${name}@example.com`,
        password: PASSWORD,
        mustChangePassword: false,
        ...opts,
      });
    },
    async createToken(user, scopes = ['all'], name) {
      const created = await tokenService.createAccessToken(system, {
        username: user,
        name: name ?? `t-${Math.random().toString(36).slice(2)}`,
        scopes,
      });
      return created.secret;
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
  return t;
}

/** Asserts Gitea's error body shape: `{"message": string, "url": swagger URL}`. */
export function isGiteaError(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string' &&
    (body as { url?: unknown }).url === 'http://localhost:3000/api/swagger'
  );
}
