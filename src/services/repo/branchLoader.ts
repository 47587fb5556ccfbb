// Branches by name for the doors that name them from other rows (a pull request's base and head branch), batched.
import DataLoader from 'dataloader';
import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { branchReadWhere } from './visibility.ts';

/** A branch of a repository, by name. */
export interface BranchKey {
  repoId: number;
  name: string;
}

/**
 * Per request: live (not deleted) branches by repository and name, through the read policy of branches (code
 * readable), one query for every key asked in the same tick; null when absent or unreadable.
 */
export function branchByNameLoader(cx: ServiceContext): DataLoader<BranchKey, Models.Branch | null, string> {
  return new DataLoader(
    async (keys: readonly BranchKey[]) => {
      const rows = await cx.db.branch.findMany({
        where: { AND: [{ isDeleted: false }, branchReadWhere(cx), { OR: keys.map((k) => ({ repoId: k.repoId, name: k.name })) }] },
      });
      const byKey = new Map(rows.map((b) => [`${b.repoId}\0${b.name}`, b]));
      return keys.map((k) => byKey.get(`${k.repoId}\0${k.name}`) ?? null);
    },
    { cacheKeyFn: (k) => `${k.repoId}\0${k.name}` },
  );
}
