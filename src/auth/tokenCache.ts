import type { Models } from '../db/client.ts';
import type { AuthInvalidation } from '../db/authInvalidation.ts';

/** What a successful token lookup found: the token's facts and its user's row. */
export interface CachedToken {
  /** The access token row; null for an OAuth2 access token (a JWT, stored nowhere). */
  tokenId: number | null;
  /** The Gitea token scope it acts with (comma list). */
  scope: string;
  user: Models.User;
  /** When lastUsedAt was last written (ms), so a warm token is not written on every request. */
  lastUsedAt: number;
  /** When it stops working (ms); null for access tokens, which do not expire. */
  expiresAt: number | null;
}

const MAX_ENTRIES = 10_000;

/**
 * Token hash → user, so a token-authenticated request on a warm server runs no statement for authentication.
 * Correct across processes and instances: every lookup first asks the invalidation source (db/authInvalidation)
 * for the current generation and forgets everything when it moved (a user changed or was deleted, a token was
 * revoked or re-scoped, an OAuth2 grant was revoked, anywhere); without a generation (listener down, triggers missing) nothing is cached.
 * An entry is stored only when the generation did not move while it was being loaded.
 */
export class TokenCache {
  readonly #entries = new Map<string, CachedToken>();
  #generation: string | null = null;
  /** Writes this process made (db/authWrites.ts), counted before their commit reaches the source. */
  #local = 0;

  constructor(private readonly source: AuthInvalidation) {}

  /** A user or token was written by this process: forget everything now. */
  invalidate(): void {
    this.#local++;
    this.generation();
  }

  /** The generation to pass to `set` after loading; read it before the load. */
  generation(): string | null {
    const g = this.source.generation();
    const current = g === null ? null : `${g}/${this.#local}`;
    if (current !== this.#generation) {
      this.#entries.clear();
      this.#generation = current;
    }
    return current;
  }

  /** The cached lookup of `tokenHash`, when still valid. */
  get(tokenHash: string): CachedToken | undefined {
    if (this.generation() === null) return undefined;
    return this.#entries.get(tokenHash);
  }

  /** Remembers a lookup made at `generation` (from `generation()` before loading), unless anything changed since. */
  set(tokenHash: string, entry: CachedToken, generation: string | null): void {
    if (generation === null || this.generation() !== generation) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(tokenHash, entry);
  }
}
