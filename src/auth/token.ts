import { createHash, randomBytes } from 'node:crypto';

/** A new personal access token: 40 hex characters, like Gitea's. */
export function generateToken(): string {
  return randomBytes(20).toString('hex');
}

/** How tokens are stored: sha256 hex. Tokens carry 160 random bits, so no salt or slow hash is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** True when the string has the shape of one of our tokens (cheap pre-check before a lookup). */
export function looksLikeToken(value: string): boolean {
  return /^[0-9a-f]{40}$/.test(value);
}
