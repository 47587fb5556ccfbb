import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_CATEGORIES, type ScopeCategory } from '../../src/auth/scope.ts';
import { Models } from '../../src/db/client.ts';
import { schema } from '../../src/graphql/schema.ts';
import { writeScopeOf, type WriteScopeAlternatives } from '../../src/graphql/tokenWriteScopes.ts';
import { allRoutes } from '../../src/rest/routes/index.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';
import { SCOPE_CASES, type ScopeCase } from './mutationScopeCases.ts';
import { ScopeFixture } from './mutationScopeFixture.ts';

/**
 * The write gate, schema-wide (issue #10 finding 1): every mutation of the schema runs against a fresh private
 * target with (a) a token that reads every category, (b) for each category the write needs, a token that writes
 * every other one, and (c) a public-only token that writes everything. Each must be refused with the database
 * unchanged. Then a token with exactly the REST twin's write scopes must succeed and change it: the input was valid
 * and only the scope stood in the way. The token holder is a site admin, so no permission check can hide a
 * missing scope check. A new mutation fails the first test until it has a case in mutationScopeCases.ts; a case
 * whose REST twin needs no scope says why (`unscoped`), and then a read-only token must succeed.
 *
 * Scopes come first (issue #30 finding 4): every mutation declares its token write scope (writeScope in its field
 * options) and the same attempts run with the ids and owners of the input replaced by ones that do not exist; a
 * token without the scope gets the same scope refusal, never NotFoundError, so it learns nothing about what exists.
 */

const MODELS = Object.values(Models.Prisma.ModelName);
const MUTATION_FIELDS = schema.getMutationType()?.getFields() ?? {};
const MUTATIONS = Object.keys(MUTATION_FIELDS).sort();
const SCOPE_DENIED = /^token does not have at least one of required scope\(s\), required=\[(write:\w+(?: write:\w+)*)\], token scope=/;

/** The token scope categories a case's write needs: its REST twin's, from the route table. */
function categoriesOf(c: ScopeCase): ScopeCategory[] {
  if (c.rest === null) return c.scopes ?? [];
  const [method, path] = c.rest.split(' ');
  const route = allRoutes.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no REST route ${c.rest}`);
  return route.scopes ?? [];
}

const read = (c: ScopeCategory) => `read:${c}`;
const write = (c: ScopeCategory) => `write:${c}`;

/** A database id nothing has. */
const MISSING_ID = 2_147_483_000;
/** Input fields that name an existing owner or user (not a new resource's name). */
const OWNER_FIELDS = new Set(['owner', 'repositoryOwner', 'organizationLogin', 'ownerLogin', 'login', 'newOwnerLogin']);

function globalIdOf(v: string): { typename: string; id: string } | null {
  try {
    const decoded = decodeGlobalID(v);
    return schema.getType(decoded.typename) && /^\d+$/.test(decoded.id) ? decoded : null;
  } catch {
    return null;
  }
}

/** The input with every global id, numeric id and owner replaced by one that does not exist. */
function nonexistent(input: unknown, key = ''): unknown {
  if (typeof input === 'string') {
    const gid = globalIdOf(input);
    if (gid) return encodeGlobalID(gid.typename, MISSING_ID);
    if (OWNER_FIELDS.has(key)) return 'no-such-owner';
    if (key === 'repositoryNameWithOwner') return 'no-such-owner/no-such-repo';
    return input;
  }
  if (typeof input === 'number' && /(^id|Id)$/.test(key)) return MISSING_ID;
  if (Array.isArray(input)) return input.map((v) => nonexistent(v, key));
  if (input && typeof input === 'object') return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, nonexistent(v, k)]));
  return input;
}

/** The input as the declaration sees it: global ids decoded (as plugin-relay decodes them before any resolver). */
function decoded(input: unknown): unknown {
  if (typeof input === 'string') return globalIdOf(input) ?? input;
  if (Array.isArray(input)) return input.map(decoded);
  if (input && typeof input === 'object') return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, decoded(v)]));
  return input;
}

/** The alternatives a mutation declares for this input (any of them, held entirely, passes the first check). */
function declaredFor(m: string, input: Record<string, unknown>): WriteScopeAlternatives {
  const declared = writeScopeOf(MUTATION_FIELDS[m]?.extensions);
  if (!declared) throw new Error(`${m} declares no token write scope`);
  return declared(decoded(input) as Record<string, unknown>);
}

describe('the mutation scope table', () => {
  it('has a case for every mutation of the schema, and only for those', () => {
    expect(MUTATIONS.length).toBeGreaterThan(60);
    expect(
      MUTATIONS.filter((m) => !SCOPE_CASES[m]?.length),
      'mutations without a case in mutationScopeCases.ts',
    ).toEqual([]);
    expect(Object.keys(SCOPE_CASES).filter((m) => !MUTATIONS.includes(m))).toEqual([]);
  });

  it('has a token write scope declared on every mutation (checked before its resolver runs)', () => {
    expect(MUTATIONS.filter((m) => !writeScopeOf(MUTATION_FIELDS[m]?.extensions))).toEqual([]);
  });

  it('names REST twins that exist; a mutation without one says which scope and why; one without a scope says why', () => {
    for (const [name, cases] of Object.entries(SCOPE_CASES)) {
      for (const c of cases) {
        if (c.rest === null) {
          expect(c.scopes?.length && c.why, name).toBeTruthy();
        } else {
          expect(c.scopes, `${name}: the scope comes from the REST twin`).toBeUndefined();
          expect(['POST', 'PUT', 'PATCH', 'DELETE'], name).toContain(c.rest.split(' ')[0]);
        }
        expect(categoriesOf(c).length === 0, `${name} (${c.rest}): no scope exactly when the case explains it (unscoped)`).toBe(
          Boolean(c.unscoped),
        );
      }
    }
  });
});

describe.each(PROVIDERS)('every mutation refuses tokens without its write scope (%s)', (provider) => {
  let t: TestApp;
  let fx: ScopeFixture;
  const tokens = new Map<string, string>();

  /** A token of root with these scopes (created once). */
  async function token(scopes: string[]): Promise<string> {
    const key = scopes.join(',');
    let secret = tokens.get(key);
    if (!secret) {
      secret = await t.createToken('root', scopes);
      tokens.set(key, secret);
    }
    return secret;
  }

  /** Each table's columns, as the snapshot reads them (a token's last use aside: authentication records it). */
  const columns = new Map<string, string[]>();
  async function columnsOf(m: string): Promise<string[]> {
    let names = columns.get(m);
    if (!names) {
      const rows =
        provider === 'sqlite'
          ? await t.db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pragma_table_info('${m}')`)
          : await t.db.$queryRawUnsafe<{ name: string }[]>(
              `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
              m,
            );
      names = rows.map((r) => r.name).filter((c) => m !== 'AccessToken' || (c !== 'lastUsedAt' && c !== 'updatedAt'));
      columns.set(m, names);
    }
    return names;
  }

  /**
   * Every row of every table, order-independent: one text per table, each row its quoted values, rows sorted,
   * built by the database itself in one statement (the snapshot runs three times per case over ~90 tables; reading
   * the rows into JavaScript and serializing them there, then one query per table, was most of its time). SQLite
   * prepares it once (the connection's statement cache); PostgreSQL planned its ~90 subqueries anew each time (~55 ms
   * against ~12 ms to run it), so there it is the body of a PL/pgSQL function in the test database, whose plan each
   * connection keeps.
   */
  let snapshotSql: string | null = null;
  async function snapshot(): Promise<string> {
    await t.app.deps.notifier.drain();
    if (!snapshotSql) {
      const models = [...MODELS].sort();
      const tables = await Promise.all(
        models.map(async (m) => {
          const cols = await columnsOf(m);
          return provider === 'sqlite'
            ? `(SELECT group_concat(r, char(10) ORDER BY r) FROM (SELECT ${cols.map((c) => `quote("${c}")`).join(" || ',' || ")} AS r FROM "${m}"))`
            : `(SELECT string_agg(r, E'\\n' ORDER BY r) FROM (SELECT concat_ws(',', ${cols.map((c) => `quote_nullable("${c}")`).join(', ')}) AS r FROM "${m}") s)`;
        }),
      );
      const select = `SELECT ${tables.map((sql, i) => `${sql} AS "t${i}"`).join(', ')}`;
      if (provider === 'sqlite') {
        snapshotSql = select;
      } else {
        const columns = tables.map((_, i) => `"t${i}" text`).join(', ');
        await t.db.$executeRawUnsafe(
          `CREATE OR REPLACE FUNCTION "scopeTestSnapshot"() RETURNS TABLE (${columns}) LANGUAGE plpgsql AS $body$ BEGIN RETURN QUERY ${select}; END $body$`,
        );
        snapshotSql = 'SELECT * FROM "scopeTestSnapshot"()';
      }
    }
    const [row] = await t.db.$queryRawUnsafe<Record<string, string | null>[]>(snapshotSql);
    return [...MODELS]
      .sort()
      .map((m, i) => `${m}:${row?.[`t${i}`] ?? ''}`)
      .join('\n');
  }

  /** Runs mutation `name`: its payload's type name when it succeeded, else its error (mutationError). */
  async function run(name: string, input: Record<string, unknown>, headers: Record<string, string>) {
    const cap = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${cap}Input!) { ${name}(input: $input) { __typename } }`;
    const res = await gql<Record<string, { __typename: string } | null>>(t, q, { variables: { input }, headers });
    return { typename: res.data?.[name]?.__typename, error: mutationError(res, name), payload: `${cap}Payload` };
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    fx = new ScopeFixture(t);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    await t.createUser('bob');
  });
  afterAll(async () => {
    await t.close();
  });

  const cases = MUTATIONS.flatMap((m) => (SCOPE_CASES[m] ?? []).map((c) => ({ m, c, title: c.label ? `${m} (${c.label})` : m })));

  it.each(cases)('$title', async ({ m, c }) => {
    const needed = categoriesOf(c);
    const input = await c.input(fx);
    const attempts: { who: string; scopes: string[]; expectScope: boolean }[] = [
      { who: 'read on every category', scopes: SCOPE_CATEGORIES.map(read), expectScope: true },
      ...needed.map((missing) => ({
        who: `write on every category but ${missing}`,
        scopes: SCOPE_CATEGORIES.map((x) => (x === missing ? read(x) : write(x))),
        expectScope: true,
      })),
    ];
    if (c.unscoped) attempts.length = 0;
    if (!c.publicOnlyExempt) attempts.push({ who: 'public-only, write on everything', scopes: ['public-only', 'all'], expectScope: false });
    for (const a of attempts) await token(a.scopes);

    const before = await snapshot();
    const seen: string[] = [];
    const missing = nonexistent(input) as Record<string, unknown>;
    for (const [ids, given] of [
      ['real ids', input],
      ['nonexistent ids', missing],
    ] as const) {
      const alternatives = declaredFor(m, given);
      const declared = alternatives.flat().map(write);
      for (const a of attempts) {
        const { typename, error } = await run(m, given, tokenAuth(await token(a.scopes)));
        const what = `${m} (${ids}) with a token having ${a.who}: ${JSON.stringify({ typename, error })}`;
        seen.push(what);
        expect(typename, what).toBeUndefined();
        // With a nonexistent id, a token holding one of the declared alternatives may learn that it does not exist
        // (a label id could be an organization's, where write:organization is missing, or a repository's).
        const passesFirstCheck = alternatives.some((alt) => alt.every((cat) => a.scopes.includes(write(cat))));
        if (c.credential === 'password') {
          expect(['PERMISSION_DENIED', 'UNAUTHENTICATED'], what).toContain(error?.code);
        } else if (a.expectScope && (ids === 'real ids' || !passesFirstCheck)) {
          expect(error?.code, what).toBe('PERMISSION_DENIED');
          expect(error?.type, what).toBe('FORBIDDEN');
          const required = SCOPE_DENIED.exec(error?.message ?? '')?.[1]?.split(' ') ?? [];
          expect(required.length, what).toBeGreaterThan(0);
          expect([...needed.map(write), ...declared], what).toEqual(expect.arrayContaining(required));
        } else {
          expect(['NOT_FOUND', 'PERMISSION_DENIED'], what).toContain(error?.code);
        }
      }
    }
    expect(await snapshot(), `a refused attempt changed the database:\n${seen.join('\n')}`).toBe(before);

    // The same input with the REST twin's write scopes (or a password) goes through and writes.
    const allowed =
      c.credential === 'password' ? basic('root') : tokenAuth(await token([...SCOPE_CATEGORIES.map(read), ...needed.map(write)]));
    const ok = await run(m, input, allowed);
    expect(ok.error, `${m} with the REST twin's scopes`).toBeNull();
    expect(ok.typename, `${m} with the REST twin's scopes`).toBe(ok.payload);
    expect(await snapshot(), `${m} succeeded without writing anything`).not.toBe(before);
  });
});
