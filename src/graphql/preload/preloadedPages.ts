import { getConnectionPageSize } from '@pothos/core';
import { formatPrismaCursor } from '@pothos/plugin-prisma';
import {
  getNamedType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { selectedFields, type SelectedFields } from './selectedFields.ts';

/*
 * Connection pages a preloader attached, answered without plugin-prisma's per-row work (issue #35). A relation
 * field planned by plugin-prisma (a relatedConnection, or a connection with a `select`) resolves each parent row
 * through the plugin's wrapper: it looks up the row's loader mapping by response path, records the mappings of the
 * nodes below, plans the field's query again to learn the page size, and formats every edge's cursor, asked for or
 * not. For the first page of an issue's labels, assignees or comments that a preloader loaded (preload/issue.ts),
 * none of that is needed: the preloader records on the parent row which page it attached, and the field answers it
 * directly, with cursors formatted only when read. Anything else (another page, another order, a count the
 * preloader did not make, a node field that needs plugin-prisma's mappings) goes the plugin's way, as before. The
 * rows are the same either way: this changes how a loaded page becomes a connection, not what is loaded or who may
 * read it (the field keeps its read policy and the token guards wrapped around it).
 */

/** A forward page a preloader loaded: Prisma's `take` (the page size plus one) and `skip`, and the comments' type. */
export interface LoadedPage {
  readonly take?: number;
  readonly skip: number;
  readonly type?: string;
}

interface Loaded {
  pages: Record<string, LoadedPage>;
  counted: Set<string>;
}

const LOADED = Symbol('preloadedPages');

function loadedOf(row: object): Loaded {
  const r = row as { [LOADED]?: Loaded };
  return (r[LOADED] ??= { pages: {}, counted: new Set() });
}

/**
 * The rows a preloader loads for Prisma's forward page `page` of a connection of type `connection`. Prisma's `take`
 * is the page size plus one: the extra row tells only `pageInfo.hasNextPage`. When the operation selects no
 * `pageInfo` on the connection's type anywhere (selectedFields.ts: every path, alias and fragment), nothing reads
 * that row, so it is not loaded: the page then looks like a last page to plugin-prisma and to the direct answer
 * below, which no field of the operation reports. (A nested query of 50 issues with 10 comments each read 561
 * comments for the 500 it shows.)
 */
export function pageToLoad<P extends { take?: number }>(page: P, selected: SelectedFields, connection: string): P {
  return page.take !== undefined && page.take > 0 && !selected(connection).has('pageInfo') ? { ...page, take: page.take - 1 } : page;
}

/** Records that `relation` of each of `parents` holds the page `page` (called by the fill that attached it). */
export function recordPage(parents: readonly object[], relation: string, page: LoadedPage): void {
  for (const p of parents) loadedOf(p).pages[relation] = page;
}

/** Records that `_count[relation]` of each of `parents` was counted by a preloader (for `totalCount`). */
export function recordCounts(parents: readonly object[], relations: readonly string[]): void {
  for (const p of parents) for (const r of relations) loadedOf(p).counted.add(r);
}

/** A relation field whose preloaded first pages are answered directly. */
export interface PreloadedPageField<Row> {
  /** `Type.field` of the schema. */
  readonly coordinate: string;
  /** The relation the field plans (the parent row's key). */
  readonly relation: string;
  /** Whether the field's own arguments (beside first/after/last/before) plan the query the preloader served. */
  readonly servedArgs: (args: Record<string, unknown>) => boolean;
  /** The comments' type the field plans, when the relation is comments. */
  readonly type?: string;
  /** An edge's node from its row. */
  readonly nodeOf: (row: Row) => unknown;
}

/** An edge of a preloaded page: the cursor is formatted when read (plugin-prisma's format, `id` cursors). */
class PreloadedEdge {
  constructor(
    readonly node: unknown,
    private readonly row: { id: number },
  ) {}
  get cursor(): string {
    return formatPrismaCursor(this.row, 'id');
  }
}

class PreloadedPageInfo {
  readonly hasPreviousPage = false;
  constructor(
    private readonly edges: readonly PreloadedEdge[],
    readonly hasNextPage: boolean,
  ) {}
  get startCursor(): string | null {
    return this.edges[0]?.cursor ?? null;
  }
  get endCursor(): string | null {
    return this.edges[this.edges.length - 1]?.cursor ?? null;
  }
}

const CONNECTION_FIELDS = new Set(['__typename', 'edges', 'nodes', 'pageInfo', 'totalCount']);
const EDGE_FIELDS = new Set(['__typename', 'cursor', 'node']);

interface Shape {
  /** The operation selects nothing below the connection that needs plugin-prisma's mappings. */
  servable: boolean;
  /** The operation selects the connection's `totalCount`. */
  counted: boolean;
}

const shapes = new WeakMap<OperationDefinitionNode, Map<string, Shape>>();

/** Names of the fields of `type` plugin-prisma resolves through its mappings (relations, fields with a `select`). */
function mappedFields(schema: GraphQLSchema, type: string): Set<string> {
  const t = schema.getType(type);
  if (!isObjectType(t)) throw new Error(`preloadedPages: ${type} is not an object type`);
  return new Set(
    Object.values(t.getFields())
      .filter((f) => f.extensions.pothosPrismaSelect || f.extensions.pothosPrismaRelationField)
      .map((f) => f.name),
  );
}

/** Whether the operation's selections below connections of `connection` can be answered from a preloaded page. */
function shapeOf(info: GraphQLResolveInfo, key: string, connection: string, edge: string, node: string, mapped: Set<string>): Shape {
  let byField = shapes.get(info.operation);
  if (!byField) shapes.set(info.operation, (byField = new Map()));
  let shape = byField.get(key);
  if (!shape) {
    const selected = selectedFields(info);
    const onConnection = selected(connection);
    shape = {
      servable:
        [...onConnection].every((f) => CONNECTION_FIELDS.has(f)) &&
        [...selected(edge)].every((f) => EDGE_FIELDS.has(f)) &&
        ![...selected(node)].some((f) => mapped.has(f)),
      counted: onConnection.has('totalCount'),
    };
    byField.set(key, shape);
  }
  return shape;
}

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type Args = Record<string, unknown>;

/**
 * The answer of `field` from the page a preloader recorded on `parent`, or undefined when there is none for
 * these arguments and this operation (the field then resolves as plugin-prisma planned it).
 */
function pageResolver<Row>(field: PreloadedPageField<Row>, schema: GraphQLSchema, connection: string, edge: string, node: string) {
  const mapped = mappedFields(schema, node);
  return (parent: unknown, args: Args, info: GraphQLResolveInfo): object | undefined => {
    const loaded = (parent as { [LOADED]?: Loaded })[LOADED];
    const page = loaded?.pages[field.relation];
    if (!page || page.skip !== 0 || page.type !== field.type) return undefined;
    if (args.after != null || args.before != null || args.last != null || !field.servedArgs(args)) return undefined;
    const { first } = args;
    if (first != null && !(Number.isSafeInteger(first) && (first as number) >= 0)) return undefined;
    const { limit } = getConnectionPageSize({
      args: { first: first as number | null | undefined },
      defaultSize: DEFAULT_CONNECTION_SIZE,
      maxSize: MAX_CONNECTION_SIZE,
    });
    if (page.take !== limit) return undefined;
    const shape = shapeOf(info, field.coordinate, connection, edge, node, mapped);
    if (!shape.servable || (shape.counted && !loaded!.counted.has(field.relation))) return undefined;
    const rows = (parent as Record<string, Row[]>)[field.relation]!;
    const full = rows.length === limit;
    const pageRows = full ? rows.slice(0, -1) : rows;
    const edges = pageRows.map((r) => new PreloadedEdge(field.nodeOf(r), r as { id: number }));
    const total = shape.counted ? (parent as { _count: Record<string, number> })._count[field.relation] : undefined;
    return { edges, pageInfo: new PreloadedPageInfo(edges, full), total };
  };
}

/**
 * Has each of `fields` answer a preloaded page directly when it can, and call its resolver (plugin-prisma's
 * wrapper around it) otherwise. Runs on the built schema, before the guards that wrap every field (token read
 * scopes, deadline): they stay around both ways.
 */
export function servePreloadedPages(schema: GraphQLSchema, fields: readonly PreloadedPageField<never>[]): GraphQLSchema {
  for (const field of fields) {
    const [typeName, fieldName] = field.coordinate.split('.') as [string, string];
    const type = schema.getType(typeName);
    const f = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    const connectionType = f && getNamedType(f.type);
    if (!f?.resolve || !isObjectType(connectionType)) throw new Error(`servePreloadedPages: ${field.coordinate} is not a connection field`);
    const options = f.extensions.pothosOptions as { authScopes?: unknown; grantScopes?: unknown } | undefined;
    // Nothing but plugin-prisma's wrapper may sit between the schema's field and its resolver: a scope check there
    // would be skipped by the direct answer.
    if (options?.authScopes || options?.grantScopes) throw new Error(`servePreloadedPages: ${field.coordinate} has scopes`);
    const { edges, nodes } = connectionType.getFields();
    if (!edges || !nodes) throw new Error(`servePreloadedPages: ${connectionType.name} has no edges or nodes`);
    const connection = connectionType.name;
    const [edge, node] = [getNamedType(edges.type).name, getNamedType(nodes.type).name];
    const preloaded = pageResolver(field, schema, connection, edge, node);
    const planned: Resolver = f.resolve;
    f.resolve = (parent, args: Args, context, info) => preloaded(parent, args, info) ?? planned(parent, args, context, info);
  }
  return schema;
}
