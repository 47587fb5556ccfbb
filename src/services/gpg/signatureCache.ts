// What verifying a commit signature costs is the public-key operation; its outcome depends only on the commit
// (its id names its bytes) and the key material, so it is kept per (commit, key) in a bounded LRU. Keys are
// named by a digest of their armored material, never by a row id (several databases may share the process).
// SSH signatures are kept the same way, per (object, SSH key line).
import { createHash } from 'node:crypto';
import type * as openpgp from 'openpgp';
import { readStoredKey, verifyDetached, type DetachedSignature, type KeyId } from './openpgpKey.ts';
import { verifySshSignature, type SshSignature } from './sshSignature.ts';

const MAX_RESULTS = 10_000;
const MAX_KEYS = 500;
const results = new Map<string, KeyId | null>();
const keys = new Map<string, Promise<openpgp.PublicKey>>();

function remember<V>(map: Map<string, V>, max: number, k: string, v: V): V {
  map.delete(k);
  map.set(k, v);
  if (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  return v;
}

/** The digest naming an armored key. */
export function keyDigest(armored: string): string {
  return createHash('sha256').update(armored).digest('hex');
}

function parsedKey(digest: string, armored: string): Promise<openpgp.PublicKey> {
  const hit = keys.get(digest);
  if (hit) return remember(keys, MAX_KEYS, digest, hit);
  const loading = readStoredKey(armored);
  loading.catch(() => keys.delete(digest));
  return remember(keys, MAX_KEYS, digest, loading);
}

/**
 * The id of the key (the primary key of `armored` or one of its subkeys) that made the signature of commit
 * `sha` over `payload`, or null; remembered per commit and key.
 */
export async function signingKeyOf(sha: string, armored: string, payload: Buffer, sig: DetachedSignature): Promise<KeyId | null> {
  const digest = keyDigest(armored);
  const k = `${sha}:${digest}`;
  if (results.has(k)) return remember(results, MAX_RESULTS, k, results.get(k) ?? null);
  const key = await parsedKey(digest, armored).catch(() => null);
  const found = key ? await verifyDetached(key, payload, sig) : null;
  return remember(results, MAX_RESULTS, k, found);
}

/** Whether the SSH key `keyLine` made the signature (namespace "git") of object `sha` over `payload`; remembered. */
export function sshSignedBy(sha: string, keyLine: string, payload: Buffer, sig: SshSignature): boolean {
  const k = `ssh:${sha}:${keyDigest(keyLine)}`;
  if (results.has(k)) return remember(results, MAX_RESULTS, k, results.get(k) ?? null) !== null;
  const ok = verifySshSignature(sig, payload, keyLine, 'git');
  return remember(results, MAX_RESULTS, k, ok ? 'ssh' : null) !== null;
}
