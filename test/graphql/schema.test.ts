import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, isInputObjectType, isObjectType, lexicographicSortSchema, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printSortedSchema } from '../../src/graphql/schema.ts';

const SCHEMA_FILE = path.resolve(import.meta.dirname, '../../schema.graphql');

describe('schema.graphql', () => {
  it('is up to date with the code (run `npm run schema:print` when this fails)', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const printed = printSortedSchema();
    if (committed !== printed) {
      expect.fail('schema.graphql is stale: run `npm run schema:print` and commit the result');
    }
    expect(committed).toBe(printed);
  });

  it('is valid SDL, already sorted, and ends with one newline', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const parsed = buildSchema(committed);
    expect(`${printSchema(lexicographicSortSchema(parsed))}\n`).toBe(committed);
    expect(committed.endsWith('}\n')).toBe(true);
  });

  it('follows the Relay conventions the design fixes', () => {
    const parsed = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
    const query = parsed.getQueryType()?.getFields() ?? {};
    for (const field of ['node', 'nodes', 'viewer', 'user']) expect(query[field], field).toBeDefined();
    const mutations = Object.values(parsed.getMutationType()?.getFields() ?? {});
    expect(mutations.length).toBeGreaterThan(0);
    for (const m of mutations) {
      const cap = m.name.charAt(0).toUpperCase() + m.name.slice(1);
      expect(
        m.args.map((a) => `${a.name}: ${String(a.type)}`),
        m.name,
      ).toEqual([`input: ${cap}Input!`]);
      // GitHub's shape: the payload itself, nullable (a refusal is a GraphQL error beside a null field), and
      // clientMutationId: String on both the input and the payload.
      expect(String(m.type), m.name).toBe(`${cap}Payload`);
      const input = parsed.getType(`${cap}Input`);
      expect(isInputObjectType(input) ? String(input.getFields().clientMutationId?.type) : null, m.name).toBe('String');
      const payload = parsed.getType(`${cap}Payload`);
      expect(isObjectType(payload) ? String(payload.getFields().clientMutationId?.type) : null, m.name).toBe('String');
    }
    // No result unions and no error types: refusals are GraphQL errors (extensions.code, GitHub's type).
    const types = Object.keys(parsed.getTypeMap());
    expect(types.filter((name) => /^Mutation\w*Result$/.test(name))).toEqual([]);
    for (const gone of [
      'Error',
      'NotFoundError',
      'PermissionDeniedError',
      'UnauthenticatedError',
      'InvalidArgumentError',
      'ValidationError',
      'AlreadyExistsError',
      'ConflictError',
      'RepoArchivedError',
      'PreconditionFailedError',
    ]) {
      expect(types, gone).not.toContain(gone);
    }
  });
});
