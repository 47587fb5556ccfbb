import {
  GraphQLID,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type GraphQLNamedType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { readPolicyOf } from '../../src/graphql/policy.ts';
import { schema } from '../../src/graphql/schema.ts';

/**
 * Fields whose policy is not declared on the field itself, with the reason. Keep this short: a new relation
 * declares its policy where it is defined (filteredBy / checkedBy / inherits in src/graphql/policy.ts).
 */
const EXEMPT: Record<string, string> = {
  'Query.node': 'each Node type applies its declared type-level policy in findUnique (checked below)',
  'Query.nodes': 'each Node type applies its declared type-level policy in findUnique (checked below)',
};

/** Node types with no node(id:) filter, with the reason: none of them ever exists, node(id:) answers null for every id. */
const NODE_EXEMPT: Record<string, string> = {
  ProjectV2: 'Gitea has no ProjectV2 (GitHub Projects); the type is there for GitHub clients that ask, every list of it is empty',
  ProjectV2Item: 'Gitea has no ProjectV2 (GitHub Projects); the type is there for GitHub clients that ask, every list of it is empty',
  Query:
    "the root (GitHub's Query implements Node): node(id:) of its one constant id answers the root, no row; each of its fields declares its own policy",
};

/** A connection's or edge's structural fields: the field returning the connection carries the policy. */
function isStructural(type: GraphQLObjectType, field: string): boolean {
  const fields = type.getFields();
  if (type.name === 'PageInfo') return true;
  if (type.name.endsWith('Connection') && 'pageInfo' in fields) return ['edges', 'nodes', 'pageInfo'].includes(field);
  if (type.name.endsWith('Edge') && 'cursor' in fields && 'node' in fields) return field === 'node';
  return false;
}

/** Every named type a client can reach from `root` through fields, interfaces' implementations and unions' members. */
function reachable(s: GraphQLSchema, root: GraphQLObjectType): Set<GraphQLNamedType> {
  const seen = new Set<GraphQLNamedType>();
  const queue: GraphQLNamedType[] = [root];
  while (queue.length) {
    const type = queue.pop();
    if (!type || seen.has(type) || type.name.startsWith('__')) continue;
    seen.add(type);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const f of Object.values(type.getFields())) queue.push(getNamedType(f.type));
    }
    if (isInterfaceType(type) || isUnionType(type)) queue.push(...s.getPossibleTypes(type));
  }
  return seen;
}

/**
 * The problems of a schema: every object type reachable from Query must declare a read policy on each field that
 * returns objects (an object, interface or union, connections included), and every Node type must declare the
 * policy its findUnique applies. Types reachable only from Mutation (payloads, errors) carry what the mutation's
 * service returned after its write gate, so they are not held to this.
 */
function policyProblems(s: GraphQLSchema): string[] {
  const query = s.getQueryType();
  if (!query) return ['no Query type'];
  const problems: string[] = [];
  const types = reachable(s, query);
  const node = s.getType('Node');
  for (const type of types) {
    if (!isObjectType(type)) continue;
    if (node && isInterfaceType(node) && type.getInterfaces().includes(node) && !(type.name in NODE_EXEMPT)) {
      const policy = readPolicyOf(type.extensions);
      if (!policy || !('filter' in policy)) problems.push(`${type.name}: a Node type without a filteredBy(…) type policy for node(id:)`);
    }
    for (const field of Object.values(type.getFields())) {
      const key = `${type.name}.${field.name}`;
      if (!isCompositeType(getNamedType(field.type)) || isStructural(type, field.name) || key in EXEMPT) continue;
      if (!readPolicyOf(field.extensions)) problems.push(`${key}: returns ${getNamedType(field.type).name} without a declared read policy`);
    }
  }
  return problems;
}

describe('schema-wide read policy', () => {
  it('every object-returning field reachable from Query declares its read policy, and every Node type its node(id:) filter', () => {
    expect(policyProblems(schema)).toEqual([]);
  });

  it('covers the whole graph (the check is not vacuous)', () => {
    const query = schema.getQueryType();
    if (!query) throw new Error('no Query type');
    const checked = [...reachable(schema, query)]
      .filter(isObjectType)
      .flatMap((t) => Object.values(t.getFields()).filter((f) => isCompositeType(getNamedType(f.type)) && !isStructural(t, f.name)));
    expect(checked.length).toBeGreaterThan(120);
    for (const name of ['Repository', 'Issue', 'PullRequest', 'Team', 'Organization', 'Label', 'Milestone', 'User', 'Project']) {
      expect(readPolicyOf(schema.getType(name)?.extensions)).toMatchObject({ filter: expect.any(String) });
    }
  });

  it('fails for a new relation without a policy, and for a policy naming no service read policy', () => {
    const Secret: GraphQLObjectType = new GraphQLObjectType({ name: 'Secret', fields: { name: { type: GraphQLString } } });
    const Query = new GraphQLObjectType({
      name: 'Query',
      fields: {
        secret: { type: Secret },
        named: { type: Secret, extensions: { readPolicy: { filter: 'noSuchReadWhere' } } },
        declared: { type: Secret, extensions: { readPolicy: { inherit: 'a test' } } },
        id: { type: new GraphQLNonNull(GraphQLID) },
      },
    });
    expect(policyProblems(new GraphQLSchema({ query: Query }))).toEqual([
      'Query.secret: returns Secret without a declared read policy',
      'Query.named: returns Secret without a declared read policy',
    ]);
  });
});
