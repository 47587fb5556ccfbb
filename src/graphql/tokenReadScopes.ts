import { defaultFieldResolver, GraphQLError, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { SCOPE_CATEGORIES, scopeAllows, type ScopeCategory } from '../auth/scope.ts';
import type { GraphQLContext } from './context.ts';

/**
 * Token read scopes of object types (Gitea's `read:<category>`): a token without the read scope of a type's
 * category gets FORBIDDEN for every field of it ("Not authorized to read fields for Issue", as scope-auth's type
 * scopes answered), whatever path reached the object; sessions, basic auth and tokens with `all` read them all.
 *
 * A type declares its category with `tokenReadScope(ref, category)` (or a function of the object, for types whose
 * category depends on the row), and `enforceTokenReadScopes` wraps the fields of the built schema. The wrapper is
 * one property test for a request that is not token-authenticated, where scope-auth's type scopes allocated two
 * closures and walked its request cache for every field (6% of the nested issue query, issue #17). For requests whose
 * credentials read every category the guarded leaves compile as plain property reads (plainLeaves.ts): the guard
 * could refuse them nothing.
 */

type CategoryOf = ScopeCategory | ((parent: never) => ScopeCategory);

const declared = new Map<string, CategoryOf>();

/** Every field of the object type `ref` needs the token read scope `category` (or the one it returns for a row). */
export function tokenReadScope<T>(ref: { name: string; $inferType?: T }, category: ScopeCategory | ((parent: T) => ScopeCategory)): void {
  declared.set(ref.name, category as CategoryOf);
}

const allowedByRequest = new WeakMap<GraphQLContext, Map<ScopeCategory, boolean>>();

/** The guards installed, each with the resolver it guards. */
const guarded = new WeakMap<object, unknown>();

/** The resolver `resolve` guards when it is a token read scope's guard; undefined otherwise. */
export function readGuardedResolver<R extends (...args: never[]) => unknown>(resolve: R | undefined): R | undefined {
  return resolve && (guarded.get(resolve) as R | undefined);
}

/** Whether the request's credentials read objects of every category: no guard can refuse it a field. */
export function readsEveryCategory(ctx: GraphQLContext): boolean {
  const { auth } = ctx.cx;
  return auth.method !== 'token' || !auth.scope || scopeAllows(auth.scope, SCOPE_CATEGORIES, 'read');
}

/** Whether the request's credentials may read objects of `category`. */
function mayRead(ctx: GraphQLContext, category: ScopeCategory): boolean {
  const { auth } = ctx.cx;
  if (auth.method !== 'token' || !auth.scope) return true;
  let allowed = allowedByRequest.get(ctx);
  if (!allowed) allowedByRequest.set(ctx, (allowed = new Map()));
  let may = allowed.get(category);
  if (may === undefined) allowed.set(category, (may = scopeAllows(auth.scope, [category], 'read')));
  return may;
}

/** Wraps the resolvers of every field of the types that declared a read scope (once, on the built schema). */
export function enforceTokenReadScopes(schema: GraphQLSchema): GraphQLSchema {
  for (const [typeName, category] of declared) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`tokenReadScope: ${typeName} is not an object type of the schema`);
    const message = `Not authorized to read fields for ${typeName}`;
    const categoryOf = typeof category === 'function' ? (category as (parent: unknown) => ScopeCategory) : () => category;
    for (const field of Object.values(type.getFields())) {
      const resolve: GraphQLFieldResolver<unknown, GraphQLContext> = field.resolve ?? defaultFieldResolver;
      const guard: GraphQLFieldResolver<unknown, GraphQLContext> = (parent, args, ctx, info) => {
        if (!mayRead(ctx, categoryOf(parent))) throw new GraphQLError(message, { extensions: { code: 'FORBIDDEN' } });
        return resolve(parent, args, ctx, info);
      };
      guarded.set(guard, resolve);
      field.resolve = guard;
    }
  }
  return schema;
}
