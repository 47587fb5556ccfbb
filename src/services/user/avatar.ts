import { hash as digestOf } from 'node:crypto';
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError } from '../../errors.ts';
import { memoized } from '../../memo.ts';

/** The largest avatar edge, in pixels, a `size` may ask for. */
export const MAX_AVATAR_SIZE = 2048;

/**
 * The md5 hex of an identicon's seed (Gitea's avatar hash of an e-mail), kept for the accounts converted last: the same
 * few users appear in response after response. A one-shot digest: createHash's object cost twice as much.
 */
const identiconHash = memoized(4096, (seed: string): string => digestOf('md5', seed));

/**
 * The avatar URL of an account, served by /avatars/{hash} (an identicon unless a custom avatar is set); `size`
 * asks for a square of that many pixels (`?size=`, as Gitea's and GitHub's avatar URLs).
 * @throws InvalidArgumentError for a size outside 1…MAX_AVATAR_SIZE
 */
export function avatarUrl(user: Pick<Models.User, 'id' | 'email' | 'avatar'>, rootUrl: string, size?: number | null): string {
  const hash = user.avatar || identiconHash(user.email.toLowerCase() || `user-${user.id}`);
  if (size == null) return `${rootUrl}avatars/${hash}`;
  if (!Number.isInteger(size) || size < 1 || size > MAX_AVATAR_SIZE) {
    throw new InvalidArgumentError(`avatar size must be between 1 and ${MAX_AVATAR_SIZE} pixels`, { size });
  }
  return `${rootUrl}avatars/${hash}?size=${size}`;
}
