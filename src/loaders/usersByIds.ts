// Users by id on the read path: posters, owners, mergers and reactors of a whole page in one statement.
import type { DbLike, Models } from '../db/client.ts';
import { readRows } from '../db/readPath.ts';

/** The users with these ids (whole rows, in no particular order; unknown ids are left out). None asked, no query. */
export function usersByIds(db: DbLike, ids: readonly number[]): Promise<Models.User[]> {
  if (!ids.length) return Promise.resolve([]);
  return readRows(db, 'User', 'SELECT * FROM "User" WHERE "id" IN (?)', [ids]);
}
