import { isScalarType, isSpecifiedScalarType, parse, validate, type GraphQLScalarType } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';

/**
 * Literals of the schema's own scalars (src/graphql/builder.ts, `parsed`): graphql-jit supports only a
 * `parseLiteral` without the variables parameter, and wrote "Scalar with variable inputs detected …" to stderr at
 * every compile of a document holding a literal of a scalar that had graphql-js's default one.
 */
describe('scalar literals', () => {
  afterEach(() => vi.restoreAllMocks());

  it('every custom scalar parses its literals without the variables parameter', () => {
    const custom = Object.values(schema.getTypeMap()).filter((t): t is GraphQLScalarType => isScalarType(t) && !isSpecifiedScalarType(t));
    expect(custom.length).toBeGreaterThanOrEqual(7);
    expect(custom.filter((t) => t.parseLiteral.length > 1).map((t) => t.name)).toEqual([]);
  });

  it('a document with DateTime and GitObjectID literals compiles without a word on stderr; a bad literal keeps the message', () => {
    const errors = vi.spyOn(console, 'error');
    const document = parse(`{ repository(owner: "o", name: "r") {
      object(oid: "0123456789abcdef0123456789abcdef01234567") { oid }
      issue(number: 1) { timelineItems(first: 5, since: "2026-01-02T03:04:05Z") { totalCount } }
    } }`);
    expect(validate(schema, document)).toEqual([]);
    expect(isCompiledQuery(compileQuery(schema, document))).toBe(true);
    expect(errors).not.toHaveBeenCalled();

    const bad = validate(schema, parse('{ repository(owner: "o", name: "r") { object(oid: "main") { oid } } }'));
    expect(bad.map((e) => e.message)).toEqual(['GitObjectID must be a full hex object id (40 or 64 hex digits), got "main"']);
  });
});
