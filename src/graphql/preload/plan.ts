import type DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { getDatamodel, type Models } from '../../db/client.ts';
import type { ServiceContext } from '../../services/context.ts';
import { selectedFields, type SelectedFields } from './selectedFields.ts';

/**
 * Feeding plugin-prisma with rows loaded below Prisma (issue #17). A root `prismaField` runs Prisma with the
 * query plugin-prisma planned for the whole selection; relations of that tree which a preloader accepts are taken
 * out of the Prisma query and loaded on the read path for every parent row at once, then attached under their
 * relation names in the shape Prisma would have returned, so the relation fields resolve from them exactly as
 * from Prisma's rows. A relation whose arguments a preloader does not recognise stays in the Prisma query.
 * Preloaded relations nest: the relations below one are planned first, and their fills run after it, level by
 * level, on the rows it attached. A root whose query is left with no relation at all may skip Prisma.
 */

type Query = Record<string, unknown>;
type Row = Record<string, unknown>;

/** Users by id for the fills of one query (one batch for posters, authors and reactors alike). */
export type UserLoader = DataLoader<number, Models.User | null>;

/**
 * Loads one relation of many parent rows and sets it on each (under the relation's name). `cx` is the request's
 * service context: reads go to `cx.db`'s read path, and a fill that applies a read policy uses the viewer's.
 * Work that attaches what no fill below reads (an issue's poster, its reactions) may be handed to `defer` once the
 * rows the fills below need are attached: it then runs beside them (on PostgreSQL, its statements beside theirs)
 * and the root's rows are handed out when it is done too.
 */
export type Fill = (cx: ServiceContext, parents: Row[], users: UserLoader, defer: (work: Promise<unknown>) => void) => Promise<void>;

/**
 * A relation a preloader can serve: given the relation's Prisma arguments (`true` or `{ where, orderBy, take,
 * select, include, … }`, without the relations below it that other preloaders took), a Fill that loads exactly
 * what Prisma would, or null when it does not recognise them. `_count` may have a preloader too. `selected`
 * tells which GraphQL fields the operation selects on a type: a preloader may leave out the columns none of them
 * reads (selectedFields.ts).
 */
export type Preloader = (args: unknown, selected: SelectedFields) => Fill | null;

/** Preloaders per model and relation name. */
export type Preloaders = Record<string, Record<string, Preloader>>;

interface Plucked {
  /** Relation names from the root to the parent rows. */
  path: string[];
  fill: Fill;
}

/** Sets `row[name]` to the user `row[key]` names (null when none or deleted), a whole level's users in one batch. */
export async function attachUsers(rows: Row[], key: string, name: string, users: UserLoader): Promise<void> {
  // One load per distinct user, not per row: five posters of five hundred comments are five promises.
  const ids = [...new Set(rows.map((r) => r[key]).filter((id): id is number => typeof id === 'number'))];
  const found = await users.loadMany(ids);
  const failed = found.find((f) => f instanceof Error);
  if (failed) throw failed;
  const byId = new Map<number, unknown>();
  ids.forEach((id, i) => byId.set(id, found[i]));
  for (const r of rows) r[name] = typeof r[key] === 'number' ? (byId.get(r[key]) ?? null) : null;
}

/**
 * What a fill attached to `row` under `name` (or Prisma's rows carry under a relation's name); undefined when
 * nothing did, and the field loads it itself. Lets a plain field resolve synchronously from preloaded rows.
 */
export function attached<T>(row: object, name: string): T | undefined {
  return (row as Record<string, T | undefined>)[name];
}

/** Whether `v` is a plain record (a Prisma argument object, not an array or a scalar). */
export const isRecord = (v: unknown): v is Query => typeof v === 'object' && v !== null && !Array.isArray(v);

let relationTargets: Map<string, string> | null = null;
/** The model a relation field of `model` points to (`Issue.poster` → `User`), from the generated datamodel. */
export function targetOf(model: string, field: string): string | undefined {
  if (!relationTargets) {
    relationTargets = new Map();
    for (const [name, m] of Object.entries(getDatamodel().datamodel.models)) {
      for (const f of m.fields) if (f.kind === 'object') relationTargets.set(`${name}.${f.name}`, f.type);
    }
  }
  return relationTargets.get(`${model}.${field}`);
}

/** `query` without the relations `preloaders` serve (copied where changed), and what was taken out. */
function pluck(model: string, query: Query, preloaders: Preloaders, selected: SelectedFields, path: string[], out: Plucked[]): Query {
  let copy: Query | null = null;
  for (const key of ['include', 'select'] as const) {
    const selection = query[key];
    if (!isRecord(selection)) continue;
    let next: Query | null = null;
    for (const [field, args] of Object.entries(selection)) {
      const target = targetOf(model, field);
      const preloader = preloaders[model]?.[field];
      if (!target && !preloader) continue;
      // The relations below first: their fills apply to this relation's rows, whoever loads them.
      const inner = target && isRecord(args) ? pluck(target, args, preloaders, selected, [...path, field], out) : args;
      // Only under `include`, whose parent rows carry every scalar (the keys the fill joins on).
      const fill = key === 'include' ? preloader?.(inner, selected) : null;
      if (fill) {
        next ??= { ...selection };
        delete next[field];
        out.push({ path, fill });
        continue;
      }
      if (inner !== args) {
        next ??= { ...selection };
        next[field] = inner;
      }
    }
    if (next) {
      copy ??= { ...query };
      // A `select` left with no field would be refused by Prisma: keep the relation's id.
      copy[key] = key === 'select' && Object.keys(next).length === 0 ? { id: true } : next;
    }
  }
  return copy ?? query;
}

/** Whether `query` (a root's, after plucking) loads no relation or count: the root row's scalars answer it. */
export function scalarsOnly(model: string, query: Query): boolean {
  return Object.entries(query).every(([key, selection]) => {
    if (key !== 'include' && key !== 'select') return true;
    return isRecord(selection) && Object.entries(selection).every(([f, v]) => !v || (f !== '_count' && !targetOf(model, f)));
  });
}

/** The rows at `path` below `rows` (relations flattened, missing ones skipped). */
function rowsAt(rows: Row[], path: string[]): Row[] {
  let level = rows;
  for (const field of path) {
    level = level.flatMap((r) => {
      const v = r[field];
      return Array.isArray(v) ? (v as Row[]) : isRecord(v) ? [v] : [];
    });
  }
  return level;
}

/**
 * Runs `run` with `query` minus the relations `preloaders` serve, then loads those for the rows it returned
 * (one batch per relation and level, on the read path of `cx.db`), outermost first, and attaches them.
 */
export async function withPreloaded<T extends object | null>(
  cx: ServiceContext,
  info: GraphQLResolveInfo,
  model: string,
  query: Query,
  preloaders: Preloaders,
  run: (query: Query) => Promise<T>,
): Promise<T> {
  const plucked: Plucked[] = [];
  const result = await run(pluck(model, query, preloaders, selectedFields(info), [], plucked));
  if (result === null || plucked.length === 0) return result;
  const roots = (Array.isArray(result) ? result : [result]) as Row[];
  // The request's loader: a user a fill attached is cached for the fields that load theirs.
  const users = cx.loaders.userById;
  const depths = [...new Set(plucked.map((p) => p.path.length))].sort((a, b) => a - b);
  const deferred: Promise<unknown>[] = [];
  const defer = (work: Promise<unknown>) => {
    // Awaited after the levels: a failure before then is not an unhandled rejection (the request fails with it then).
    work.catch(() => undefined);
    deferred.push(work);
  };
  for (const depth of depths) {
    const level = plucked.filter((p) => p.path.length === depth);
    await Promise.all(level.map(({ path, fill }) => fill(cx, rowsAt(roots, path), users, defer)));
  }
  await Promise.all(deferred);
  return result;
}
