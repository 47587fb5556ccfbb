import DataLoader from 'dataloader';
import { usersByIds } from './usersByIds.ts';
import type { Db, Models } from '../db/client.ts';
import type { RepoPermission } from '../permissions/repoPermission.ts';
import {
  orgStandingLoader,
  permissionFromFacts,
  repoPermissionLoader,
  type OrgStanding,
  type ReachFacts,
  type RepoFacts,
} from './permissionLoaders.ts';

type User = Models.User;

/** Per-request DataLoaders: one batched query per kind of lookup, however many nodes ask. */
export interface Loaders {
  userById: DataLoader<number, User | null>;
  /** The viewer's RepoPermission per repository id. */
  repoPermission: DataLoader<number, RepoPermission>;
  /** Access facts of repositories this request already loaded (RepoFacts): repoPermission reuses them. */
  repoFacts: Map<number, RepoFacts>;
  /**
   * The viewer's permission on a repository whose facts decide it alone (permissionFromFacts), computed now and
   * kept as repoPermission's answer for the request (unless it has one); null when the loader must read rows.
   */
  permissionFromFacts(facts: RepoFacts): RepoPermission | null;
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

/**
 * Creates a fresh set of loaders (one per request; never share across viewers or credentials). Each loader is made
 * on first use: most REST requests use one or two of them, and every request makes a set.
 */
export function createLoaders(db: Db, viewer: User | null, reach: ReachFacts = {}): Loaders {
  return new RequestLoaders(db, viewer, reach);
}

class RequestLoaders implements Loaders {
  readonly repoFacts = new Map<number, RepoFacts>();
  pathRepo: Loaders['pathRepo'] = null;
  readonly #db: Db;
  readonly #viewer: User | null;
  readonly #reach: ReachFacts;
  #repoPermission?: DataLoader<number, RepoPermission>;
  #orgStanding?: DataLoader<number, OrgStanding>;
  #accessTokensByUser?: DataLoader<number, Models.AccessToken[]>;
  #userById?: DataLoader<number, User | null>;

  constructor(db: Db, viewer: User | null, reach: ReachFacts) {
    this.#db = db;
    this.#viewer = viewer;
    this.#reach = reach;
  }

  get repoPermission(): DataLoader<number, RepoPermission> {
    return (this.#repoPermission ??= repoPermissionLoader(this.#db, this.#viewer, this.#reach, this.repoFacts));
  }

  permissionFromFacts(facts: RepoFacts): RepoPermission | null {
    const perm = permissionFromFacts(this.#viewer, this.#reach, facts);
    if (perm) this.repoPermission.prime(facts.id, perm);
    return perm;
  }

  get orgStanding(): DataLoader<number, OrgStanding> {
    return (this.#orgStanding ??= orgStandingLoader(this.#db, this.#viewer));
  }

  get accessTokensByUser(): DataLoader<number, Models.AccessToken[]> {
    const db = this.#db;
    return (this.#accessTokensByUser ??= new DataLoader(async (userIds: readonly number[]) => {
      const rows = await db.accessToken.findMany({ where: { userId: { in: [...userIds] } }, orderBy: { id: 'desc' } });
      return userIds.map((id) => rows.filter((r) => r.userId === id));
    }));
  }

  get userById(): DataLoader<number, User | null> {
    const db = this.#db;
    return (this.#userById ??= new DataLoader(async (ids: readonly number[]) => {
      // On the read path: posters, authors, assignees and reactors of a whole page ask here at once.
      const rows = await usersByIds(db, ids);
      const byId = new Map(rows.map((u) => [u.id, u]));
      return ids.map((id) => byId.get(id) ?? null);
    }));
  }
}
