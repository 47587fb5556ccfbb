/**
 * Readers-writer locks of one process, by key: any number of shared holders or one exclusive holder. Waiters are
 * served in arrival order, so a shared request arriving after a waiting exclusive one waits behind it (a stream
 * of shared holders cannot starve an exclusive writer). A waiter that gives up leaves the queue; the others keep
 * their places. A key with no holder and no waiter keeps no state.
 */
export class LocalRwLocks<K> {
  readonly #states = new Map<K, LockState>();

  /**
   * Resolves with the release function once `key` is held in `mode`; rejects with `onTimeout()` when it is not
   * held within `waitMs` (and then holds nothing).
   */
  acquire(key: K, mode: LockMode, waitMs: number, onTimeout: () => Error): Promise<() => void> {
    let state = this.#states.get(key);
    if (!state) this.#states.set(key, (state = { shared: 0, exclusive: false, queue: [] }));
    const s = state;
    const release = () => {
      if (mode === 'shared') s.shared--;
      else s.exclusive = false;
      this.#pump(key, s);
    };
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        mode,
        grant: () => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        const at = s.queue.indexOf(waiter);
        if (at < 0) return;
        s.queue.splice(at, 1);
        // An exclusive waiter at the head may have held back shared ones that can go now.
        this.#pump(key, s);
        reject(onTimeout());
      }, waitMs);
      s.queue.push(waiter);
      this.#pump(key, s);
    });
  }

  /** Grants the queue's head while it is compatible with the holders; forgets an idle key. */
  #pump(key: K, s: LockState): void {
    for (let next = s.queue[0]; next; next = s.queue[0]) {
      if (s.exclusive || (next.mode === 'exclusive' && s.shared > 0)) break;
      s.queue.shift();
      if (next.mode === 'shared') s.shared++;
      else s.exclusive = true;
      next.grant();
    }
    if (!s.exclusive && s.shared === 0 && !s.queue.length && this.#states.get(key) === s) this.#states.delete(key);
  }

  /** Keys with a holder or a waiter (for tests: idle keys keep nothing). */
  get size(): number {
    return this.#states.size;
  }
}

export type LockMode = 'shared' | 'exclusive';

interface Waiter {
  mode: LockMode;
  grant: () => void;
}

interface LockState {
  shared: number;
  exclusive: boolean;
  queue: Waiter[];
}
