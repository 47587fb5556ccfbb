import { Prisma } from '../generated/sqlite/client.ts';
import type { DbLike, Models } from './client.ts';
import { executeSql } from './rawStatements.ts';

/** A column value as both drivers bind it. */
type Value = string | number | bigint | boolean | Date | null;

/**
 * `INSERT … ON CONFLICT DO NOTHING` of one row into `model`'s table: a row clashing with any unique constraint is
 * skipped instead of failing (which on PostgreSQL would abort the whole transaction). Concurrent writers of the
 * same row converge: each inserts or ignores, then reads the row. Resolves to the rows inserted (0 or 1). Columns
 * with a default in the schema are given explicitly when their stored form matters (a DateTime's, on SQLite).
 */
export async function insertOrIgnore(db: DbLike, model: Models.Prisma.ModelName, row: Record<string, Value>): Promise<number> {
  const columns = Object.keys(row);
  const names = Prisma.raw(columns.map((c) => `"${c}"`).join(', '));
  const values = Prisma.join(columns.map((c) => row[c]));
  return executeSql(db, Prisma.sql`INSERT INTO ${Prisma.raw(`"${model}"`)} (${names}) VALUES (${values}) ON CONFLICT DO NOTHING`);
}
