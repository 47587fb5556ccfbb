import { createHash } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { pgModule } from '../lazyPackage.ts';
import { LocalRwLocks } from './localRwLock.ts';
import type { DbProvider } from './migrate/engine.ts';

/**
 * PostgreSQL connections for the advisory locks: the sections that can hold locks at once in one instance (idle
 * connections close after 10 s). Beyond it a writer waits for a connection, at most REPO_LOCK_TIMEOUT.
 */
const LOCK_CONNECTIONS = 32;

/** The default REPO_LOCK_TIMEOUT: how long a writer waits for a repository's lock before giving up. */
const DEFAULT_REPO_LOCK_WAIT_MS = 120_000;

/** A ref section naming more refs than this takes the whole repository instead (a mirror push, `git push --all`). */
const MAX_REF_LOCKS = 16;

/**
 * On PostgreSQL every repository falls in one of REPO_BUCKETS buckets (its id modulo the count), each an advisory lock
 * too. A section takes its repositories' buckets shared and then their own locks; a section of more than
 * MAX_REPO_LOCKS repositories (an account's rename) takes their buckets exclusive and no lock of its own per
 * repository. One lock per repository put a call per repository in the statement's select list, which PostgreSQL
 * refuses past 1,664 entries (an account of more repositories could not be renamed), and filled the server's lock
 * table (max_locks_per_transaction 64 × connections) past ~12,000. The statement's calls (buckets, repositories,
 * refs) now stay under 1,664.
 */
const REPO_BUCKETS = 1024;
const MAX_REPO_LOCKS = 64;

/**
 * A writer waited longer than the limit for a repository's lock (another write held it: a long push, or a hung
 * hook). Nothing was written; every door answers it as a busy database (503 with Retry-After).
 */
export class RepoLockTimeoutError extends Error {
  readonly code = 'REPO_LOCK_TIMEOUT';
  constructor(waitMs: number) {
    super(`the repository is busy: another write held it longer than REPO_LOCK_TIMEOUT (${waitMs} ms); nothing was written, retry`);
    this.name = 'RepoLockTimeoutError';
  }
}

/** Observes how long writers waited for and held a repository lock (metrics). */
export type RepoLockObserver = (e: { waitedMs: number; heldMs: number }) => void;

/** What the current async call chain holds of one repository: all of it, or some of its refs. */
type Hold = { whole: true } | { whole: false; refs: ReadonlySet<string> };

/**
 * Serializes the git writes of one repository. A section holds either the whole repository (mirror syncs, wiki
 * writes, a write to an empty repository, the reinitialisation of a missing one, the moves and removal of its
 * directories; the whole of several at once for an account's rename, `runRepos`) or some of its refs (`runRefs`:
 * pushes, merges, ref moves through the API; services/repo/refLocks.ts): sections of different refs run at once, a
 * whole-repository section runs alone. In this process: readers-writer locks by repository (shared by ref sections,
 * exclusive for the whole) and exclusive locks by ref, served in arrival order.
 * On PostgreSQL the same across every instance sharing the database: session advisory locks, the repository's keyed
 * by the installation's lock class and the repository id (so installations in other schemas of the same database
 * never wait for each other), a ref's by a 64-bit hash of the three (PostgreSQL keeps the two key spaces apart),
 * taken on a connection of a small dedicated pool, one connection per section; a killed instance's locks end with
 * its connection; the repositories' buckets (REPO_BUCKETS) bound what a section of thousands of repositories takes.
 * Locks are taken in one order, the buckets first, then the repositories (ascending), then the refs sorted, so
 * sections never wait for each other in a circle. Re-entrant within one async call chain (a merge that deletes its
 * head branch does not wait for itself); a ref section cannot take its whole repository (that would wait for
 * itself). A writer that cannot get its locks within `waitMs` fails with RepoLockTimeoutError and its section never
 * runs.
 */
export class RepoLocks {
  readonly #repos = new LocalRwLocks<number>();
  readonly #refs = new LocalRwLocks<string>();
  readonly #held = new AsyncLocalStorage<ReadonlyMap<number, Hold>>();
  readonly #pool: pg.Pool | null;
  #observer: RepoLockObserver | null = null;
  #active = 0;
  #idle: Array<() => void> = [];

  readonly #waitMs: number;
  readonly #lockClass: number;

  /** `lockClass`: the installation's (src/db/installation.ts), the same in every process of the installation. */
  constructor(provider: DbProvider, url: string, opts: { lockClass: number; waitMs?: number; connections?: number }) {
    this.#waitMs = opts.waitMs ?? DEFAULT_REPO_LOCK_WAIT_MS;
    this.#lockClass = opts.lockClass;
    // A section holds its connection from acquisition to release: the pool must hold one per section running at
    // once, or a writer of one repository would wait for the writers of others to finish.
    this.#pool =
      provider === 'postgresql'
        ? new (pgModule().Pool)({
            connectionString: url,
            max: opts.connections ?? LOCK_CONNECTIONS,
            idleTimeoutMillis: 10_000,
            // A writer waiting for a connection (every one held by a section) gives up with the lock's limit.
            connectionTimeoutMillis: this.#waitMs,
          })
        : null;
    // An idle connection that breaks (the database restarted) must not crash the process.
    this.#pool?.on('error', () => undefined);
  }

  /** Reports each lock's wait and hold times (set once by the app). */
  observe(observer: RepoLockObserver): void {
    this.#observer = observer;
  }

  /** Sections running or waiting now (graceful shutdown waits for 0). */
  get active(): number {
    return this.#active;
  }

  /** Resolves once no section runs or waits. */
  idle(): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Runs `fn` holding the whole of repository `repoId`. */
  run<T>(repoId: number, fn: () => Promise<T>): Promise<T> {
    return this.runRepos([repoId], fn);
  }

  /**
   * Runs `fn` holding the whole of every repository of `repoIds` (an account rename moves all of its repositories'
   * directories), taken in ascending order in one section: on PostgreSQL one connection and one statement, however
   * many they are. Those the call chain holds whole already are not taken again; a chain holding refs of one of
   * them, or holding another repository (taking more then could wait in a circle), is refused.
   */
  runRepos<T>(repoIds: readonly number[], fn: () => Promise<T>): Promise<T> {
    const held = this.#held.getStore();
    const wanted = [...new Set(repoIds)].filter((id) => !held?.get(id)?.whole).sort((a, b) => a - b);
    if (!wanted.length) return fn();
    const refHeld = wanted.find((id) => held?.has(id));
    if (refHeld !== undefined) {
      return Promise.reject(new Error(`a section holding refs of repository ${refHeld} cannot take the whole repository`));
    }
    if (wanted.length > 1 && held?.size) {
      return Promise.reject(new Error('a section holding a repository cannot take several more'));
    }
    return this.#section(wanted, null, fn);
  }

  /**
   * Runs `fn` holding refs `refs` of repository `repoId` (full names): sections of other refs of the repository run
   * beside it, a section of the whole repository waits for it. No refs, or more than MAX_REF_LOCKS: the whole.
   */
  runRefs<T>(repoId: number, refs: readonly string[], fn: () => Promise<T>): Promise<T> {
    const hold = this.#held.getStore()?.get(repoId);
    if (hold?.whole || (hold && refs.every((r) => hold.refs.has(r)))) return fn();
    if (hold) return Promise.reject(new Error(`a section holding refs of repository ${repoId} cannot take more of them`));
    const wanted = [...new Set(refs)].sort();
    if (!wanted.length || wanted.length > MAX_REF_LOCKS) return this.#section([repoId], null, fn);
    return this.#section([repoId], wanted, fn);
  }

  /**
   * Acquires (the repositories in ascending order, then the refs in order: refs only with one repository), runs `fn`
   * with the hold recorded, releases.
   */
  async #section<T>(repoIds: readonly number[], refs: string[] | null, fn: () => Promise<T>): Promise<T> {
    this.#active++;
    const queued = performance.now();
    const releases: Array<() => void | Promise<void>> = [];
    try {
      const left = () => Math.max(1, this.#waitMs - (performance.now() - queued));
      const timeout = () => new RepoLockTimeoutError(this.#waitMs);
      for (const repoId of repoIds) releases.push(await this.#repos.acquire(repoId, refs ? 'shared' : 'exclusive', left(), timeout));
      for (const ref of refs ?? []) releases.push(await this.#refs.acquire(`${repoIds[0]}\n${ref}`, 'exclusive', left(), timeout));
      releases.push(await this.#acquireShared(repoIds, refs, left));
      const start = performance.now();
      const outer = this.#held.getStore();
      const held = new Map(outer);
      for (const repoId of repoIds) held.set(repoId, refs ? { whole: false, refs: new Set(refs) } : { whole: true });
      try {
        return await this.#held.run(held, fn);
      } finally {
        this.#observer?.({ waitedMs: start - queued, heldMs: performance.now() - start });
      }
    } finally {
      for (const release of releases.reverse()) await release();
      if (--this.#active === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** The cross-instance part: PostgreSQL session advisory locks (nothing on SQLite, whose writers share one process). */
  async #acquireShared(repoIds: readonly number[], refs: string[] | null, left: () => number): Promise<() => Promise<void>> {
    if (!this.#pool) return async () => undefined;
    const client = await this.#pool.connect().catch((err: unknown) => {
      // pg-pool's wait for a free connection ran out (connectionTimeoutMillis): as busy as a held lock.
      if (err instanceof Error && /timeout exceeded when trying to connect/.test(err.message)) throw new RepoLockTimeoutError(this.#waitMs);
      throw err;
    });
    // Every lock in one statement, in the section's order (PostgreSQL evaluates a select list left to right): one
    // round trip, where a statement per lock took one each. statement_timeout bounds the whole wait with the time left
    // of the writer's (lock_timeout would bound each lock's); the same message resets it to the session's default, or
    // it is rolled back with the statement when that fails. Every value is a number.
    // Buckets first (ascending, negative keys beside the repositories' ids), then the repositories.
    const bucketed = repoIds.length > MAX_REPO_LOCKS;
    const buckets = [...new Set(repoIds.map((id) => id % REPO_BUCKETS))].sort((a, b) => a - b);
    const calls = [
      ...buckets.map((b) => `pg_advisory_lock${bucketed ? '' : '_shared'}(${this.#lockClass}, ${-1 - b})`),
      ...(bucketed ? [] : repoIds).map((id) =>
        refs ? `pg_advisory_lock_shared(${this.#lockClass}, ${id})` : `pg_advisory_lock(${this.#lockClass}, ${id})`,
      ),
      // Sorted by name by the caller; the keys' order does not matter, only that every section takes them in one order.
      ...(refs ?? []).map((ref) => `pg_advisory_lock(${this.#refKey(repoIds[0]!, ref)}::bigint)`),
    ];
    try {
      await client.query(`SET statement_timeout = ${Math.round(left())}; SELECT ${calls.join(', ')}; RESET statement_timeout`);
    } catch (err) {
      // The locks taken before the failure are the session's: the connection is discarded, which ends them.
      client.release(err as Error);
      // 57014 query_canceled: another instance held a lock past the limit.
      if ((err as { code?: string }).code === '57014') throw new RepoLockTimeoutError(this.#waitMs);
      throw err;
    }
    return async () => {
      try {
        await client.query('SELECT pg_advisory_unlock_all()');
        client.release();
      } catch (err) {
        // A connection that cannot unlock is discarded: closing it ends the locks.
        client.release(err as Error);
      }
    };
  }

  /** A ref's advisory lock key: the first 8 bytes of a hash of the installation's class, the repository and the ref. */
  #refKey(repoId: number, ref: string): string {
    return createHash('sha256').update(`${this.#lockClass}\n${repoId}\n${ref}`).digest().readBigInt64BE(0).toString();
  }

  /** Closes the lock connections (after the sections finished). */
  async close(): Promise<void> {
    await this.idle();
    await this.#pool?.end();
  }
}
