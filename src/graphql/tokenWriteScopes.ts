import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import type { ScopeCategory } from '../auth/scope.ts';
import { requireScopesOfAny } from '../services/access/writeGate.ts';
import type { GraphQLContext } from './context.ts';

// Token write scopes of mutations (Gitea's `write:<category>`), checked before anything else: each mutation
// declares the category of its REST twin (`...writeScope('issue')` in its field options, or `writeScopeBy` when it
// depends on the input's shape), and the `tokenWriteScopes` plugin refuses a token without it before the
// resolver runs — before any id is looked up, so a token that may not write learns nothing about what exists
// (issue #30 finding 4). The refusal is the services' (PermissionDeniedError with Gitea's message), answered as
// a GraphQL error with `extensions.code` PERMISSION_DENIED (GitHub's type FORBIDDEN). Only relay's decoding of global ids (no lookup) comes first. Building the schema
// fails for a mutation that declares nothing.

/** Ways to be allowed: the token must hold every category of at least one of them. */
export type WriteScopeAlternatives = readonly (readonly ScopeCategory[])[];

/** The token write scope of a mutation, from its input (already decoded, never looked up). */
export type WriteScopeOf = (input: Record<string, unknown>) => WriteScopeAlternatives;

/** Field options declaring a mutation's token write scope (spread them into the options). */
export interface WriteScopeOptions {
  extensions: { tokenWriteScope: WriteScopeOf };
}

/** The mutation needs write on every one of `categories` (its REST twin's). */
export function writeScope(...categories: [ScopeCategory, ...ScopeCategory[]]): WriteScopeOptions {
  const alternatives = [categories];
  return { extensions: { tokenWriteScope: () => alternatives } };
}

/**
 * The mutation's REST twin depends on the input: `fn` names the category (or the alternatives, when only the row
 * would tell, e.g. a label id of a repository or of an organization) from the input's shape.
 */
export function writeScopeBy<I>(fn: (input: I) => ScopeCategory | WriteScopeAlternatives): WriteScopeOptions {
  return {
    extensions: {
      tokenWriteScope: (input) => {
        const need = fn(input as I);
        return typeof need === 'string' ? [[need]] : need;
      },
    },
  };
}

/** The declared write scope of a field (for the plugin and the schema-wide test). */
export function writeScopeOf(extensions: Readonly<Record<string, unknown>> | null | undefined): WriteScopeOf | null {
  const declared = extensions?.tokenWriteScope;
  return typeof declared === 'function' ? (declared as WriteScopeOf) : null;
}

/** Wraps every Mutation field with its token write scope check, ahead of its resolver. */
class TokenWriteScopesPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (fieldConfig.kind !== 'Mutation') return resolver;
    const declared = writeScopeOf(fieldConfig.extensions);
    if (!declared) throw new Error(`Mutation.${fieldConfig.name} declares no token write scope (writeScope or writeScopeBy)`);
    return (parent, args, ctx, info) => {
      const input = (args as { input?: Record<string, unknown> }).input ?? {};
      requireScopesOfAny(
        (ctx as GraphQLContext).cx,
        declared(input).map((needs) => needs.map((c) => `write:${c}` as const)),
      );
      return resolver(parent, args, ctx, info);
    };
  }
}

SchemaBuilder.registerPlugin('tokenWriteScopes', TokenWriteScopesPlugin);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      tokenWriteScopes: TokenWriteScopesPlugin<Types>;
    }
  }
}
