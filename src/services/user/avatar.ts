import { createHash } from 'node:crypto';
import type { Models } from '../../db/client.ts';

/** The avatar URL of an account, served by /avatars/{hash} (an identicon unless a custom avatar is set). */
export function avatarUrl(user: Pick<Models.User, 'id' | 'email' | 'avatar'>, rootUrl: string): string {
  const hash =
    user.avatar ||
    createHash('md5')
      .update(user.email.toLowerCase() || `user-${user.id}`)
      .digest('hex');
  return `${rootUrl}avatars/${hash}`;
}
