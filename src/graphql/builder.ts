import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { getNamedType, GraphQLError, valueFromASTUntyped, type GraphQLOutputType, type ValueNode } from 'graphql';
import { scopeAllows, type ScopeCategory } from '../auth/scope.ts';
import { getDatamodel, type Db, type PrismaTypes } from '../db/client.ts';
import { isSiteAdmin } from '../services/access/guards.ts';
import type { GraphQLContext } from './context.ts';
import { decodeNodeId, namesNodeType, unresolvableNodeId } from './ids.ts';
import { isQueryNodeId, QUERY_NODE, QUERY_NODE_ID } from './queryNode.ts';
import { assertNodeIdsWithinLimit } from './limits/nodeIds.ts';
import './githubMutations.ts';
import './tokenWriteScopes.ts';

/** Connection page sizes: GitHub's cap of 100. */
export const MAX_CONNECTION_SIZE = 100;
export const DEFAULT_CONNECTION_SIZE = 30;

/** The one schema builder. Holds no type definitions (they live in types/<domain>.ts). */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    URI: { Input: string; Output: string };
    GitObjectID: { Input: string; Output: string };
    GitTimestamp: { Input: Date; Output: string };
    Base64String: { Input: string; Output: string };
    GitSSHRemote: { Input: string; Output: string };
    HTML: { Input: string; Output: string };
    ID: { Input: string; Output: string | number };
  };
  AuthScopes: {
    signedIn: boolean;
    siteAdmin: boolean;
    /** The token (if any) may read this category (Gitea token scopes). */
    tokenRead: ScopeCategory;
  };
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, 'tokenWriteScopes', 'githubMutations', PrismaPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  scopeAuth: {
    authScopes: (ctx) => ({
      signedIn: ctx.cx.viewer !== null,
      siteAdmin: isSiteAdmin(ctx.cx),
      tokenRead: (category) => ctx.cx.auth.method !== 'token' || !ctx.cx.auth.scope || scopeAllows(ctx.cx.auth.scope, [category], 'read'),
    }),
    unauthorizedError: (_parent, _ctx, _info, result) => new GraphQLError(result.message, { extensions: { code: 'FORBIDDEN' } }),
  },
  prisma: {
    client: (ctx): Db => ctx.cx.db,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    exposeDescriptions: true,
    onUnusedQuery: null,
    defaultConnectionSize: DEFAULT_CONNECTION_SIZE,
    maxConnectionSize: MAX_CONNECTION_SIZE,
  },
  relay: {
    clientMutationId: 'optional',
    cursorType: 'String',
    nodesOnConnection: true,
    // Too many ids are refused before any lookup: on the raw argument (limits/nodeIds.ts), by this cost function for
    // `nodes` inside a named fragment, and in the resolver should both be bypassed.
    nodesQueryOptions: {
      complexity: ({ ids }) => {
        assertNodeIdsWithinLimit(ids.length);
        return { field: ids.length, multiplier: Math.max(1, ids.length) };
      },
      // An id that names no type of ours is null in its place (and refused by node(id:)), never an internal error.
      resolve: async (_root, args, _ctx, info, resolveNodes) => {
        const { ids } = args;
        assertNodeIdsWithinLimit(ids.length);
        const known = ids.filter((gid) => namesNodeType(info.schema, gid));
        if (known.length === ids.length) return resolveNodes(ids);
        // Query's own id names the root (GitHub's Query implements Node).
        // plugin-relay's resolveNodes reads the ids from these arguments, not from its own parameter.
        args.ids = known;
        const found = await resolveNodes(known);
        const byId = new Map(known.map((gid, i) => [gid, found[i]]));
        return ids.map((gid) => (isQueryNodeId(gid) ? QUERY_NODE : (byId.get(gid) ?? null)));
      },
    },
    nodeQueryOptions: {
      resolve: (_root, { id }, _ctx, info, resolveNode) => {
        if (isQueryNodeId(id)) return QUERY_NODE;
        if (!namesNodeType(info.schema, id)) throw unresolvableNodeId(id);
        return resolveNode(id);
      },
    },
    decodeGlobalID: decodeNodeId,
  },
  complexity: {
    // GitHub's node count: a connection costs the nodes it may return (first/last, or the default page size when
    // neither is given) and multiplies what it selects by as many; any other field, lists included (a connection's
    // nodes/edges are already counted by its first/last), costs nothing and multiplies by 1. The sum is what GitHub
    // calls "possible nodes".
    // This sees every field's arguments with variables applied, so it also rejects first/last over the cap
    // (as GitHub does) instead of letting the connection clamp them silently.
    fieldComplexity: (args, _ctx, field) => {
      for (const arg of ['first', 'last', 'skip'] as const) {
        const v = args[arg];
        if (typeof v !== 'number') continue;
        if (v < 0)
          throw new GraphQLError(`\`${arg}\` on the \`${field.name}\` connection cannot be negative.`, {
            extensions: { code: 'INVALID_ARGUMENT' },
          });
        if (v > MAX_CONNECTION_SIZE) {
          throw new GraphQLError(
            `Requesting ${v} records on the \`${field.name}\` connection exceeds the \`${arg}\` limit of ${MAX_CONNECTION_SIZE} records.`,
            {
              extensions: { code: 'EXCESSIVE_PAGINATION', limit: arg, value: v, max: MAX_CONNECTION_SIZE },
            },
          );
        }
      }
      if (!isConnection(field.type)) return { field: 0, multiplier: 1 };
      const n = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : DEFAULT_CONNECTION_SIZE;
      return { field: n, multiplier: n };
    },
    // The limits are checked ahead of execution by limits/useCostLimit.ts, not inside root resolvers (where a
    // permission error would come first and root-level `__typename` would never be counted).
    disabled: true,
  },
});

/** Whether a field returns a connection (GitHub's naming: every paginated list is a `…Connection`). */
function isConnection(type: GraphQLOutputType): boolean {
  return getNamedType(type).name.endsWith('Connection');
}

/**
 * A scalar's `parseValue`, and the same for its literals in a document. graphql-js's default `parseLiteral` takes the
 * variables as a second parameter, which graphql-jit does not support: it wrote "Scalar with variable inputs
 * detected …" to stderr at every compile of a document with such a literal. No literal of these scalars holds a
 * variable (they are strings on the wire), so the value is the literal's own, parsed by `parseValue` as before.
 */
function parsed<T>(parseValue: (v: unknown) => T): { parseValue: (v: unknown) => T; parseLiteral: (node: ValueNode) => T } {
  return { parseValue, parseLiteral: (node) => parseValue(valueFromASTUntyped(node)) };
}

builder.scalarType('DateTime', {
  serialize: (v) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString()),
  ...parsed((v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 string');
    return d;
  }),
});
builder.scalarType('URI', {
  description: "An RFC 3986 URI (GitHub's URI scalar): a string on the wire.",
  serialize: (v) => String(v),
  ...parsed((v) => {
    if (typeof v !== 'string' || !URL.canParse(v)) throw new GraphQLError(`URI must be an absolute URI string, got ${JSON.stringify(v)}`);
    return v;
  }),
});
builder.scalarType('GitObjectID', {
  description: "A git object id (GitHub's GitObjectID): 40 hex digits (SHA-1) or 64 (SHA-256).",
  serialize: (v) => String(v),
  ...parsed((v) => {
    if (typeof v !== 'string' || !/^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(v)) {
      throw new GraphQLError(`GitObjectID must be a full hex object id (40 or 64 hex digits), got ${JSON.stringify(v)}`);
    }
    return v.toLowerCase();
  }),
});
builder.scalarType('GitTimestamp', {
  description: "An ISO-8601 timestamp that keeps its git time zone offset (GitHub's GitTimestamp).",
  serialize: (v) => String(v),
  ...parsed((v) => {
    const d = typeof v === 'string' ? new Date(v) : null;
    if (!d || Number.isNaN(d.getTime())) throw new GraphQLError(`GitTimestamp must be an ISO-8601 string, got ${JSON.stringify(v)}`);
    return d;
  }),
});
builder.scalarType('Base64String', {
  description: "Base64 (RFC 4648, padded) encoded bytes (GitHub's Base64String).",
  serialize: (v) => String(v),
  ...parsed((v) => {
    if (typeof v !== 'string' || v.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) {
      throw new GraphQLError('Base64String must be padded base64 (RFC 4648)');
    }
    return v;
  }),
});
builder.scalarType('GitSSHRemote', {
  description: "Git SSH string (GitHub's GitSSHRemote): `git@host:owner/name.git` or `ssh://git@host:port/owner/name.git`.",
  serialize: (v) => String(v),
  ...parsed((v) => {
    if (typeof v !== 'string') throw new GraphQLError(`GitSSHRemote must be a string, got ${JSON.stringify(v)}`);
    return v;
  }),
});
builder.scalarType('HTML', {
  description: "A string containing HTML code (GitHub's HTML): rendered markup, sanitized.",
  serialize: (v) => String(v),
  ...parsed((v) => String(v)),
});
builder.queryType({
  fields: (t) => ({
    id: t.id({ description: "Query's Node id (GitHub's constant); node(id:) answers Query for it.", resolve: () => QUERY_NODE_ID }),
  }),
});
builder.mutationType({});
