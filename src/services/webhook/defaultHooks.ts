// Gitea CopyDefaultWebhooksToRepo: the site's default hooks are copied into every new repository.
import type { DbTx } from '../../db/client.ts';

/** Copies each default hook (site hook, not a system hook) into the repository, in the creating transaction. */
export async function copyDefaultHooks(tx: DbTx, repoId: number): Promise<number> {
  const defaults = await tx.webhook.findMany({ where: { repoId: null, ownerId: null, isSystemWebhook: false }, orderBy: { id: 'asc' } });
  if (!defaults.length) return 0;
  const { count } = await tx.webhook.createMany({
    data: defaults.map(({ id: _id, createdAt: _c, updatedAt: _u, lastStatus: _s, ...hook }) => ({
      ...hook,
      repoId,
      lastStatus: 'NONE' as const,
    })),
  });
  return count;
}
