import { GraphQLScalarType, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import {
  compiledDocuments,
  MAX_COMPILED_DOCUMENTS,
  prepareForCompiledExecution,
  useCompiledExecution,
} from '../../src/graphql/compiledExecution.ts';
import { useDeadline } from '../../src/graphql/limits/useDeadline.ts';

/**
 * Queries and mutations run compiled (src/graphql/compiledExecution.ts). What graphql-js's executor did and the
 * compiled code does not is restored on the schema: one path object per response path, the deadline checked
 * before every field that loads, and graphql-js's messages for variables that do not coerce.
 */
type Path = GraphQLResolveInfo['path'];

async function post(yoga: ReturnType<typeof createYoga>, query: string, variables?: Record<string, unknown>) {
  const res = await yoga.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: unknown }[] };
}

describe('compiled execution', () => {
  it('hands a field the same path object its children get as path.prev, as graphql-js does', async () => {
    const seen: { own?: Path; childPrev?: Path[] } = { childPrev: [] };
    const schema = prepareForCompiledExecution(
      createSchema({
        typeDefs: 'type Query { list: [Item!]! } type Item { child: Child! } type Child { n: Int! }',
        resolvers: {
          Query: { list: (_p: unknown, _a: unknown, _c: unknown, info: GraphQLResolveInfo) => ((seen.own = info.path), [1, 2]) },
          Item: {
            child: (n: number, _a: unknown, _c: unknown, info: GraphQLResolveInfo) => (seen.childPrev!.push(info.path.prev!.prev!), n),
          },
          Child: { n: (n: number) => n },
        },
      }),
    );
    const yoga = createYoga({ logging: false, plugins: [useCompiledExecution()], schema });
    expect(await post(yoga, '{ list { child { n } } }')).toEqual({ data: { list: [{ child: { n: 1 } }, { child: { n: 2 } }] } });
    // child's path is list.<index>.child: its prev.prev is the path `list` resolved with, the same object.
    expect(seen.childPrev).toHaveLength(2);
    for (const prev of seen.childPrev!) expect(prev).toBe(seen.own);
  });

  it('starts no field that loads after the deadline', async () => {
    const DEADLINE = 50;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const started: string[] = [];
    const schema = prepareForCompiledExecution(
      createSchema({
        typeDefs: 'type Query { items: [Item!]! } type Item { child: Child! } type Child { n: Int! }',
        resolvers: {
          Query: {
            items: async () => {
              started.push('items');
              await sleep(3 * DEADLINE);
              return [1, 2];
            },
          },
          Item: { child: (n: number) => (started.push(`child${n}`), n) },
          Child: { n: (n: number) => n },
        },
      }),
    );
    const yoga = createYoga({ logging: false, plugins: [useCompiledExecution(), useDeadline(DEADLINE)], schema });
    const body = await post(yoga, '{ items { child { n } } }');
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.[0]?.message).toBe(`Request exceeded the deadline of ${DEADLINE} ms`);
    // `items` was running at the deadline; once it returns, the fields below it must not start.
    await sleep(5 * DEADLINE);
    expect(started).toEqual(['items']);
  });

  it('builds the shared path only for fields whose own resolver takes info; every one checks the deadline', async () => {
    const DEADLINE = 50;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const paths: Record<string, Path[]> = { own: [], takesInfo: [], noInfo: [] };
    const started: string[] = [];
    const built = createSchema({
      typeDefs: 'type Query { list: [Item!]! slow: [Item!]! } type Item { takesInfo: Child! noInfo: Child! } type Child { n: Int! }',
      resolvers: {
        Query: {
          list: (_p: unknown, _a: unknown, _c: unknown, info: GraphQLResolveInfo) => (paths.own!.push(info.path), [1]),
          slow: async () => (await sleep(3 * DEADLINE), [1]),
        },
        Item: {
          takesInfo: (n: number, _a: unknown, _c: unknown, info: GraphQLResolveInfo) => (paths.takesInfo!.push(info.path), n),
          noInfo: (n: number, _a: unknown, _c: unknown, info: GraphQLResolveInfo) => (
            started.push('noInfo'),
            paths.noInfo!.push(info.path),
            n
          ),
        },
        Child: { n: (n: number) => n },
      },
    });
    // As Pothos records them: the resolver as written, before any plugin wrapped it.
    const item = built.getType('Item') as GraphQLObjectType;
    const fields = item.getFields();
    fields.takesInfo!.extensions = { pothosOriginalResolve: (_p: unknown, _a: unknown, _c: unknown, info: unknown) => info };
    fields.noInfo!.extensions = { pothosOriginalResolve: (n: number) => n };
    const schema = prepareForCompiledExecution(built);
    const yoga = createYoga({ logging: false, plugins: [useCompiledExecution(), useDeadline(DEADLINE)], schema });
    expect(await post(yoga, '{ list { takesInfo { n } noInfo { n } } }')).toEqual({
      data: { list: [{ takesInfo: { n: 1 }, noInfo: { n: 1 } }] },
    });
    // list.0.takesInfo: its prev.prev is the object `list` resolved with; list.0.noInfo's is the compiled code's own.
    expect(paths.takesInfo![0]!.prev!.prev).toBe(paths.own![0]);
    expect(paths.noInfo![0]!.prev!.prev).not.toBe(paths.own![0]);
    expect(paths.noInfo![0]!.prev!.prev).toEqual(expect.objectContaining({ key: 'list' }));

    started.length = 0;
    const late = await post(yoga, '{ slow { noInfo { n } } }');
    expect(late.errors?.[0]?.message).toBe(`Request exceeded the deadline of ${DEADLINE} ms`);
    await sleep(5 * DEADLINE);
    expect(started).toEqual([]);
  });

  it('keeps the compiled operations of the last documents only', async () => {
    const schema = prepareForCompiledExecution(
      createSchema({ typeDefs: 'type Query { n(x: Int!): Int! }', resolvers: { Query: { n: (_p: unknown, a: { x: number }) => a.x } } }),
    );
    const yoga = createYoga({ logging: false, plugins: [useCompiledExecution()], schema });
    for (let i = 0; i < MAX_COMPILED_DOCUMENTS + 20; i++) expect(await post(yoga, `{ n(x: ${i}) }`)).toEqual({ data: { n: i } });
    expect(compiledDocuments()).toBe(MAX_COMPILED_DOCUMENTS);
  });

  it('hands argument values written in the document to the resolver as text: none becomes code', async () => {
    const probe = globalThis as { compiledProbe?: number };
    const schema = prepareForCompiledExecution(
      createSchema({
        typeDefs: 'type Query { echo(s: String, list: [String], o: In): String } input In { a: String }',
        resolvers: { Query: { echo: (_p: unknown, a: unknown) => JSON.stringify(a) } },
      }),
    );
    const yoga = createYoga({ logging: false, plugins: [useCompiledExecution()], schema });
    for (const text of [
      '"); globalThis.compiledProbe = 1; ("',
      '`${globalThis.compiledProbe = 2}`',
      "'; globalThis.compiledProbe = 3; '",
      '*/ globalThis.compiledProbe = 4 /*',
    ]) {
      const v = JSON.stringify(text);
      const res = await post(yoga, `{ s: echo(s: ${v}) list: echo(list: [${v}]) o: echo(o: { a: ${v} }) }`);
      expect(res.data).toEqual({
        s: JSON.stringify({ s: text }),
        list: JSON.stringify({ list: [text] }),
        o: JSON.stringify({ o: { a: text } }),
      });
    }
    expect(probe.compiledProbe).toBeUndefined();
  });

  it("answers a variable that does not coerce with graphql-js's message, the scalar's own words in it", async () => {
    const Even = new GraphQLScalarType({
      name: 'Even',
      parseValue: (v) => {
        if (typeof v !== 'number' || v % 2) throw new TypeError(`Even must be an even number, got ${JSON.stringify(v)}`);
        return v;
      },
      serialize: (v) => v,
    });
    const schema = prepareForCompiledExecution(
      createSchema({
        typeDefs: 'scalar Even type Query { half(n: Even!): Int! }',
        resolvers: { Even, Query: { half: (_p: unknown, a: { n: number }) => a.n / 2 } },
      }),
    );
    const compiled = createYoga({ logging: false, maskedErrors: false, plugins: [useCompiledExecution()], schema });
    const interpreted = createYoga({ logging: false, maskedErrors: false, schema });
    const query = 'query Half($n: Even!) { half(n: $n) }';
    expect(await post(compiled, query, { n: 8 })).toEqual({ data: { half: 4 } });
    const bad = await post(compiled, query, { n: 3 });
    expect(bad.data).toBeUndefined();
    expect(bad.errors?.map((e) => e.message)).toEqual([
      'Variable "$n" got invalid value 3; Expected type "Even". Even must be an even number, got 3',
    ]);
    expect(bad).toEqual(await post(interpreted, query, { n: 3 }));
  });
});
