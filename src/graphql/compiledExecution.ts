import {
  defaultFieldResolver,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isLeafType,
  isObjectType,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { GraphQLContext } from './context.ts';
import { compileWithPlainLeaves, hasGuardedLeaves } from './plainLeaves.ts';
import { readsEveryCategory } from './tokenReadScopes.ts';

/*
 * Queries and mutations run as JavaScript compiled from their document (graphql-jit) instead of being interpreted
 * field by field by graphql-js (issue #35: the interpreter's per-field work and its null-prototype result objects,
 * slow to build and to stringify, were a third of the nested issue query). A document is compiled at its first
 * execution and kept while it is among the last MAX_COMPILED_DOCUMENTS executed.
 * Subscriptions stay with Yoga's executor.
 *
 * What graphql-js's executor did that the compiled code does not is restored. On the built schema, by
 * `prepareForCompiledExecution`, for every field whose type is an object, interface or union (the fields that
 * load; a leaf resolves from its parent's row) and every leaf with a plugin-prisma `select` (`bodyHTML`):
 *  - **Shared response paths.** graphql-js hands a field the same `info.path` object its children get as
 *    `path.prev`; plugin-prisma (through @pothos/selection-mapper) hangs what a relation preloaded on those
 *    objects, by identity. The compiled code builds every path afresh, so the relations below a preloaded one
 *    found nothing and loaded again, row by row. The wrapper swaps `info.path` for the request's one object per
 *    response path, for the fields whose resolvers can use it (usesSharedPath).
 *  - **No resolver after the deadline.** Yoga's executor checked the deadline's signal before each field
 *    (limits/useDeadline.ts); the wrapper checks it before each of these fields.
 * And before execution: **graphql-js's messages for variables** that do not coerce (executeCompiled).
 */

/** A response path as graphql-js shapes it. */
type Path = { readonly prev: Path | undefined; readonly key: string | number; readonly typename: string | undefined };

/**
 * A request's one object for a response path, with the shared paths below it: the first one inline (most paths
 * have one field below them that loads: `comments` → `nodes`, a comment → `author`), the others in a map.
 */
interface SharedPath extends Path {
  readonly prev: SharedPath | undefined;
  firstKey: string | number | undefined;
  first: SharedPath | undefined;
  more: Map<string | number, SharedPath> | undefined;
}

interface Execution {
  /** Stands for the root: the top-level paths are below it. */
  readonly root: SharedPath;
  signal?: AbortSignal;
}

const executions = new WeakMap<object, Execution>();

const sharedNode = (prev: SharedPath | undefined, key: string | number, typename: string | undefined): SharedPath => ({
  prev,
  key,
  typename,
  firstKey: undefined,
  first: undefined,
  more: undefined,
});

function executionOf(context: object): Execution {
  let execution = executions.get(context);
  if (!execution) executions.set(context, (execution = { root: sharedNode(undefined, '', undefined) }));
  return execution;
}

/** The shared path `key` below `parent` (whose `prev` it gets: undefined below the root). */
function below(parent: SharedPath, key: string | number, typename: string | undefined, root: SharedPath): SharedPath {
  if (parent.first === undefined)
    return ((parent.firstKey = key), (parent.first = sharedNode(parent === root ? undefined : parent, key, typename)));
  if (parent.firstKey === key) return parent.first;
  const more = (parent.more ??= new Map());
  let shared = more.get(key);
  if (!shared) more.set(key, (shared = sharedNode(parent === root ? undefined : parent, key, typename)));
  return shared;
}

/** The request's one path object for `path`'s response path (made the first time it is asked). */
function sharedPath(execution: Execution, path: Path): SharedPath {
  return below(path.prev ? sharedPath(execution, path.prev) : execution.root, path.key, path.typename, execution.root);
}

/**
 * Whether a field's resolvers may look up or record plugin-prisma's mappings by its `info.path`: the fields
 * plugin-prisma wraps (those with a `select`: relations, related connections, leaves like `bodyHTML`) and any field
 * whose own resolver takes `info` (prismaField roots, resolvers that plan with `queryFromInfo`). A resolver declared
 * without its fourth parameter cannot reach the path, and the other plugins' wrappers key what they keep by the
 * path's text (scope-auth's granted scopes, dataloader's `byPath`), not by the object. A field may say that its
 * resolver reads only the operation from `info` (`extensions.readsOperationOnly`).
 */
function usesSharedPath(field: GraphQLField<unknown, unknown>): boolean {
  if (field.extensions.pothosPrismaSelect) return true;
  if (field.extensions.readsOperationOnly === true) return false;
  const own: unknown = field.extensions.pothosOriginalResolve;
  if (typeof own === 'function') return own.length >= 4;
  return field.resolve !== undefined && field.resolve !== defaultFieldResolver;
}

/**
 * Wraps the resolvers of the fields that load (object, interface or union types; leaves with a `select`), once:
 * each checks the deadline, and those that use the response path (usesSharedPath) get the request's shared one.
 * The others (an author from the user loader, a connection's `nodes`, a reaction group's reactors: 452 of the 770
 * object fields, and most calls of a nested query) skip building it.
 */
export function prepareForCompiledExecution(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (isLeafType(getNamedType(field.type)) && !field.extensions.pothosPrismaSelect) continue;
      const resolve: GraphQLFieldResolver<unknown, object> = field.resolve ?? defaultFieldResolver;
      field.resolve = usesSharedPath(field)
        ? (parent, args, context: object, info) => {
            const execution = executionOf(context);
            execution.signal?.throwIfAborted();
            (info as { path: unknown }).path = sharedPath(execution, info.path);
            return resolve(parent, args, context, info);
          }
        : (parent, args, context: object, info) => {
            executions.get(context)?.signal?.throwIfAborted();
            return resolve(parent, args, context, info);
          };
    }
  }
  return schema;
}

/**
 * Compiled operations of the documents executed last, by parsed document (Yoga's parse cache hands the same one for
 * the same query text) and operation name. Bounded: a compiled operation holds generated code (~190 KB for the nested
 * issue query), and a client sending ever new documents must not make the server keep them all.
 */
export const MAX_COMPILED_DOCUMENTS = 128;
const compiled = new LRUCache<DocumentNode, Map<string, CompiledQuery | ExecutionResult>>({ max: MAX_COMPILED_DOCUMENTS });

/** How many documents have compiled operations kept. */
export const compiledDocuments = (): number => compiled.size;

/**
 * The document's operation compiled (or the errors compiling it gave), once per document, operation name and whether
 * the request reads every token scope category (which decides the leaves compiled as property reads, plainLeaves.ts).
 */
function compile(args: ExecutionArgs): CompiledQuery | ExecutionResult {
  let byName = compiled.get(args.document);
  if (!byName) compiled.set(args.document, (byName = new Map()));
  const readsEverything = !hasGuardedLeaves(args.schema) || readsEveryCategory(args.contextValue as GraphQLContext);
  const key = `${readsEverything ? '' : 'scoped:'}${args.operationName ?? ''}`;
  let entry = byName.get(key);
  if (!entry) {
    entry = compileWithPlainLeaves(args.schema, readsEverything, () =>
      compileQuery(args.schema, args.document, args.operationName ?? undefined),
    );
    byName.set(key, entry);
  }
  return entry;
}

function executeCompiled(args: ExecutionArgs & { signal?: AbortSignal }): ExecutionResult | Promise<ExecutionResult> {
  const entry = compile(args);
  if (!isCompiledQuery(entry)) return entry;
  // The variables are checked by graphql-js first: its errors carry the scalar's own message ("GitObjectID must be
  // …"), where the compiled check says only "Expected type GitObjectID". The compiled query coerces them again.
  const definitions = getOperationAST(args.document, args.operationName)?.variableDefinitions ?? [];
  if (definitions.length) {
    const coerced = getVariableValues(args.schema, definitions, args.variableValues ?? {}, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
  }
  if (args.signal && typeof args.contextValue === 'object' && args.contextValue) executionOf(args.contextValue).signal = args.signal;
  return entry.query(args.rootValue, args.contextValue, args.variableValues ?? {});
}

/** Yoga plugin: queries and mutations execute compiled. Goes before the plugins that wrap execution (the deadline). */
export function useCompiledExecution(): Plugin {
  return {
    onExecute({ args, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName)?.operation;
      if (operation === 'query' || operation === 'mutation') setExecuteFn(executeCompiled);
    },
  };
}
