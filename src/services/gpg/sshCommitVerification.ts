// SSH-signed commits and tags (Gitea asymkey ParseCommitWithSSHSignature): the signature verifies when one of the
// committer's *verified* SSH keys made it (namespace "git") and the committer e-mail is one of their activated
// addresses; otherwise Gitea's reason is gpg.error.no_gpg_keys_found whatever went wrong. The graph's finer state
// (GitHub's GitSignatureState) says which: a malformed signature, a bad one, an unverified key or e-mail.
import { sshFingerprint } from '../../auth/sshKey.ts';
import type { Models } from '../../db/client.ts';
import type { CommitSignature } from '../../git/commitSignature.ts';
import type { ServiceContext } from '../context.ts';
import { sshSignedBy } from './signatureCache.ts';
import { keyBlobOf, readSshSignature } from './sshSignature.ts';
import { groupBy } from '../../groupBy.ts';

/** The committer a commit's e-mail names, and whether that e-mail is one of their activated addresses. */
export interface Committer {
  user: Models.User;
  activated: boolean;
}

/** What checking an SSH signature found. */
export type SshOutcome =
  | { verified: true; key: Models.PublicKey; fingerprint: string }
  | { verified: false; fingerprint: string; state: 'MALFORMED_SIG' | 'INVALID' | 'UNKNOWN_KEY' | 'UNVERIFIED_EMAIL' | 'NO_USER' };

/** The SSH keys of users (Gitea ListPublicKeys: all their keys but principals), by owner, oldest first. */
export async function sshKeysOf(cx: ServiceContext, ownerIds: readonly number[]): Promise<Map<number, Models.PublicKey[]>> {
  if (!ownerIds.length) return new Map();
  const rows = await cx.db.publicKey.findMany({
    where: { ownerId: { in: [...ownerIds] }, type: { not: 'PRINCIPAL' } },
    orderBy: { id: 'asc' },
  });
  return groupBy(rows, (r) => r.ownerId ?? undefined);
}

/** Checks the SSH signature of `c` against the keys of its committer. */
export function verifySshSigned(c: CommitSignature, committer: Committer | undefined, keys: readonly Models.PublicKey[]): SshOutcome {
  const sig = readSshSignature(c.signature ?? '');
  if (!sig) return { verified: false, fingerprint: '', state: 'MALFORMED_SIG' };
  const fingerprint = sshFingerprint(sig.publicKey);
  if (!committer) return { verified: false, fingerprint, state: 'NO_USER' };
  if (committer.activated) {
    for (const k of keys) {
      if (k.verified && sshSignedBy(c.sha, k.content, c.payload, sig)) return { verified: true, key: k, fingerprint: k.fingerprint };
    }
  }
  const own = keys.find((k) => keyBlobOf(k.content)?.equals(sig.publicKey));
  if (!own) return { verified: false, fingerprint, state: 'UNKNOWN_KEY' };
  if (!committer.activated) return { verified: false, fingerprint, state: 'UNVERIFIED_EMAIL' };
  return { verified: false, fingerprint, state: own.verified ? 'INVALID' : 'UNKNOWN_KEY' };
}
