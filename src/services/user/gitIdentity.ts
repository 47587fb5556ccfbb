import type { Models } from '../../db/client.ts';
import type { GitIdentity } from '../../git/identity.ts';
import { ValidationError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';

/** Gitea User.GitName: the full name if usable, else the login. */
export function gitName(user: Models.User): string {
  const safe = (s: string) => s.replace(/[<>\n\0]/g, '').trim();
  return safe(user.fullName) || safe(user.name) || `user-${user.id}`;
}

/**
 * The committer identity of a merge made by `user` with GitHub's `authorEmail`: one of their activated e-mail
 * addresses (their git signature's when empty).
 * @throws ValidationError naming authorEmail
 */
export async function signatureWithEmail(cx: ServiceContext, user: Models.User, when: Date, authorEmail: string): Promise<GitIdentity> {
  const sig = gitSignature(cx, user, when);
  if (!authorEmail) return sig;
  const own = await cx.db.emailAddress.findFirst({
    where: { userId: user.id, lowerEmail: authorEmail.toLowerCase(), isActivated: true },
    select: { email: true },
  });
  if (!own) throw new ValidationError('authorEmail: not an activated e-mail address of the merging user', { field: 'authorEmail' });
  return { ...sig, email: own.email.replace(/[<>\n\0]/g, '') };
}

/** Gitea User.NewGitSig: the git name and the e-mail (the no-reply placeholder when it is kept private). */
export function gitSignature(cx: ServiceContext, user: Models.User, when: Date): GitIdentity {
  const email = user.keepEmailPrivate ? `${user.lowerName}@${cx.config.noReplyAddress}` : user.email;
  return { name: gitName(user), email: email.replace(/[<>\n\0]/g, ''), when, tz: '+0000' };
}
