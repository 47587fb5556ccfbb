// Runner and task tokens: 40 hex characters, stored as sha256 with a per-row salt (never in clear).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new secret token and what the database keeps of it. */
export function newSaltedToken(): { token: string; salt: string; hash: string } {
  const token = randomBytes(20).toString('hex');
  const salt = randomBytes(10).toString('hex');
  return { token, salt, hash: hashToken(token, salt) };
}

export function hashToken(token: string, salt: string): string {
  return createHash('sha256').update(`${salt}\0${token}`).digest('hex');
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatches(token: string, salt: string, hash: string): boolean {
  const a = Buffer.from(hashToken(token, salt), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A registration token's lookup key (registration tokens are looked up by value, so unsalted). */
export const registrationTokenKey = (token: string): string => createHash('sha256').update(token).digest('hex');
