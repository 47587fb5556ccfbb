import SchemaBuilder from '@pothos/core';
import { defaultFieldResolver, GraphQLObjectType, parse, type GraphQLField } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { compileWithPlainLeaves, hasGuardedLeaves, recordPlainLeaves } from '../../src/graphql/plainLeaves.ts';

/**
 * Leaves that only read a property of their parent compile to that property read (src/graphql/plainLeaves.ts): while
 * a document compiles, their resolvers are set aside and their names are the property; afterwards the schema is as
 * it was. A leaf something wrapped keeps its resolver.
 */
type Row = { id: number; content: string; name: string; secret: string };

function buildSchema() {
  // No plugin (the app's plugins declare their options on every builder's type, hence the cast).
  const builder = new SchemaBuilder<{ Objects: { Row: Row } }>({} as never);
  builder.objectType('Row', {
    fields: (t) => ({
      name: t.exposeString('name'),
      body: t.exposeString('content'),
      shout: t.string({ resolve: (row) => row.name.toUpperCase() }),
      secret: t.exposeString('secret'),
    }),
  });
  builder.queryType({
    fields: (t) => ({ row: t.field({ type: 'Row', resolve: () => ({ id: 1, content: 'the body', name: 'ann', secret: 's' }) }) }),
  });
  const schema = builder.toSchema();
  // A wrapper installed on the built schema, as tokenReadScopes.ts and compiledExecution.ts install theirs.
  const secret = (schema.getType('Row') as GraphQLObjectType).getFields().secret!;
  const inner = secret.resolve ?? defaultFieldResolver;
  const calls: string[] = [];
  secret.resolve = (...args) => (calls.push('secret'), inner(...args));
  return { schema: recordPlainLeaves(schema), calls };
}

const fieldsOf = (schema: ReturnType<typeof buildSchema>['schema']): Record<string, GraphQLField<unknown, unknown>> =>
  (schema.getType('Row') as GraphQLObjectType).getFields();

describe('plain leaves', () => {
  it('compile as reads of the property they expose, renamed ones too; a wrapped or computed leaf keeps its resolver', async () => {
    const { schema, calls } = buildSchema();
    const fields = fieldsOf(schema);
    const seen: Record<string, { name: string; resolves: boolean }> = {};
    const compiled = compileWithPlainLeaves(schema, true, () => {
      for (const [key, f] of Object.entries(fields)) seen[key] = { name: f.name, resolves: f.resolve !== undefined };
      return compileQuery(schema, parse('{ row { name body shout secret } }'));
    });
    expect(seen).toEqual({
      name: { name: 'name', resolves: false },
      body: { name: 'content', resolves: false },
      shout: { name: 'shout', resolves: true },
      secret: { name: 'secret', resolves: true },
    });
    if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled));
    expect(await compiled.query(undefined, {}, {})).toEqual({
      data: { row: { name: 'ann', body: 'the body', shout: 'ANN', secret: 's' } },
    });
    expect(calls).toEqual(['secret']);
    // The schema is as it was: names and resolvers back (graphql-js, which runs subscriptions, reads them).
    for (const [key, f] of Object.entries(fields)) expect(f.name).toBe(key);
    expect(fields.body!.resolve?.({ content: 'c' }, {}, {}, {} as never)).toBe('c');
    expect(hasGuardedLeaves(schema)).toBe(false);
  });

  it('leaves alone a leaf wrapped after the recording', async () => {
    const { schema } = buildSchema();
    const body = fieldsOf(schema).body!;
    const inner = body.resolve!;
    const calls: string[] = [];
    body.resolve = (...args) => (calls.push('body'), inner(...args));
    const compiled = compileWithPlainLeaves(schema, true, () => compileQuery(schema, parse('{ row { body } }')));
    if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled));
    expect(await compiled.query(undefined, {}, {})).toEqual({ data: { row: { body: 'the body' } } });
    expect(calls).toEqual(['body']);
  });

  it('puts the schema back when compiling throws', () => {
    const { schema } = buildSchema();
    const before = Object.values(fieldsOf(schema)).map((f) => [f.name, f.resolve]);
    expect(() =>
      compileWithPlainLeaves(schema, true, () => {
        throw new Error('compile failed');
      }),
    ).toThrow('compile failed');
    expect(Object.values(fieldsOf(schema)).map((f) => [f.name, f.resolve])).toEqual(before);
  });
});
