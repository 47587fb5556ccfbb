import type { Models } from '../db/client.ts';
import type { AuthInvalidation } from '../db/authInvalidation.ts';

/** What a successful token lookup found: the token's facts and its user's row. */
export interface CachedToken {
  tokenId: number;
  scope: string;
  user: Models.User;
  /** When lastUsedAt was last written (ms), so a warm token is not written on every request. */
  lastUsedAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Token hash → user, so a token-authenticated request on a warm server runs no statement for authentication.
 * Correct across processes and instances: every lookup first asks the invalidation source (db/authInvalidation)
 * for the current generation and forgets everything when it moved (a user changed or was deleted, a token was
 * revoked or re-scoped, anywhere); without a generation (listener down, triggers missing) nothing is cached.
 * An entry is stored only when the generation did not move while it was being loaded.
 */
export class TokenCache {
  readonly #entries = new Map<string, CachedToken>();
  #generation: number | null = null;

  constructor(private readonly source: AuthInvalidation) {}

  /** The generation to pass to `set` after loading; read it before the load. */
  generation(): number | null {
    const g = this.source.generation();
    if (g !== this.#generation) {
      this.#entries.clear();
      this.#generation = g;
    }
    return g;
  }

  /** The cached lookup of `tokenHash`, when still valid. */
  get(tokenHash: string): CachedToken | undefined {
    if (this.generation() === null) return undefined;
    return this.#entries.get(tokenHash);
  }

  /** Remembers a lookup made at `generation` (from `generation()` before loading), unless anything changed since. */
  set(tokenHash: string, entry: CachedToken, generation: number | null): void {
    if (generation === null || this.generation() !== generation) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(tokenHash, entry);
  }
}
