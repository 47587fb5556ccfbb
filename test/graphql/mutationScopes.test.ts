import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_CATEGORIES, type ScopeCategory } from '../../src/auth/scope.ts';
import { Models } from '../../src/db/client.ts';
import { schema } from '../../src/graphql/schema.ts';
import { allRoutes } from '../../src/rest/routes/index.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';
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
 */

const MODELS = Object.values(Models.Prisma.ModelName);
const MUTATIONS = Object.keys(schema.getMutationType()?.getFields() ?? {}).sort();
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

describe('the mutation scope table', () => {
  it('has a case for every mutation of the schema, and only for those', () => {
    expect(MUTATIONS.length).toBeGreaterThan(60);
    expect(
      MUTATIONS.filter((m) => !SCOPE_CASES[m]?.length),
      'mutations without a case in mutationScopeCases.ts',
    ).toEqual([]);
    expect(Object.keys(SCOPE_CASES).filter((m) => !MUTATIONS.includes(m))).toEqual([]);
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
  let pulls: PullFixture;
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
   * built by the database itself (the snapshot runs three times per case over ~90 tables; reading the rows into
   * JavaScript and serializing them there was most of this file's time).
   */
  async function snapshot(): Promise<string> {
    await t.app.deps.notifier.drain();
    const tables = await Promise.all(
      [...MODELS].sort().map(async (m) => {
        const cols = await columnsOf(m);
        const sql =
          provider === 'sqlite'
            ? `SELECT group_concat(r, char(10) ORDER BY r) AS rows FROM (SELECT ${cols.map((c) => `quote("${c}")`).join(" || ',' || ")} AS r FROM "${m}")`
            : `SELECT string_agg(r, E'\\n' ORDER BY r) AS rows FROM (SELECT concat_ws(',', ${cols.map((c) => `quote_nullable("${c}")`).join(', ')}) AS r FROM "${m}") s`;
        const [row] = await t.db.$queryRawUnsafe<{ rows: string | null }[]>(sql);
        return `${m}:${row?.rows ?? ''}`;
      }),
    );
    return tables.join('\n');
  }

  async function run(name: string, input: Record<string, unknown>, headers: Record<string, string>) {
    const cap = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${cap}Input!) { ${name}(input: $input) { __typename ... on Error { message code } } }`;
    const res = await gql<Record<string, { __typename: string; message?: string; code?: string } | null>>(t, q, {
      variables: { input },
      headers,
    });
    const typed = res.data?.[name] ?? null;
    return { typed, errors: res.errors, payload: `${cap}Payload` };
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    pulls = await PullFixture.start(t);
    fx = new ScopeFixture(t, pulls);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    await t.createUser('bob');
  });
  afterAll(async () => {
    pulls.dispose();
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
    for (const a of attempts) {
      const { typed, errors, payload } = await run(m, input, tokenAuth(await token(a.scopes)));
      const what = `${m} with a token having ${a.who}: ${JSON.stringify({ typed, errors })}`;
      seen.push(what);
      expect(typed?.__typename, what).not.toBe(payload);
      if (c.credential === 'password') {
        expect(['PermissionDeniedError', 'UnauthenticatedError'], what).toContain(typed?.__typename);
      } else if (a.expectScope) {
        expect(typed?.__typename, what).toBe('PermissionDeniedError');
        const required = SCOPE_DENIED.exec(typed?.message ?? '')?.[1]?.split(' ') ?? [];
        expect(required.length, what).toBeGreaterThan(0);
        expect(needed.map(write), what).toEqual(expect.arrayContaining(required));
      } else {
        expect(['NotFoundError', 'PermissionDeniedError'], what).toContain(typed?.__typename);
      }
    }
    expect(await snapshot(), `a refused attempt changed the database:\n${seen.join('\n')}`).toBe(before);

    // The same input with the REST twin's write scopes (or a password) goes through and writes.
    const allowed =
      c.credential === 'password' ? basic('root') : tokenAuth(await token([...SCOPE_CATEGORIES.map(read), ...needed.map(write)]));
    const ok = await run(m, input, allowed);
    expect(ok.errors, JSON.stringify(ok.errors)).toBeUndefined();
    expect(ok.typed?.__typename, `${m} with the REST twin's scopes: ${JSON.stringify(ok.typed)}`).toBe(ok.payload);
    expect(await snapshot(), `${m} succeeded without writing anything`).not.toBe(before);
  });
});
