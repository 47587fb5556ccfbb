import DataLoader from 'dataloader';
import { usersByIds } from './usersByIds.ts';
import type { Db, Models } from '../db/client.ts';
import type { RepoPermission } from '../permissions/repoPermission.ts';
import { orgStandingLoader, repoPermissionLoader, type OrgStanding, type ReachFacts, type RepoFacts } from './permissionLoaders.ts';

type User = Models.User;

/** Per-request DataLoaders: one batched query per kind of lookup, however many nodes ask. */
export interface Loaders {
  userById: DataLoader<number, User | null>;
  /** The viewer's RepoPermission per repository id. */
  repoPermission: DataLoader<number, RepoPermission>;
  /** Access facts of repositories this request already loaded (RepoFacts): repoPermission reuses them. */
  repoFacts: Map<number, RepoFacts>;
  /** The viewer's standing (member, owner, teams) per organization id. */
  orgStanding: DataLoader<number, OrgStanding>;
  /** Every access token of a user, newest first (no permission check: callers are services). */
  accessTokensByUser: DataLoader<number, Models.AccessToken[]>;
  /**
   * The repository a REST request's path names, as the path preflight found it with the viewer's permission
   * (src/rest/preflight.ts): the request's first requireRepo takes it instead of reading both again. Taken once,
   * and forgotten by any transaction (withTx), so nothing reads it after a write.
   */
  pathRepo: { key: string; repo: Models.Repository; perm: RepoPermission; facts?: RepoFacts } | null;
}

/** Creates a fresh set of loaders (one per request; never share across viewers or credentials). */
export function createLoaders(db: Db, viewer: User | null, reach: ReachFacts = {}): Loaders {
  const repoFacts = new Map<number, RepoFacts>();
  return {
    repoPermission: repoPermissionLoader(db, viewer, reach, repoFacts),
    repoFacts,
    pathRepo: null,
    orgStanding: orgStandingLoader(db, viewer),
    accessTokensByUser: new DataLoader(async (userIds: readonly number[]) => {
      const rows = await db.accessToken.findMany({ where: { userId: { in: [...userIds] } }, orderBy: { id: 'desc' } });
      return userIds.map((id) => rows.filter((r) => r.userId === id));
    }),
    userById: new DataLoader(async (ids: readonly number[]) => {
      // On the read path: posters, authors, assignees and reactors of a whole page ask here at once.
      const rows = await usersByIds(db, ids);
      const byId = new Map(rows.map((u) => [u.id, u]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
