// Verifying a user's SSH key (Gitea asymkey VerifySSHKey, offered by Gitea's web settings only): the user signs
// the verification token (GET /user/gpg_key_token, the same token GPG keys use) with the key, in the namespace
// "gitea" (`echo -n TOKEN | ssh-keygen -Y sign -n gitea -f KEY`); the key is then marked verified, which lets it
// vouch for SSH-signed commits. The current token and the previous minute's are accepted, as in Gitea, with or
// without a trailing newline (as gpg_key_verify accepts them).
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { requireNeed } from '../access/writeGate.ts';
import type { ServiceContext } from '../context.ts';
import { readSshSignature, verifySshSignature } from './sshSignature.ts';
import { acceptedTokens } from './verificationToken.ts';
import type { UserKey } from '../user/publicKey.ts';

/**
 * Marks the viewer's SSH key `fingerprint` verified when `armoredSignature` signs a current verification token.
 * @throws UnauthenticatedError, PermissionDeniedError, NotFoundError (no such key of the viewer), ValidationError (422)
 */
export async function verifyMySshKey(cx: ServiceContext, fingerprint: string, armoredSignature: string): Promise<UserKey> {
  const viewer = requireViewer(cx);
  requireNeed(cx, 'write:user', { user: viewer });
  const key = await cx.db.publicKey.findFirst({ where: { ownerId: viewer.id, fingerprint: fingerprint.trim() }, include: { owner: true } });
  if (!key) throw new NotFoundError('public key does not exist', { fingerprint });
  const tokens = acceptedTokens(viewer);
  const sig = readSshSignature(armoredSignature);
  const signed =
    sig !== null &&
    tokens.some((token) => ['', '\n', '\r\n'].some((end) => verifySshSignature(sig, Buffer.from(token + end), key.content, 'gitea')));
  if (!signed) {
    throw new ValidationError(
      `The provided SSH key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${tokens[0]}`,
    );
  }
  if (key.verified) return key;
  return cx.db.publicKey.update({ where: { id: key.id }, data: { verified: true }, include: { owner: true } });
}
