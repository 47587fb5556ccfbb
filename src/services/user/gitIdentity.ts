import type { Models } from '../../db/client.ts';
import type { GitIdentity } from '../../git/identity.ts';
import type { ServiceContext } from '../context.ts';

/** Gitea User.GitName: the full name if usable, else the login. */
export function gitName(user: Models.User): string {
  const safe = (s: string) => s.replace(/[<>\n\0]/g, '').trim();
  return safe(user.fullName) || safe(user.name) || `user-${user.id}`;
}

/** Gitea User.NewGitSig: the git name and the e-mail (the no-reply placeholder when it is kept private). */
export function gitSignature(cx: ServiceContext, user: Models.User, when: Date): GitIdentity {
  const email = user.keepEmailPrivate ? `${user.lowerName}@${cx.config.noReplyAddress}` : user.email;
  return { name: gitName(user), email: email.replace(/[<>\n\0]/g, ''), when, tz: '+0000' };
}
