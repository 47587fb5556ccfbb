import { createHash, randomBytes } from 'node:crypto';
import type { PasswordHashParams } from './passwordHashSettings.ts';

// argon2 (a native addon, ~10 ms to load) is loaded at the first hash or verification, not with the server: most
// requests carry a token or nothing. Imported, not required, so that what replaces the module in a test replaces it here.
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/** Hashes a password with argon2id (PASSWORD_HASH_ALGO's parameters, OWASP's by default); returns a PHC string. */
export async function hashPassword(password: string, params: PasswordHashParams): Promise<string> {
  return (await loadArgon2()).hash(password, { algorithm: 2 /* Argon2id */, ...params });
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
  const { verify } = await loadArgon2();
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

/** Dummy hashes by their parameters (one per PASSWORD_HASH_ALGO a process has seen). */
const dummyHashes = new Map<string, Promise<string>>();

/**
 * Verifies a password for a sign-in. Without a usable hash (unknown user, organization, password
 * sign-in disabled) it verifies against a dummy hash of the configured parameters (`params`, those new hashes get)
 * and answers false, so that every failure costs one argon2 verification and timing does not tell which accounts exist.
 */
export async function verifySignInPassword(storedHash: string | null, password: string, params: PasswordHashParams): Promise<boolean> {
  if (storedHash) return verifyPassword(storedHash, password);
  const key = JSON.stringify(params);
  let dummy = dummyHashes.get(key);
  if (!dummy) {
    dummy = hashPassword(randomBytes(32).toString('hex'), params);
    dummyHashes.set(key, dummy);
  }
  await verifyPassword(await dummy, password);
  return false;
}
