import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db, Models } from '../db/client.ts';

/** How long a browser stays signed in to the OAuth2 pages (Gitea's LOGIN_REMEMBER_DAYS default). */
const SESSION_TTL_MS = 7 * 86_400_000;

function macOf(secretKey: string, userId: number, issuedAt: number, passwordHash: string): Buffer {
  const key = createHmac('sha256', secretKey).update('forgegraph web session').digest();
  return createHmac('sha256', key).update(`${userId}\0${issuedAt}\0${passwordHash}`).digest();
}

/**
 * A signed-in browser session (the OAuth2 sign-in page's cookie): `<user id>.<issued ms>.<mac>`, signed with a key
 * derived from SECRET_KEY. The MAC covers the user's password hash, so changing the password ends every session.
 */
export function issueSession(secretKey: string, user: Pick<Models.User, 'id' | 'passwordHash'>, now = Date.now()): string {
  return `${user.id}.${now}.${macOf(secretKey, user.id, now, user.passwordHash).toString('base64url')}`;
}

/** The user a session cookie signs in, or null when it is malformed, forged, expired or its password changed. */
export async function resolveSession(db: Db, secretKey: string, value: string | undefined, now = Date.now()): Promise<Models.User | null> {
  const m = /^(\d{1,10})\.(\d{1,15})\.([\w-]{43})$/.exec(value ?? '');
  if (!m) return null;
  const userId = Number(m[1]);
  const issuedAt = Number(m[2]);
  if (issuedAt > now || now - issuedAt > SESSION_TTL_MS) return null;
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.type !== 'INDIVIDUAL' || !user.passwordHash) return null;
  const given = Buffer.from(m[3] ?? '', 'base64url');
  const expected = macOf(secretKey, userId, issuedAt, user.passwordHash);
  return given.length === expected.length && timingSafeEqual(given, expected) ? user : null;
}
