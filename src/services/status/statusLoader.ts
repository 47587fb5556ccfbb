import DataLoader from 'dataloader';
import type { Db } from '../../db/client.ts';
import type { CommitStatusView } from './commitStatus.ts';
import { latestPerContext } from './rollup.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';

/** A commit of a repository. */
export interface CommitKey {
  repoId: number;
  sha: string;
}

/**
 * Per request: the latest status of each context of many commits (with creators) in one query, for commits the
 * caller has read through the code read policy (as GET …/commits/{ref}/status).
 */
export function latestStatusesLoader(db: Db): DataLoader<CommitKey, CommitStatusView[], string> {
  return new DataLoader(
    async (keys: readonly CommitKey[]) => {
      const rows = await db.commitStatus.findMany({
        where: { OR: keys.map((k) => ({ repoId: k.repoId, sha: k.sha })) },
        orderBy: { index: 'asc' },
        include: { creator: true },
      });
      return keys.map((k) => latestPerContext(rows.filter((r) => r.repoId === k.repoId && r.sha === k.sha)));
    },
    { cacheKeyFn: (k) => `${k.repoId}:${k.sha}` },
  );
}

/**
 * Commit statuses by id, for node(id:): only those of repositories whose code the viewer can read (the read policy
 * of GET …/commits/{ref}/statuses), with creators, in one query; null for the others.
 */
export async function statusesById(cx: ServiceContext, ids: readonly number[]): Promise<(CommitStatusView | null)[]> {
  const wanted = ids.filter((id) => id > 0);
  const rows = wanted.length
    ? await cx.db.commitStatus.findMany({
        where: { id: { in: wanted }, repo: repoReadWhere(cx, ['CODE']) },
        include: { creator: true },
      })
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}
