import { defaultFieldResolver, getNamedType, isLeafType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { readGuardedResolver } from './tokenReadScopes.ts';

/*
 * Leaves that only read a property of their parent (Pothos `t.expose*` fields), compiled to that property read.
 *
 * graphql-jit reads a field that has no resolver straight from its parent in the generated code. A field with a
 * resolver costs a call, and before it a new resolve info, a response path of one new object per level and an
 * arguments object: for the nested issue query, ~1,400 such calls and ~400 KB allocated per query, mostly for
 * `body` and `author { login }` of the comments. So each document compiles with these leaves' resolvers set aside and
 * their names set to the property they expose (the name is what the generated code reads: `login` reads `name`),
 * and both are put back as soon as `compileQuery` returns: it is synchronous, so nothing else runs in between and
 * the schema is never seen changed (graphql-js, which subscriptions run on, keeps every resolver).
 *
 * Which leaves: the resolver left after every wrapper of the built schema must be Pothos's own exposure, untouched
 * (none, `defaultFieldResolver`, or the field's original `parent[name]`); a leaf any plugin or wrapper wrapped keeps
 * its resolver, so a wrapper added later (or installed after the recording) is never skipped. The one wrapper
 * recognised is the token read scope's (tokenReadScopes.ts): its leaves compile inline only for requests whose
 * credentials read every category, where it could refuse nothing.
 */

type Field = GraphQLField<unknown, unknown>;

interface PlainLeaf {
  field: Field;
  /** The field's name in the schema. */
  name: string;
  /** Its resolver when recorded: a leaf wrapped since then keeps its resolver (the wrapper is never skipped). */
  resolve: Field['resolve'];
  /** The parent's property the field exposes. */
  property: string;
  /** Behind the token read scope's guard: inline only when the request reads every category. */
  guarded: boolean;
}

/** A schema's plain leaves, and whether any is behind the guard (asked on every execution: kept, not recomputed). */
const recorded = new WeakMap<GraphQLSchema, { leaves: PlainLeaf[]; guarded: boolean }>();

/** The property `field` exposes when `resolve` is Pothos's exposure of it, untouched; undefined otherwise. */
function exposedProperty(field: Field, resolve: Field['resolve']): string | undefined {
  const property: unknown = field.extensions.pothosExposedField;
  if (typeof property !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(property)) return undefined;
  const untouched = resolve === undefined || resolve === defaultFieldResolver || resolve === field.extensions.pothosOriginalResolve;
  return untouched ? property : undefined;
}

/** Records the schema's plain leaves: after every wrapper is installed (the last step of building the schema). */
export function recordPlainLeaves(schema: GraphQLSchema): GraphQLSchema {
  const leaves: PlainLeaf[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isLeafType(getNamedType(field.type))) continue;
      const property = exposedProperty(field, field.resolve);
      if (property) {
        leaves.push({ field, name: field.name, resolve: field.resolve, property, guarded: false });
        continue;
      }
      const inner = readGuardedResolver(field.resolve);
      const behindGuard = inner && exposedProperty(field, inner);
      if (behindGuard) leaves.push({ field, name: field.name, resolve: field.resolve, property: behindGuard, guarded: true });
    }
  }
  recorded.set(schema, { leaves, guarded: leaves.some((l) => l.guarded) });
  return schema;
}

/** Whether some plain leaf of `schema` is behind the token read scope's guard (the compiled code depends on the credentials). */
export function hasGuardedLeaves(schema: GraphQLSchema): boolean {
  return recorded.get(schema)?.guarded ?? false;
}

/**
 * Runs `compile` (synchronous) with the schema's plain leaves as property reads: all of them when `readsEverything`,
 * else those no token read scope guards. The schema is as before when it returns or throws.
 */
export function compileWithPlainLeaves<T>(schema: GraphQLSchema, readsEverything: boolean, compile: () => T): T {
  const changed: PlainLeaf[] = [];
  try {
    for (const leaf of recorded.get(schema)?.leaves ?? []) {
      if ((leaf.guarded && !readsEverything) || leaf.field.resolve !== leaf.resolve) continue;
      changed.push(leaf);
      leaf.field.resolve = undefined;
      leaf.field.name = leaf.property;
    }
    return compile();
  } finally {
    for (const leaf of changed) {
      leaf.field.resolve = leaf.resolve;
      leaf.field.name = leaf.name;
    }
  }
}
