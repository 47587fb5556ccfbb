import type sshpk from 'sshpk';
import { sshpkModule } from '../../lazyPackage.ts';
import { sshFingerprint } from '../../auth/sshKey.ts';
import { SshWireReader } from '../../auth/sshWire.ts';
import { ValidationError } from '../../errors.ts';

/** A validated OpenSSH public key line. */
export interface ParsedSshKey {
  /** The key type label, e.g. `ssh-ed25519`. */
  type: string;
  /** Gitea's key type name used for minimum sizes: rsa, ecdsa, ed25519, ecdsa-sk, ed25519-sk. */
  algorithm: string;
  bits: number;
  comment: string;
  /** Normalised content as Gitea stores it: `type base64[ comment]`. */
  content: string;
  /** `SHA256:…` exactly as `ssh-keygen -lf` prints it. */
  fingerprint: string;
}

/** Gitea's [ssh.minimum_key_sizes] defaults (DSA absent: not allowed); go-gitea/gitea#26604 for RSA 3071. */
const MINIMUM_SIZES: Record<string, number> = { ed25519: 256, 'ed25519-sk': 256, ecdsa: 256, 'ecdsa-sk': 256, rsa: 3071 };

const LINE = /^(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*))?$/;

function invalid(detail: string): ValidationError {
  return new ValidationError(`Invalid key content: ${detail}`);
}

/** A reader of the key blob whose truncation is Gitea's "short read" refusal. */
const wireReader = (blob: Buffer) => new SshWireReader(blob, () => invalid('invalid ssh public key: ssh: short read'));

/** FIDO (`sk-…`) keys, which sshpk cannot parse: checked field by field, nothing may trail. */
function checkSecurityKey(type: string, blob: Buffer): string {
  const r = wireReader(blob);
  r.string(); // the type, checked by the caller
  if (type.startsWith('sk-ssh-ed25519')) {
    if (r.string().length !== 32) throw invalid('invalid ssh public key: ssh: invalid size for Ed25519 key');
  } else {
    const curve = r.string();
    const point = r.string();
    if (curve.toString() !== 'nistp256' || point.length !== 65 || point[0] !== 4)
      throw invalid('invalid ssh public key: ssh: invalid curve point');
  }
  const app = r.string();
  if (!app.toString().startsWith('ssh:') || !r.done) throw invalid('invalid ssh public key: ssh: trailing junk in public key');
  return type.startsWith('sk-ssh-ed25519') ? 'ed25519-sk' : 'ecdsa-sk';
}

/** sshpk's algorithm names → Gitea's (SSHNativeParsePublicKey). */
function nativeAlgorithm(type: string, blob: Buffer, b64: string): { algorithm: string; bits: number } {
  let key: sshpk.Key;
  try {
    key = sshpkModule().parseKey(`${type} ${b64}`, 'ssh');
  } catch (err) {
    throw invalid(`invalid ssh public key: ssh: ${err instanceof Error ? err.message : 'unparsable key'}`);
  }
  // sshpk accepts trailing junk and short ed25519 keys: the re-encoded blob must be the input.
  if (!key.toBuffer('rfc4253').equals(blob)) throw invalid('invalid ssh public key: ssh: trailing junk in public key');
  return { algorithm: key.type === 'dsa' ? 'dsa' : key.type, bits: key.size };
}

/**
 * Gitea's CheckPublicKeyString with the stricter validator of git-layer.md §4: exactly one OpenSSH public
 * key line (no options, no private key, canonical base64, a blob that re-encodes identically, the label
 * matching the blob's type), then Gitea's minimum key sizes. The fingerprint is sha256 of the blob.
 * @throws ValidationError `Invalid key content: …` (REST 422)
 */
export function parsePublicKey(input: string): ParsedSshKey {
  if (input.includes('\u0000')) throw invalid('invalid ssh public key: ssh: no key found');
  const lines = input
    .replace(/\r/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length === 0) throw invalid('empty key');
  if (lines.length > 1) throw invalid('only a single line with a single key please');
  const line = lines[0] ?? '';
  if (/PRIVATE KEY/.test(line)) throw invalid('invalid ssh public key: ssh: no key found');
  const m = LINE.exec(line);
  if (!m) throw invalid('invalid ssh public key: ssh: no key found');
  const [, type = '', b64 = '', rawComment = ''] = m;
  const blob = Buffer.from(b64, 'base64');
  if (blob.length < 4 || blob.toString('base64') !== b64) throw invalid('extractTypeFromBase64Key: illegal base64 data');
  const embedded = wireReader(blob).string();
  if (embedded.toString('latin1') !== type) throw invalid(`key type and content does not match: ${type} - ${embedded.toString('latin1')}`);

  let algorithm: string;
  let bits = 256;
  if (type === 'sk-ssh-ed25519@openssh.com' || type === 'sk-ecdsa-sha2-nistp256@openssh.com') {
    algorithm = checkSecurityKey(type, blob);
  } else if (/^(ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(256|384|521))$/.test(type)) {
    ({ algorithm, bits } = nativeAlgorithm(type, blob, b64));
  } else {
    throw invalid('invalid ssh public key: ssh: unknown key algorithm');
  }
  const min = MINIMUM_SIZES[algorithm];
  if (min === undefined) throw invalid(`key type is not allowed: ${algorithm}`);
  if (bits < min) throw invalid(`key length is not enough: got ${bits}, needs ${min}`);
  const comment = rawComment.trim();
  return {
    type,
    algorithm,
    bits,
    comment,
    content: comment ? `${type} ${b64} ${comment}` : `${type} ${b64}`,
    fingerprint: sshFingerprint(blob),
  };
}
