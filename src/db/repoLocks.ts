import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { pgModule } from '../lazyPackage.ts';
import type { DbProvider } from './migrate/engine.ts';

/**
 * PostgreSQL connections for the advisory locks: the repositories that can be written at once by one instance
 * (idle connections close after 10 s). Beyond it a writer waits for a connection, within REPO_LOCK_TIMEOUT.
 */
const LOCK_CONNECTIONS = 32;

/** The default REPO_LOCK_TIMEOUT: how long a writer waits for a repository's lock before giving up. */
const DEFAULT_REPO_LOCK_WAIT_MS = 120_000;

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

/**
 * Serializes the git writes of one repository (the sections that move refs: receive-pack, merges, API commits):
 * one writer at a time in this process (a promise chain per repository), and on PostgreSQL one across every
 * instance sharing the database (a session advisory lock keyed by the installation's lock class and the repository
 * id, so installations in other schemas of the same database never wait for it; taken on a connection of a small
 * dedicated pool, one connection per repository being written; a killed instance's lock ends with its connection). Re-entrant within one async call
 * chain, so a merge that deletes its head branch does not wait for itself. A writer that cannot get the lock within
 * `waitMs` fails with RepoLockTimeoutError and its section never runs.
 */
export class RepoLocks {
  readonly #chains = new Map<number, Promise<unknown>>();
  readonly #held = new AsyncLocalStorage<ReadonlySet<number>>();
  readonly #pool: pg.Pool | null;
  #observer: RepoLockObserver | null = null;
  #active = 0;
  #idle: Array<() => void> = [];

  readonly #waitMs: number;
  readonly #lockClass: number;

  /** `lockClass`: the installation's (src/db/installation.ts), the same in every process of the installation. */
  constructor(provider: DbProvider, url: string, opts: { lockClass: number; waitMs?: number }) {
    this.#waitMs = opts.waitMs ?? DEFAULT_REPO_LOCK_WAIT_MS;
    this.#lockClass = opts.lockClass;
    // A section holds its connection from acquisition to release: the pool must hold one per repository being
    // written at once, or a writer of one repository would wait for the writers of others to finish.
    this.#pool =
      provider === 'postgresql' ? new (pgModule().Pool)({ connectionString: url, max: LOCK_CONNECTIONS, idleTimeoutMillis: 10_000 }) : null;
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

  /** Runs `fn` holding the write lock of repository `repoId`. */
  async run<T>(repoId: number, fn: () => Promise<T>): Promise<T> {
    const held = this.#held.getStore();
    if (held?.has(repoId)) return fn();
    this.#active++;
    const queued = performance.now();
    const previous = this.#chains.get(repoId) ?? Promise.resolve();
    let gaveUp = false;
    let timer: NodeJS.Timeout | undefined;
    const section = previous
      .catch(() => undefined)
      .then(async () => {
        clearTimeout(timer);
        if (gaveUp) throw new RepoLockTimeoutError(this.#waitMs);
        const release = await this.#acquireShared(repoId, Math.max(1, this.#waitMs - (performance.now() - queued)));
        const start = performance.now();
        try {
          return await this.#held.run(new Set([...(held ?? []), repoId]), fn);
        } finally {
          await release();
          this.#observer?.({ waitedMs: start - queued, heldMs: performance.now() - start });
        }
      });
    const tail = section.catch(() => undefined);
    this.#chains.set(repoId, tail);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(new RepoLockTimeoutError(this.#waitMs));
      }, this.#waitMs);
    });
    timedOut.catch(() => undefined);
    try {
      // The section clears the timer once its turn comes; after that only the section decides the outcome.
      return await Promise.race([section, timedOut]);
    } finally {
      clearTimeout(timer);
      const settle = () => {
        if (this.#chains.get(repoId) === tail) this.#chains.delete(repoId);
        if (--this.#active === 0) for (const resolve of this.#idle.splice(0)) resolve();
      };
      // A writer that gave up keeps its (empty) place in the chain until its turn has passed, so the writers
      // behind it still wait for the one holding the lock.
      if (gaveUp) void tail.then(settle);
      else settle();
    }
  }

  /** The cross-instance part: a PostgreSQL session advisory lock (nothing on SQLite, whose writers share one process). */
  async #acquireShared(repoId: number, waitMs: number): Promise<() => Promise<void>> {
    if (!this.#pool) return async () => undefined;
    const client = await this.#pool.connect();
    try {
      await client.query(`SET lock_timeout = ${Math.round(waitMs)}`);
      await client.query('SELECT pg_advisory_lock($1, $2)', [this.#lockClass, repoId]);
    } catch (err) {
      client.release(err as Error);
      // 55P03 lock_not_available: another instance held the lock past the limit.
      if ((err as { code?: string }).code === '55P03') throw new RepoLockTimeoutError(this.#waitMs);
      throw err;
    }
    return async () => {
      try {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [this.#lockClass, repoId]);
        client.release();
      } catch (err) {
        // A connection that cannot unlock is discarded: closing it ends the lock.
        client.release(err as Error);
      }
    };
  }

  /** Closes the lock connections (after the sections finished). */
  async close(): Promise<void> {
    await this.idle();
    await this.#pool?.end();
  }
}
