import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { DbProvider } from './migrate/engine.ts';

/** The first key of Forgegraph's repository write locks (pg_advisory_lock(int4, int4)): "FGrp". */
const REPO_LOCK_CLASS = 0x46477270;

/** Observes how long writers waited for and held a repository lock (metrics). */
export type RepoLockObserver = (e: { waitedMs: number; heldMs: number }) => void;

/**
 * Serializes the git writes of one repository (the sections that move refs: receive-pack, merges, API commits):
 * one writer at a time in this process (a promise chain per repository), and on PostgreSQL one across every
 * instance sharing the database (a session advisory lock keyed by the repository id, taken on a connection of a
 * small dedicated pool; a killed instance's lock ends with its connection). Re-entrant within one async call
 * chain, so a merge that deletes its head branch does not wait for itself.
 */
export class RepoLocks {
  readonly #chains = new Map<number, Promise<unknown>>();
  readonly #held = new AsyncLocalStorage<ReadonlySet<number>>();
  readonly #pool: pg.Pool | null;
  #observer: RepoLockObserver | null = null;
  #active = 0;
  #idle: Array<() => void> = [];

  constructor(provider: DbProvider, url: string) {
    this.#pool = provider === 'postgresql' ? new pg.Pool({ connectionString: url, max: 5 }) : null;
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
    const section = previous
      .catch(() => undefined)
      .then(async () => {
        const release = await this.#acquireShared(repoId);
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
    try {
      return await section;
    } finally {
      if (this.#chains.get(repoId) === tail) this.#chains.delete(repoId);
      if (--this.#active === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** The cross-instance part: a PostgreSQL session advisory lock (nothing on SQLite, whose writers share one process). */
  async #acquireShared(repoId: number): Promise<() => Promise<void>> {
    if (!this.#pool) return async () => undefined;
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1, $2)', [REPO_LOCK_CLASS, repoId]);
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
    return async () => {
      try {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [REPO_LOCK_CLASS, repoId]);
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
