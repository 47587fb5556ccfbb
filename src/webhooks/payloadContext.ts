// What payload builders share: a system context (deliveries see everything the event touched), Gitea's
// converters, and per-job caches of repositories and users. Payloads show users as anyone would see them
// (Gitea ToUser(…, nil)) and repositories with owner permission (Gitea's webhook notifier).
import type { Models } from '../db/client.ts';
import { ALL_UNITS } from '../permissions/units.ts';
import type { RepoPermission } from '../permissions/repoPermission.ts';
import { convertOptions } from '../rest/convert/options.ts';
import { toApiRepository } from '../rest/convert/repo.ts';
import { toApiGhostUser, toApiUser, type ConvertOptions } from '../rest/convert/user.ts';
import type { Repository } from '../rest/structs/repo.ts';
import type { User } from '../rest/structs/user.ts';
import type { ServiceContext } from '../services/context.ts';
import { loadApiRepos, type ApiRepoRow } from '../services/repo/repoRows.ts';

const OWNER: RepoPermission = { mode: 'OWNER', units: Object.fromEntries(ALL_UNITS.map((u) => [u, 'OWNER'])), blocked: false };

/** Builders' shared state for one event. */
export class PayloadContext {
  readonly cx: ServiceContext;
  readonly opts: ConvertOptions;
  readonly #repos = new Map<number, Promise<ApiRepoRow | null>>();
  readonly #users = new Map<number, Promise<Models.User | null>>();

  constructor(cx: ServiceContext) {
    this.cx = cx;
    this.opts = convertOptions(cx);
  }

  /** The repository row (null when it is gone). */
  repoRow(id: number): Promise<ApiRepoRow | null> {
    let p = this.#repos.get(id);
    if (!p) {
      p = loadApiRepos(this.cx, { where: { id } }).then((rows) => rows[0] ?? null);
      this.#repos.set(id, p);
    }
    return p;
  }

  /** Gitea's Repository JSON with owner permission (null when it is gone). */
  async repo(id: number): Promise<Repository | null> {
    const row = await this.repoRow(id);
    return row ? toApiRepository(row, row.owner, OWNER, this.opts) : null;
  }

  /** A user row (null when deleted). */
  userRow(id: number | null): Promise<Models.User | null> {
    if (id === null || id <= 0) return Promise.resolve(null);
    let p = this.#users.get(id);
    if (!p) {
      p = this.cx.db.user.findUnique({ where: { id } });
      this.#users.set(id, p);
    }
    return p;
  }

  /** Gitea's public User JSON (the ghost user for a deleted account). */
  async user(id: number | null): Promise<User> {
    const row = await this.userRow(id);
    return row ? toApiUser(row, null, this.opts) : toApiGhostUser(this.opts);
  }

  /** A user row as JSON. */
  userJson(row: Models.User): User {
    return toApiUser(row, null, this.opts);
  }
}
