// What verifying a commit signature costs is the public-key operation; its outcome depends only on the commit
// (its id names its bytes) and the key material, so it is kept per (commit, key) in a bounded LRU. Keys are
// named by a digest of their armored material, never by a row id (several databases may share the process).
// SSH signatures are kept the same way, per (object, SSH key line).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type * as openpgp from 'openpgp';
import { readStoredKey, verifyDetached, type DetachedSignature, type KeyId } from './openpgpKey.ts';
import { verifySshSignature, type SshSignature } from './sshSignature.ts';

/** Outcomes by (commit, key): the signing key's id, or null when that key did not make the signature. */
const results = new LRUCache<string, { keyId: KeyId | null }>({ max: 10_000 });
/** Parsed keys by the digest of their armored material; a failed parse is not kept. */
const keys = new LRUCache<string, openpgp.PublicKey, string>({
  max: 500,
  fetchMethod: (_digest, _stale, { context }) => readStoredKey(context),
});

/** The digest naming an armored key. */
export function keyDigest(armored: string): string {
  return createHash('sha256').update(armored).digest('hex');
}

/**
 * The id of the key (the primary key of `armored` or one of its subkeys) that made the signature of commit
 * `sha` over `payload`, or null; remembered per commit and key.
 */
export async function signingKeyOf(sha: string, armored: string, payload: Buffer, sig: DetachedSignature): Promise<KeyId | null> {
  const digest = keyDigest(armored);
  const k = `${sha}:${digest}`;
  const known = results.get(k);
  if (known) return known.keyId;
  const key = await keys.fetch(digest, { context: armored }).catch(() => undefined);
  const keyId = key ? await verifyDetached(key, payload, sig) : null;
  results.set(k, { keyId });
  return keyId;
}

/** Whether the SSH key `keyLine` made the signature (namespace "git") of object `sha` over `payload`; remembered. */
export function sshSignedBy(sha: string, keyLine: string, payload: Buffer, sig: SshSignature): boolean {
  const k = `ssh:${sha}:${keyDigest(keyLine)}`;
  const known = results.get(k);
  if (known) return known.keyId !== null;
  const ok = verifySshSignature(sig, payload, keyLine, 'git');
  results.set(k, { keyId: ok ? 'ssh' : null });
  return ok;
}
