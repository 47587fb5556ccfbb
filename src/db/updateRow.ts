// One row's change by id as one raw `UPDATE`: Prisma's `update` of scalar columns ran the same statement behind a
// query plan per set of columns and a result mapping, for a write whose caller reads the row again anyway.
import { Prisma } from '../generated/sqlite/client.ts';
import { getDatamodel } from '../generated/sqlite/pothos-types.ts';
import type { DbLike } from './client.ts';
import { asModelError } from './insertRows.ts';
import { executeSql, querySql } from './rawStatements.ts';
import { rowsOf, type ModelName, type ModelRow } from './rowShape.ts';

/** A column's new value as both drivers bind it, or an increment of its number. */
type ColumnChange = string | number | bigint | boolean | Date | null | { increment: number };

/** The columns of `M` a change sets. */
export type RowChange<M extends ModelName> = Partial<Record<Extract<keyof ModelRow<M>, string>, ColumnChange>>;

let updatedAtColumns: Map<string, string[]> | null = null;

/** The model's `@updatedAt` columns, which Prisma sets to now on every update. */
function updatedAtOf(model: ModelName): string[] {
  if (!updatedAtColumns) {
    updatedAtColumns = new Map(
      Object.entries(getDatamodel().datamodel.models).map(([name, m]) => [name, m.fields.filter((f) => f.isUpdatedAt).map((f) => f.name)]),
    );
  }
  return updatedAtColumns.get(model) ?? [];
}

/** The SET list of a change: its columns, and the `@updatedAt` ones set to now as Prisma sets them. */
function setsOf<M extends ModelName>(model: M, change: RowChange<M>): Prisma.Sql {
  const now = new Date();
  const sets = Object.entries(change as Record<string, ColumnChange | undefined>)
    .filter((entry): entry is [string, ColumnChange] => entry[1] !== undefined)
    .map(([column, v]) =>
      v !== null && typeof v === 'object' && !(v instanceof Date)
        ? Prisma.sql`${Prisma.raw(`"${column}" = "${column}" + `)}${v.increment}`
        : Prisma.sql`${Prisma.raw(`"${column}" = `)}${v}`,
    );
  for (const column of updatedAtOf(model)) if (!(column in change)) sets.push(Prisma.sql`${Prisma.raw(`"${column}" = `)}${now}`);
  return Prisma.sql`UPDATE ${Prisma.raw(`"${model}"`)} SET ${Prisma.join(sets)}`;
}

/**
 * Prisma's `update({ where: { id }, data })` of scalar columns (a value, or `{ increment }`), `@updatedAt` columns
 * set to now as Prisma sets them, and Prisma's codes for constraint errors (P2002, P2003). Resolves to the number of
 * rows changed: 0 when no row has the id (where `update` would throw P2025).
 */
export async function updateRowById<M extends ModelName>(db: DbLike, model: M, id: number, change: RowChange<M>): Promise<number> {
  try {
    return await executeSql(db, Prisma.sql`${setsOf(model, change)} WHERE "id" = ${id}`);
  } catch (err) {
    throw asModelError(err, model);
  }
}

/** A column's value a change expects to find: the row changes only while it holds (non-null values: `=` on both databases). */
type Guard<M extends ModelName> = Partial<Record<Extract<keyof ModelRow<M>, string>, string | number>>;

/**
 * updateRowById in one statement with the row as it is after the change (`RETURNING *`); null when no row has the
 * id, or when a column of `guard` no longer holds the value given (a compare-and-set: the caller's change was
 * computed from those values).
 */
export async function updateRowReturning<M extends ModelName>(
  db: DbLike,
  model: M,
  id: number,
  change: RowChange<M>,
  guard: Guard<M> = {},
): Promise<ModelRow<M> | null> {
  const guards = Object.entries(guard as Record<string, string | number | undefined>)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([column, v]) => Prisma.sql` AND ${Prisma.raw(`"${column}" = `)}${v}`);
  try {
    const rows = await querySql(
      db,
      Prisma.sql`${setsOf(model, change)} WHERE "id" = ${id}${guards.length ? Prisma.join(guards, '') : Prisma.empty} RETURNING *`,
    );
    return rowsOf(model, rows)[0] ?? null;
  } catch (err) {
    throw asModelError(err, model);
  }
}
