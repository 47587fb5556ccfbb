import { getIntrospectionQuery } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTION_SIZE } from '../../src/graphql/builder.ts';
import { LIMITS } from '../../src/graphql/limits/limits.ts';
import { useDeadline } from '../../src/graphql/limits/useDeadline.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql } from '../helpers/graphql.ts';

const HEAVY = 'users(first: 100) { nodes { accessTokens(first: 100) { nodes { name } } } }';
/** Aliases of HEAVY (GitHub's count: 100 users + 100 × 100 tokens = 10,100 nodes each) that go over the node limit. */
const OVER = Math.floor(LIMITS.complexity / 10_100) + 1;
const aliased = (n: number, body = HEAVY) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${body}`).join(' ')} }`;
/** `__type(name: "User") { ofType { … name } }` with `levels` ofType levels: depth levels + 2. */
const introspectionChain = (levels: number) => {
  let inner = 'name';
  for (let i = 0; i < levels; i++) inner = `ofType { ${inner} }`;
  return `{ __type(name: "User") { ${inner} } }`;
};

describe.each(PROVIDERS)('GraphQL limits and endpoints (%s)', (provider) => {
  let t: TestApp;
  const admin = basic('limitadmin');

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('limitadmin', { admin: true });
    await t.createToken('limitadmin', ['all'], 'one');
  });
  afterAll(() => t.close());

  describe('query cost', () => {
    it('accepts two aliases of a 100×100 connection query (GitHub formula: 10,100 nodes each)', async () => {
      const res = await gql<Record<string, { nodes: { accessTokens: { nodes: { name: string }[] } }[] }>>(t, aliased(2), {
        headers: admin,
      });
      expect(res.errors).toBeUndefined();
      expect(res.data?.a0?.nodes).toEqual([{ accessTokens: { nodes: [{ name: 'one' }] } }]);
    });

    it('rejects the same query under enough aliases, naming the complexity limit', async () => {
      const res = await gql<unknown>(t, aliased(OVER), { headers: admin });
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)[0]).toBe('QUERY_TOO_COMPLEX');
      const err = res.errors?.[0];
      expect(err?.message).toMatch(new RegExp(`complexity limit.*maximum of ${LIMITS.complexity}`));
      expect(err?.extensions).toMatchObject({ limit: 'complexity', max: LIMITS.complexity });
      // GitHub's count exactly: connections' first/last, multiplied by the connections around them; fields cost nothing.
      expect(Number(err?.extensions?.value)).toBe(OVER * 10_100);
    });

    it('counts each set of variables of one document on its own (a kept count is the count of those variables)', async () => {
      const body = 'users(first: $n) { nodes { accessTokens(first: $n) { nodes { name } } } }';
      const q = `query Cost($n: Int!) { ${Array.from({ length: OVER }, (_, i) => `a${i}: ${body}`).join(' ')} }`;
      const small = async () => {
        const res = await gql<Record<string, unknown>>(t, q, { headers: admin, variables: { n: 1 } });
        expect(res.errors).toBeUndefined();
        expect(Object.keys(res.data ?? {})).toHaveLength(OVER);
      };
      const large = async () => {
        const res = await gql<unknown>(t, q, { headers: admin, variables: { n: 100 } });
        expect(errorCodes(res)).toEqual(['QUERY_TOO_COMPLEX']);
        expect(Number(res.errors?.[0]?.extensions?.value)).toBe(OVER * 10_100);
      };
      // Each order twice: the second request of each set is answered from what the first one counted.
      await small();
      await large();
      await small();
      await large();
    });

    it('applies before anything runs (no SQL beyond authentication)', async () => {
      t.queries.length = 0;
      await gql<unknown>(t, '{ __typename }', { headers: admin });
      const authOnly = [...t.queries];
      t.queries.length = 0;
      const res = await gql<unknown>(t, aliased(OVER), { headers: admin });
      expect(errorCodes(res)[0]).toBe('QUERY_TOO_COMPLEX');
      expect(t.queries).toEqual(authOnly);
    });

    it('rejects a query wider than the breadth limit', async () => {
      // 11 × (viewer + 50 fields) = 561 fields, within the alias and duplicate limits.
      const q = `{ ${Array.from({ length: 11 }, (_, i) => `v${i}: viewer { ${'__typename '.repeat(50)} }`).join(' ')} }`;
      const res = await gql<unknown>(t, q, { headers: admin });
      expect(res.data ?? null).toBeNull();
      expect(res.errors).toEqual([
        {
          message: `Query exceeds the breadth limit: more than the maximum of ${LIMITS.breadth} fields`,
          type: 'MAX_NODE_LIMIT_EXCEEDED',
          extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'breadth', max: LIMITS.breadth },
        },
      ]);
    });

    it('counts `__typename` in the breadth, at the root too', async () => {
      // 50 root `__typename`s and 10 × (__schema + 44): 500 fields; then `extra` aliased `__typename`s at the root.
      const wide = (extra: number) =>
        `{ ${'__typename '.repeat(50)} ${Array.from({ length: 10 }, (_, i) => `s${i}: __schema { ${'__typename '.repeat(44)} }`).join(' ')}` +
        ` ${Array.from({ length: extra }, (_, i) => `r${i}: __typename`).join(' ')} }`;
      const atLimit = await gql<{ __typename: string }>(t, wide(LIMITS.breadth - 500));
      expect(atLimit.errors).toBeUndefined();
      expect(atLimit.data?.__typename).toBe('Query');
      const over = await gql<unknown>(t, wide(LIMITS.breadth - 500 + 1));
      expect(over.data ?? null).toBeNull();
      expect(over.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'breadth', max: LIMITS.breadth });
    });

    it('gives an anonymous over-cost query the cost error, not a permission error', async () => {
      const res = await gql<unknown>(t, aliased(OVER));
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(res.errors?.[0]?.extensions).toMatchObject({ limit: 'complexity', max: LIMITS.complexity });
    });
  });

  describe('depth', () => {
    it(`accepts a query exactly ${LIMITS.depth} deep`, async () => {
      const res = await gql<{ __type: unknown }>(t, introspectionChain(LIMITS.depth - 2));
      expect(res.errors).toBeUndefined();
      expect(res.data?.__type).toEqual({ ofType: null });
    });

    it('rejects a deeper query with an error naming the depth limit', async () => {
      const res = await gql<unknown>(t, introspectionChain(LIMITS.depth - 1));
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(res.errors?.[0]?.message).toBe(`Query exceeds the depth limit: fields nest deeper than the maximum of ${LIMITS.depth} levels`);
      expect(res.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'depth', max: LIMITS.depth });
    });

    it('counts depth through fragments (the validation rule: the scanner sees each fragment alone)', async () => {
      const half = (n: number) => Array.from({ length: n }).reduce<string>((inner) => `ofType { ${inner} }`, 'name');
      const q = `query { __type(name: "User") { ...Deep } } fragment Deep on __Type { ${half(LIMITS.depth - 1)} }`;
      const res = await gql<unknown>(t, q);
      expect(errorCodes(res)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(res.errors?.[0]?.message).toBe(
        `Query exceeds the depth limit: depth ${LIMITS.depth + 1} is more than the maximum of ${LIMITS.depth}`,
      );
      expect(res.errors?.[0]?.extensions).toMatchObject({ limit: 'depth', value: LIMITS.depth + 1, max: LIMITS.depth });
    });

    it("accepts GraphiQL's full introspection query", async () => {
      const res = await gql<{ __schema: { types: { name: string }[] } }>(t, getIntrospectionQuery());
      expect(res.errors).toBeUndefined();
      expect(res.data?.__schema.types.map((ty) => ty.name)).toContain('User');
    });
  });

  describe('page size', () => {
    it.each([
      ['first', '{ users(first: 101) { totalCount } }', 'users'],
      ['last', '{ users(last: 101) { totalCount } }', 'users'],
      ['first', '{ viewer { accessTokens(first: 101) { totalCount } } }', 'accessTokens'],
    ])(`rejects %s: 101 (max ${MAX_CONNECTION_SIZE}) on %s`, async (arg, query, connection) => {
      const res = await gql<unknown>(t, query, { headers: admin });
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)).toEqual(['EXCESSIVE_PAGINATION']);
      expect(res.errors?.[0]?.message).toBe(
        `Requesting 101 records on the \`${connection}\` connection exceeds the \`${arg}\` limit of 100 records.`,
      );
    });

    it('rejects an oversized page passed through a variable', async () => {
      const res = await gql<unknown>(t, 'query($n: Int) { users(first: $n) { totalCount } }', { variables: { n: 101 }, headers: admin });
      expect(errorCodes(res)).toEqual(['EXCESSIVE_PAGINATION']);
    });

    it('rejects a negative page size', async () => {
      const res = await gql<unknown>(t, '{ users(first: -1) { totalCount } }', { headers: admin });
      expect(errorCodes(res)).toEqual(['INVALID_ARGUMENT']);
    });

    it('accepts first: 100', async () => {
      const res = await gql<{ users: { totalCount: number } }>(t, '{ users(first: 100) { totalCount nodes { login } } }', {
        headers: admin,
      });
      expect(res.errors).toBeUndefined();
      expect(res.data?.users.totalCount).toBe(1);
    });
  });

  describe('nodes(ids:)', () => {
    const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
    let userId: string;
    beforeAll(async () => {
      const res = await gql<{ viewer: { id: string } }>(t, '{ viewer { id } }', { headers: admin });
      userId = res.data?.viewer.id ?? '';
      expect(userId).not.toBe('');
    });

    it(`accepts ${LIMITS.nodeIds} ids`, async () => {
      const ids = Array.from({ length: LIMITS.nodeIds }, () => userId);
      const res = await gql<{ nodes: { id: string }[] }>(t, NODES, { variables: { ids }, headers: admin });
      expect(res.errors).toBeUndefined();
      expect(res.data?.nodes).toHaveLength(LIMITS.nodeIds);
    });

    it.each<[string, (ids: string[]) => [string, Record<string, unknown> | undefined]]>([
      ['a variable', (ids) => [NODES, { ids }]],
      ['the document', (ids) => [`{ nodes(ids: ${JSON.stringify(ids)}) { id } }`, undefined]],
      // Not at the root of the operation: refused by the field's cost function instead.
      ['a named fragment', (ids) => ['query($ids: [ID!]!) { ...N } fragment N on Query { nodes(ids: $ids) { id } }', { ids }]],
    ])(`refuses ${LIMITS.nodeIds + 1} ids given in %s, naming the limit, before any lookup`, async (_where, operation) => {
      const ids = Array.from({ length: LIMITS.nodeIds + 1 }, () => userId);
      t.queries.length = 0;
      await gql<unknown>(t, '{ __typename }', { headers: admin });
      const authOnly = [...t.queries];
      t.queries.length = 0;
      const [query, variables] = operation(ids);
      const res = await gql<unknown>(t, query, { variables, headers: admin });
      expect(res.data ?? null).toBeNull();
      expect(res.errors?.[0]?.message).toBe(`Requesting ${LIMITS.nodeIds + 1} nodes exceeds the \`ids\` limit of ${LIMITS.nodeIds} nodes.`);
      expect(res.errors?.[0]?.extensions).toEqual({
        code: 'EXCESSIVE_PAGINATION',
        limit: 'ids',
        value: LIMITS.nodeIds + 1,
        max: LIMITS.nodeIds,
      });
      expect(t.queries).toEqual(authOnly);
    });
  });

  describe('document limits (before parsing)', () => {
    const typenames = (n: number) => `{ __typename ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const directives = (n: number) => `{ __typename ${'@include(if: true) '.repeat(n)} }`;
    const chain = (n: number, open: (i: number) => string, leaf: string, close: string) =>
      Array.from({ length: n }, (_, i) => open(i)).join('') + leaf + close.repeat(n);

    it.each<[string, string, string]>([
      ['aliases', typenames(LIMITS.aliases + 1), `Query exceeds the aliases limit: more than the maximum of ${LIMITS.aliases} aliases`],
      [
        'directives',
        directives(LIMITS.directives + 1),
        `Query exceeds the directives limit: more than the maximum of ${LIMITS.directives} directives`,
      ],
      [
        'tokens',
        `{ __typename ${'# comments are not tokens\n'.repeat(10)}${'__typename '.repeat(LIMITS.tokens)} }`,
        `Query exceeds the tokens limit: more than the maximum of ${LIMITS.tokens} tokens`,
      ],
      [
        'depth',
        chain(LIMITS.depth + 1, () => '{ a ', '', '}') + '}',
        `Query exceeds the depth limit: fields nest deeper than the maximum of ${LIMITS.depth} levels`,
      ],
      [
        'depth',
        `{ ${chain(100, () => '... on Query { ', '__typename', ' }')} }`,
        `Query exceeds the depth limit: selection sets nest deeper than ${2 * LIMITS.depth} levels, twice the maximum of ${LIMITS.depth}`,
      ],
      [
        'depth',
        `{ nodes(ids: ${chain(LIMITS.depth + 1, () => '[', '"x"', ']')}) { id } }`,
        `Query exceeds the depth limit: argument values nest deeper than the maximum of ${LIMITS.depth} levels`,
      ],
    ])('refuses a document over the %s limit, naming it', async (limit, query, message) => {
      const res = await gql<unknown>(t, query);
      expect(res.data ?? null).toBeNull();
      expect(res.errors).toEqual([
        {
          message,
          type: 'MAX_NODE_LIMIT_EXCEEDED',
          extensions: { code: 'QUERY_TOO_COMPLEX', limit, max: LIMITS[limit as keyof typeof LIMITS] },
        },
      ]);
    });

    it('refuses an oversized document with 413, naming the size limit', async () => {
      const query = `{ __typename }${' '.repeat(LIMITS.size)}`;
      const res = await gql<unknown>(t, query);
      expect(res.status).toBe(413);
      expect(res.errors).toEqual([
        {
          message: `Query document exceeds the size limit: ${LIMITS.size + 14} bytes is more than the maximum of ${LIMITS.size} bytes`,
          extensions: { code: 'DOCUMENT_TOO_LARGE', limit: 'size', value: LIMITS.size + 14, max: LIMITS.size },
        },
      ]);
      // Bytes, not characters: three-byte characters count three times.
      const wide = await gql<unknown>(t, `{ __typename } # ${'€'.repeat(Math.ceil(LIMITS.size / 3))}`);
      expect(wide.errors?.[0]?.extensions).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', limit: 'size' });
    });

    it('accepts documents at each limit', async () => {
      const atLimits = [
        typenames(LIMITS.aliases),
        `{ ${'__typename @include(if: true) '.repeat(LIMITS.directives / 2)} s: __schema { ${'__typename @include(if: true) '.repeat(LIMITS.directives / 2)} } }`,
        `{ __typename }${' '.repeat(LIMITS.size - 14)}`,
        `{ ${chain(2 * LIMITS.depth, () => '... on Query { ', '__typename', ' }')} }`,
      ];
      for (const query of atLimits) {
        const res = await gql<{ __typename: string }>(t, query);
        expect(res.errors).toBeUndefined();
        expect(res.data?.__typename).toBe('Query');
      }
      // The most tokens allowed: `{ nodes ( ids : [` and `] ) { id } }` around 19,988 ids; it passes on to the ids limit.
      const ids = LIMITS.tokens - 12;
      const tokens = await gql<unknown>(t, `{ nodes(ids: [${`"${Buffer.from('User:1').toString('base64')}" `.repeat(ids)}]) { id } }`);
      expect(tokens.errors?.[0]?.extensions).toMatchObject({ limit: 'ids', value: ids });
    });

    it('refuses before validation: an over-limit document of unknown fields gets the limit error', async () => {
      const res = await gql<unknown>(t, `{ ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `a${i}: noSuchField`).join(' ')} }`);
      expect(res.errors).toHaveLength(1);
      expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'aliases' });
    });

    it('applies to GET requests too', async () => {
      const get = (query: string) =>
        t.request('GET', `/api/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/json' } });
      const deep = await get(chain(LIMITS.depth + 1, () => '{ a ', '', '}') + '}');
      expect(deep.statusCode).toBe(200);
      expect(deep.json()).toEqual({
        errors: [
          {
            message: `Query exceeds the depth limit: fields nest deeper than the maximum of ${LIMITS.depth} levels`,
            type: 'MAX_NODE_LIMIT_EXCEEDED',
            extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'depth', max: LIMITS.depth },
          },
        ],
      });
      const wide = await get(typenames(LIMITS.aliases + 1));
      expect((wide.json() as { errors: { extensions: unknown }[] }).errors[0]?.extensions).toMatchObject({ limit: 'aliases' });
    });
  });

  describe('selection limits (before validation)', () => {
    const copies = (n: number, body: string) => Array.from({ length: n }, () => body).join(' ');

    it.each<[string, (n: number) => string]>([
      ['directly', (n) => `{ ${copies(n, 'viewer { login }')} }`],
      ['through inline fragments', (n) => `{ ${copies(n, '... on Query { viewer { login } }')} }`],
      [
        'through fragment spreads',
        (n) =>
          `{ ${Array.from({ length: n }, (_, i) => `...F${i}`).join(' ')} } ` +
          Array.from({ length: n }, (_, i) => `fragment F${i} on Query { viewer { login } }`).join(' '),
      ],
    ])(`refuses a field selected more than ${LIMITS.duplicates} times in one selection set, %s`, async (_how, doc) => {
      const res = await gql<unknown>(t, doc(LIMITS.duplicates + 1));
      expect(res.errors).toEqual([
        {
          message: `Query exceeds the duplicates limit: \`viewer\` is selected more than the maximum of ${LIMITS.duplicates} times in one selection set`,
          type: 'MAX_NODE_LIMIT_EXCEEDED',
          extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'duplicates', max: LIMITS.duplicates },
        },
      ]);
      const atLimit = await gql<{ viewer: { login: string } }>(t, doc(LIMITS.duplicates), { headers: admin });
      expect(atLimit.errors).toBeUndefined();
      expect(atLimit.data?.viewer.login).toBe('limitadmin');
    });

    it('counts breadth through fragments, each spread in full', async () => {
      const fields = Array.from({ length: 26 }, (_, i) => `f${i}: __typename`).join(' ');
      // 20 spreads of a 26-field fragment: 520 fields from a few hundred tokens.
      const q = `{ ${Array.from({ length: 20 }, (_, i) => `s${i}: viewer { ...Wide }`).join(' ')} } fragment Wide on User { ${fields} }`;
      const res = await gql<unknown>(t, q, { headers: admin });
      expect(res.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'breadth', max: LIMITS.breadth });
    });

    it('refuses before validation: an over-broad document of unknown fields gets the breadth error', async () => {
      const res = await gql<unknown>(t, `{ ${Array.from({ length: 11 }, (_, i) => `v${i}: viewer { ${'nope '.repeat(50)} }`).join(' ')} }`);
      expect(res.errors).toHaveLength(1);
      expect(res.errors?.[0]?.extensions).toMatchObject({ limit: 'breadth' });
    });
  });

  describe('HTTP status of a refusal', () => {
    const post = (query: string, variables: Record<string, unknown> | undefined, accept: string) =>
      t.request('POST', '/api/graphql', { headers: { ...admin, accept }, body: { query, variables } });
    const refusals: [string, string, Record<string, unknown> | undefined][] = [
      ['aliases', `{ ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `t${i}: __typename`).join(' ')} }`, undefined],
      ['duplicates', `{ ${'viewer { login } '.repeat(LIMITS.duplicates + 1)} }`, undefined],
      [
        'depth',
        `query { __type(name: "User") { ...D } } fragment D on __Type { ${'ofType { '.repeat(LIMITS.depth - 1)}name${' }'.repeat(LIMITS.depth - 1)} }`,
        undefined,
      ],
      ['complexity', aliased(OVER), undefined],
      ['ids', 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array.from({ length: LIMITS.nodeIds + 1 }, () => 'VXNlcjox') }],
    ];

    it.each(refusals)(
      '%s: 400 to GraphQL-over-HTTP clients, 200 to application/json ones (as validation errors)',
      async (limit, query, variables) => {
        const spec = await post(query, variables, 'application/graphql-response+json');
        expect(spec.statusCode).toBe(400);
        expect((JSON.parse(spec.body) as { errors: { extensions: { limit: string } }[] }).errors[0]?.extensions.limit).toBe(limit);
        const plain = await post(query, variables, 'application/json');
        expect(plain.statusCode).toBe(200);
        expect((JSON.parse(plain.body) as { errors: { extensions: { limit: string } }[] }).errors[0]?.extensions.limit).toBe(limit);
      },
    );
  });

  describe('the abusive documents of issue #10', () => {
    const repeat = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(' ');
    const abusive: [string, () => string, { code: string; limit: keyof typeof LIMITS }][] = [
      ['5,000 aliases', () => `{ ${repeat(5000, (i) => `a${i}: viewer { login }`)} }`, { code: 'QUERY_TOO_COMPLEX', limit: 'aliases' }],
      [
        '10,000 `__typename` aliases',
        () => `{ ${repeat(10_000, (i) => `t${i}: __typename`)} }`,
        { code: 'QUERY_TOO_COMPLEX', limit: 'aliases' },
      ],
      [
        '100,000 `__typename` aliases (1.8 MB)',
        () => `{ ${repeat(100_000, (i) => `t${i}: __typename`)} }`,
        { code: 'DOCUMENT_TOO_LARGE', limit: 'size' },
      ],
      [
        '10,000 `@include` directives',
        () => `{ viewer { login ${'@include(if: true) '.repeat(10_000)} } }`,
        { code: 'QUERY_TOO_COMPLEX', limit: 'directives' },
      ],
      [
        '100,000 `@include` directives (1.9 MB)',
        () => `{ viewer { login ${'@include(if: true) '.repeat(100_000)} } }`,
        { code: 'DOCUMENT_TOO_LARGE', limit: 'size' },
      ],
      ['5 MB of tokens', () => `{ ${'__typename '.repeat(500_000)} }`, { code: 'DOCUMENT_TOO_LARGE', limit: 'size' }],
      [`${LIMITS.tokens + 2} tokens`, () => `{ ${'__typename '.repeat(LIMITS.tokens)} }`, { code: 'QUERY_TOO_COMPLEX', limit: 'tokens' }],
      [
        '400 copies of `viewer { login }`',
        () => `{ ${'viewer { login } '.repeat(400)} }`,
        { code: 'QUERY_TOO_COMPLEX', limit: 'duplicates' },
      ],
      [
        `${LIMITS.tokens - 2} \`__typename\` (as many as the token limit allows)`,
        () => `{ ${'__typename '.repeat(LIMITS.tokens - 2)} }`,
        { code: 'QUERY_TOO_COMPLEX', limit: 'duplicates' },
      ],
      ['depth 10,000', () => '{' + 'a {'.repeat(10_000) + 'b' + '}'.repeat(10_001), { code: 'QUERY_TOO_COMPLEX', limit: 'depth' }],
      [
        '10,000 nested inline fragments',
        () => '{' + '... {'.repeat(10_000) + '__typename' + '}'.repeat(10_001),
        { code: 'QUERY_TOO_COMPLEX', limit: 'depth' },
      ],
      [
        '10,000 nested lists',
        () => `{ nodes(ids: ${'['.repeat(10_000)}${']'.repeat(10_000)}) { id } }`,
        { code: 'QUERY_TOO_COMPLEX', limit: 'depth' },
      ],
    ];

    it.each(abusive)('%s: refused with the named limit', async (_name, document, expected) => {
      const res = await gql<unknown>(t, document());
      expect(res.data ?? null).toBeNull();
      expect(res.errors).toHaveLength(1);
      expect(res.errors?.[0]?.extensions).toMatchObject({ ...expected, max: LIMITS[expected.limit] });
      expect(res.errors?.[0]?.message).toMatch(new RegExp(`the ${expected.limit} limit.*\\b${LIMITS[expected.limit]}\\b`));
    });

    it('10,000 ids in nodes(ids:), anonymously: refused before any lookup, by the ids limit (or the token limit, inline)', async () => {
      const ids = Array.from({ length: 10_000 }, (_, i) => Buffer.from(`User:${i + 1}`).toString('base64'));
      const q = 'query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Issue { comments(first: 100) { totalCount } } } }';
      const viaVariable = await gql<unknown>(t, q, { variables: { ids } });
      expect(viaVariable.data ?? null).toBeNull();
      expect(viaVariable.errors).toEqual([
        {
          message: `Requesting 10000 nodes exceeds the \`ids\` limit of ${LIMITS.nodeIds} nodes.`,
          type: 'EXCESSIVE_PAGINATION',
          extensions: { code: 'EXCESSIVE_PAGINATION', limit: 'ids', value: 10_000, max: LIMITS.nodeIds },
        },
      ]);
      const inline = await gql<unknown>(t, `{ nodes(ids: ${JSON.stringify(ids)}) { id } }`);
      expect(inline.data ?? null).toBeNull();
      expect(inline.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'tokens', max: LIMITS.tokens });
    });
  });

  describe('endpoints', () => {
    const EXTERNAL_ASSET = /<(script|link)\b[^>]*\b(src|href)\s*=\s*["']?(https?:)?\/\//i;
    const CDN_URL = /https?:\/\/[^\s"'`)]*(unpkg|cdn)/i;

    it.each(['/api/graphql', '/graphql'])('GET %s from a browser is GraphiQL, self-contained (works offline)', async (url) => {
      const res = await t.request('GET', url, { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>Forgegraph GraphQL</title>');
      expect(res.body).not.toMatch(CDN_URL);
      expect(res.body).not.toMatch(EXTERNAL_ASSET);
    });

    it('/graphql answers POST like /api/graphql', async () => {
      const viaAlias = await gql<{ viewer: { login: string } }>(t, '{ viewer { login } }', { headers: admin, path: '/graphql' });
      expect(viaAlias.status).toBe(200);
      expect(viaAlias.data).toEqual({ viewer: { login: 'limitadmin' } });
      const anonymous = await gql<unknown>(t, '{ viewer { login } }', { path: '/graphql' });
      expect(errorCodes(anonymous)).toEqual(['UNAUTHENTICATED']);
    });

    it('/graphql answers GET queries with credentials in the query string', async () => {
      const token = await t.createToken('limitadmin', ['read:user'], 'get-alias');
      const res = await t.request('GET', `/graphql?query=${encodeURIComponent('{ viewer { login } }')}&token=${token}`, {
        headers: { accept: 'application/json' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { viewer: { login: 'limitadmin' } } });
    });

    it('GET does not run mutations', async () => {
      const q = 'mutation { deleteUser(input: { login: "limitadmin" }) { __typename } }';
      const res = await t.request('GET', `/api/graphql?query=${encodeURIComponent(q)}`, {
        headers: { ...admin, accept: 'application/json' },
      });
      expect(res.statusCode).toBe(405);
      expect((await gql<{ viewer: { login: string } }>(t, '{ viewer { login } }', { headers: admin })).data?.viewer.login).toBe(
        'limitadmin',
      );
    });
  });
});

describe('the deadline', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('answers at the deadline and runs no resolver after it', async () => {
    const DEADLINE = 50;
    const started: string[] = [];
    const yoga = createYoga({
      logging: false,
      plugins: [useDeadline(DEADLINE)],
      schema: createSchema({
        typeDefs: 'type Query { items: [Item!]! } type Item { name: String! }',
        resolvers: {
          Query: {
            items: async () => {
              started.push('items');
              await sleep(3 * DEADLINE);
              return [1, 2, 3];
            },
          },
          Item: { name: (n: number) => (started.push(`name${n}`), `item ${n}`) },
        },
      }),
    });
    const res = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ items { name } }' }),
    });
    const body = (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: unknown }[] };
    expect(body.data ?? null).toBeNull();
    expect(body.errors).toEqual([
      {
        message: `Request exceeded the deadline of ${DEADLINE} ms`,
        extensions: { code: 'DEADLINE_EXCEEDED', limit: 'deadline', max: DEADLINE },
      },
    ]);
    // `items` was running at the deadline; once it returns, its children must not start.
    await sleep(5 * DEADLINE);
    expect(started).toEqual(['items']);
  });

  it('leaves an operation that finishes in time alone', async () => {
    const yoga = createYoga({
      logging: false,
      plugins: [useDeadline(1000)],
      schema: createSchema({ typeDefs: 'type Query { ok: String! }', resolvers: { Query: { ok: async () => 'fine' } } }),
    });
    const res = await yoga.fetch('http://yoga/graphql?query={ok}', { headers: { accept: 'application/json' } });
    expect(await res.json()).toEqual({ data: { ok: 'fine' } });
  });
});
