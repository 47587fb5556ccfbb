import { hash, verify } from '@node-rs/argon2';
import { createHash, randomBytes } from 'node:crypto';

/** Hashes a password with argon2id (OWASP parameters); returns a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

// Basic auth sends the password on every request (git clients make many): remember recent
// successful verifications briefly instead of paying ~20 ms of argon2 each time. The key binds
// the user's current hash, so a password change invalidates it.
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 1_000;
const verified = new Map<string, number>();

/** Verifies a password against a stored PHC hash; false for an empty hash (password sign-in disabled). */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  if (!storedHash) return false;
  const key = createHash('sha256').update(storedHash).update('\0').update(password).digest('hex');
  const until = verified.get(key);
  if (until !== undefined && until > Date.now()) return true;
  let ok: boolean;
  try {
    ok = await verify(storedHash, password);
  } catch {
    ok = false;
  }
  if (ok) {
    if (verified.size >= VERIFIED_MAX) verified.clear();
    verified.set(key, Date.now() + VERIFIED_TTL_MS);
  }
  return ok;
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password for a sign-in. Without a usable hash (unknown user, organization, password
 * sign-in disabled) it verifies against a dummy hash of the same parameters and answers false, so that
 * every failure costs one argon2 verification and timing does not tell which accounts exist.
 */
export async function verifySignInPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash) return verifyPassword(storedHash, password);
  dummyHash ??= hashPassword(randomBytes(32).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}
