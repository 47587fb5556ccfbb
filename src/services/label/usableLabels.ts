// The labels an issue of a repository may carry: the repository's own and its organization's (Gitea's validity rule).
import type { DbLike, Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import { sql } from '../../db/sqlText.ts';

/** What the label writes need of a label: its id, and its name and flag for exclusive scopes. */
export type UsableLabel = Pick<Models.Label, 'id' | 'name' | 'exclusive'>;

/**
 * The labels usable on `repo` whose id (or name) is among `values`, by id; unknown and foreign ones are left out
 * (a name may be both the repository's and its organization's). With `whole`, every column of each label (what a
 * view of the label shows), in the same one statement.
 */
export function usableLabels(
  db: DbLike,
  repo: Pick<Models.Repository, 'id' | 'ownerId'>,
  by: 'id' | 'name',
  values: readonly number[] | readonly string[],
): Promise<UsableLabel[]>;
export function usableLabels(
  db: DbLike,
  repo: Pick<Models.Repository, 'id' | 'ownerId'>,
  by: 'id' | 'name',
  values: readonly number[] | readonly string[],
  whole: true,
): Promise<Models.Label[]>;
export function usableLabels(
  db: DbLike,
  repo: Pick<Models.Repository, 'id' | 'ownerId'>,
  by: 'id' | 'name',
  values: readonly number[] | readonly string[],
  whole = false,
): Promise<UsableLabel[]> {
  if (!values.length) return Promise.resolve([]);
  return readRows<'Label', UsableLabel>(
    db,
    'Label',
    sql`SELECT ${whole ? '*' : '"id", "name", "exclusive"'} FROM "Label" WHERE "${by}" IN (?) AND ("repoId" = ? OR "orgId" = ?) ORDER BY "id"`,
    [values, repo.id, repo.ownerId],
  );
}
