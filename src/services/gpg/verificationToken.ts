// Gitea VerificationToken: what a user signs to prove they hold a GPG key. It changes every minute; the current
// token and the previous minute's are accepted. It is not a secret (the signature is the proof).
import { createHash } from 'node:crypto';
import type { Models } from '../../db/client.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Go's time.RFC1123Z in UTC ("Mon, 02 Jan 2006 15:04:05 +0000"). */
function rfc1123z(d: Date): string {
  return (
    `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`
  );
}

/** The token of `user` valid `minutes` after the current minute (Gitea VerificationToken(user, minutes)). */
export function verificationToken(
  user: Pick<Models.User, 'id' | 'name' | 'email' | 'createdAt'>,
  minutes: number,
  now = new Date(),
): string {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + minutes * 60_000);
  const created = new Date(Math.floor(user.createdAt.getTime() / 1000) * 1000);
  const text = `${rfc1123z(minute)}:${rfc1123z(created)}:${user.name}:${user.email}:${user.id}`;
  return createHash('sha256').update(text).digest('hex');
}

/** The tokens a signature may be over: the current one first, then the previous minute's. */
export function acceptedTokens(user: Pick<Models.User, 'id' | 'name' | 'email' | 'createdAt'>, now = new Date()): [string, string] {
  return [verificationToken(user, 1, now), verificationToken(user, 0, now)];
}
