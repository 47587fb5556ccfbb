import type { PathSegment, SelectionMap } from '@pothos/plugin-prisma';
import { Models } from '../db/client.ts';

type Selection = true | { select?: Record<string, unknown>; include?: Record<string, unknown> } | Record<string, unknown>;

/** Every scalar column of a model, from its Prisma ScalarFieldEnum. */
export const scalars = (fields: Record<string, string>): Record<string, true> =>
  Object.fromEntries(Object.values(fields).map((f) => [f, true]));
const USER_SCALARS = scalars(Models.Prisma.UserScalarFieldEnum);
const LABEL_SCALARS = scalars(Models.Prisma.LabelScalarFieldEnum);
const ISSUE_SCALARS = scalars(Models.Prisma.IssueScalarFieldEnum);

/** A nested selection that always carries the given scalar columns (exposed and computed fields declare none). */
export function withScalars(selection: Selection, all: Record<string, true>): Selection {
  if (selection === true) return true;
  if ('select' in selection && selection.select && typeof selection.select === 'object') {
    // Object.assign, not `{ ...all, ...select }`: on Node 20 a literal that starts with a spread is slow (db/rowShape.ts).
    return { select: Object.assign({}, all, selection.select) };
  }
  return selection;
}

/**
 * A nested User selection that always carries every scalar column. Interface fields (RepositoryOwner) and
 * computed fields declare no Prisma selection, so a `select` built only from the query could be empty
 * (Prisma rejects it) or miss columns the resolvers read.
 */
export function withUserScalars(selection: Selection): Selection {
  return withScalars(selection, USER_SCALARS);
}

/** The same for a nested Label selection. */
export function withLabelScalars(selection: Selection): Selection {
  return withScalars(selection, LABEL_SCALARS);
}

/** The same for a nested Issue selection. */
export function withIssueScalars(selection: Selection): Selection {
  return withScalars(selection, ISSUE_SCALARS);
}

type NestedFn = (selection?: true | SelectionMap, path?: PathSegment[]) => unknown;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
/** A planned selection that matched nothing on its path (`{}` or an empty `select`, which Prisma refuses). */
const isEmptySelection = (v: unknown): boolean => !isRecord(v) || Object.values(v).every((m) => isRecord(m) && Object.keys(m).length === 0);

/**
 * Two nested selections of one type merged. An empty one gives way to the other; two `select` (or two
 * `include`) maps are joined; when one is an `include`, it wins (it loads every scalar) and keeps the other's
 * nested relation selections.
 */
function mergeSelections(a: unknown, b: unknown): unknown {
  // Both empty: `{}` (nothing extra to load); an empty `select` would be refused by Prisma.
  if (isEmptySelection(a)) return isRecord(b) && !isEmptySelection(b) ? b : isRecord(a) ? {} : a;
  if (isEmptySelection(b) || !isRecord(a) || !isRecord(b)) return a;
  if (isRecord(a.select) && isRecord(b.select)) return { ...a, ...b, select: { ...a.select, ...b.select } };
  if (isRecord(a.include) && isRecord(b.include)) return { ...a, ...b, include: { ...a.include, ...b.include } };
  const [inc, sel] = isRecord(a.include) ? [a, b] : [b, a];
  const relations = Object.fromEntries(Object.entries(isRecord(sel.select) ? sel.select : {}).filter(([, v]) => isRecord(v)));
  return { ...inc, include: { ...relations, ...(isRecord(inc.include) ? inc.include : {}) } };
}

/**
 * plugin-prisma's connection helpers plan a node's selection from `edges { node }` only; clients mostly select
 * `nodes { … }`. Pass a connection's `nestedSelection` through this so both paths are planned and merged, and
 * relations selected under `nodes` load with the page instead of once per node.
 */
export function bothNodePaths<F>(field: F): F {
  const nestedSelection = field as unknown as NestedFn;
  const planned: NestedFn = (selection, path) => mergeSelections(nestedSelection(selection, path), nestedSelection(selection, ['nodes']));
  return planned as unknown as F;
}
