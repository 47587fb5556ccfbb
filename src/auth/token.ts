import { createHash, randomBytes } from 'node:crypto';

/** A new personal access token: 40 hex characters, like Gitea's. */
export function generateToken(): string {
  return randomBytes(20).toString('hex');
}

/** How tokens are stored: sha256 hex. Tokens carry 160 random bits, so no salt or slow hash is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
