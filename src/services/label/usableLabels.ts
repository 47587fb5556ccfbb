// The labels an issue of a repository may carry: the repository's own and its organization's (Gitea's validity rule).
import type { DbLike, Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';

/** What the label writes need of a label: its id, and its name and flag for exclusive scopes. */
export type UsableLabel = Pick<Models.Label, 'id' | 'name' | 'exclusive'>;

const COLUMNS = 'SELECT "id", "name", "exclusive" FROM "Label"';
const USABLE = '("repoId" = ? OR "orgId" = ?)';

/** The labels among `ids` usable on `repo`, in no particular order (unknown and foreign ones left out). */
export function usableLabelsById(
  db: DbLike,
  repo: Pick<Models.Repository, 'id' | 'ownerId'>,
  ids: readonly number[],
): Promise<UsableLabel[]> {
  if (!ids.length) return Promise.resolve([]);
  return readRows<'Label', UsableLabel>(db, 'Label', `${COLUMNS} WHERE "id" IN (?) AND ${USABLE}`, [ids, repo.id, repo.ownerId]);
}

/** The labels named `names` usable on `repo`, by id (a name may be both the repository's and its organization's). */
export function usableLabelsByName(
  db: DbLike,
  repo: Pick<Models.Repository, 'id' | 'ownerId'>,
  names: readonly string[],
): Promise<UsableLabel[]> {
  if (!names.length) return Promise.resolve([]);
  return readRows<'Label', UsableLabel>(db, 'Label', `${COLUMNS} WHERE "name" IN (?) AND ${USABLE} ORDER BY "id"`, [
    names,
    repo.id,
    repo.ownerId,
  ]);
}
