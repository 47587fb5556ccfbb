import DataLoader from 'dataloader';
import type { Db, Models } from '../db/client.ts';

type User = Models.User;

/** Per-request DataLoaders: one batched query per kind of lookup, however many nodes ask. */
export interface Loaders {
  userById: DataLoader<number, User | null>;
}

/** Creates a fresh set of loaders (one per request; never share across viewers). */
export function createLoaders(db: Db): Loaders {
  return {
    userById: new DataLoader(async (ids: readonly number[]) => {
      const rows = await db.user.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((u) => [u.id, u]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
