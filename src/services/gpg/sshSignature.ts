// SSH signatures (OpenSSH PROTOCOL.sshsig, what `ssh-keygen -Y sign` and `git commit -S` with gpg.format=ssh
// make): the armored SSHSIG envelope is read here and its signature checked with node:crypto, as Gitea checks
// them through github.com/42wim/sshsig. The public key the envelope carries must be the key it is checked
// against, the namespace must be the one asked for ("git" for commits and tags, "gitea" for key verification).
// Keys are read from their SSH wire form straight into JWKs (RFC 4253 / 5656 / 8709 fields), no PEM round trip.
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { SshWireReader } from '../../auth/sshWire.ts';

const ARMOR_BEGIN = '-----BEGIN SSH SIGNATURE-----';
const ARMOR_END = '-----END SSH SIGNATURE-----';
const MAGIC = Buffer.from('SSHSIG');
const HASHES = new Set(['sha256', 'sha512']);

/** A parsed SSHSIG envelope. */
export interface SshSignature {
  /** The signer's public key, as an SSH wire blob. */
  publicKey: Buffer;
  namespace: string;
  hashAlgorithm: string;
  /** The signature, as an SSH wire blob (algorithm name, then the signature bytes). */
  signature: Buffer;
}

/** True when `text` is an armored SSH signature (what Gitea routes to its SSH verification). */
export const isSshSignature = (text: string): boolean => text.startsWith(ARMOR_BEGIN);

const wire = (b: Buffer | string): Buffer => {
  const data = typeof b === 'string' ? Buffer.from(b) : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
};

/** Reads an armored SSHSIG envelope; null when it is not a well-formed version 1 signature. */
export function readSshSignature(armored: string): SshSignature | null {
  const text = armored.trim();
  if (!text.startsWith(ARMOR_BEGIN) || !text.endsWith(ARMOR_END)) return null;
  const body = text.slice(ARMOR_BEGIN.length, -ARMOR_END.length).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return null;
  try {
    const r = new SshWireReader(Buffer.from(body, 'base64'));
    if (!r.bytes(MAGIC.length).equals(MAGIC) || r.uint32() !== 1) return null;
    const publicKey = r.string();
    const namespace = r.string().toString('utf8');
    r.string(); // reserved
    const hashAlgorithm = r.string().toString('utf8');
    const signature = r.string();
    if (!r.done || !HASHES.has(hashAlgorithm)) return null;
    return { publicKey, namespace, hashAlgorithm, signature };
  } catch {
    return null;
  }
}

/** The wire blob of an OpenSSH public key line (`type base64 [comment]`), or null. */
export function keyBlobOf(line: string): Buffer | null {
  const b64 = line.trim().split(/\s+/)[1];
  return b64 && /^[A-Za-z0-9+/]+={0,2}$/.test(b64) ? Buffer.from(b64, 'base64') : null;
}

/** The digest an ECDSA curve signs with (RFC 5656), its JWK name and its field size. */
const CURVES: Record<string, { hash: string; size: number; crv: string }> = {
  nistp256: { hash: 'sha256', size: 32, crv: 'P-256' },
  nistp384: { hash: 'sha384', size: 48, crv: 'P-384' },
  nistp521: { hash: 'sha512', size: 66, crv: 'P-521' },
};

const b64url = (b: Buffer) => b.toString('base64url');
/** An mpint without its sign byte. */
const unsigned = (b: Buffer) => (b[0] === 0 ? b.subarray(1) : b);

const SK_ED25519 = 'sk-ssh-ed25519@openssh.com';
const SK_ECDSA = 'sk-ecdsa-sha2-nistp256@openssh.com';

/** A public key read from its SSH wire blob: its type, node:crypto key, curve, and a security key's application. */
interface WireKey {
  type: string;
  key: KeyObject;
  curve?: { hash: string; size: number };
  application?: Buffer;
}

function ecKey(r: SshWireReader, curve: { size: number; crv: string }): KeyObject {
  r.string(); // the curve's name again
  const point = r.string();
  if (point[0] !== 4 || point.length !== 1 + 2 * curve.size) throw new Error('unsupported point');
  const [x, y] = [point.subarray(1, 1 + curve.size), point.subarray(1 + curve.size)];
  return createPublicKey({ key: { kty: 'EC', crv: curve.crv, x: b64url(x), y: b64url(y) }, format: 'jwk' });
}

/** Reads an SSH public key blob (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp*, and their FIDO sk- forms). @throws on others */
function wireKey(blob: Buffer): WireKey {
  const r = new SshWireReader(blob);
  const type = r.string().toString('utf8');
  const ed25519 = () => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(r.string()) }, format: 'jwk' });
  const p256 = CURVES.nistp256 as { hash: string; size: number; crv: string };
  if (type === 'ssh-ed25519') return { type, key: ed25519() };
  if (type === SK_ED25519) return { type, key: ed25519(), application: r.string() };
  if (type === SK_ECDSA) return { type, key: ecKey(r, p256), curve: p256, application: r.string() };
  if (type === 'ssh-rsa') {
    const e = unsigned(r.string());
    return { type, key: createPublicKey({ key: { kty: 'RSA', e: b64url(e), n: b64url(unsigned(r.string())) }, format: 'jwk' }) };
  }
  const curve = CURVES[type.slice('ecdsa-sha2-'.length)];
  if (type.startsWith('ecdsa-sha2-') && curve) return { type, key: ecKey(r, curve), curve };
  throw new Error(`unsupported key type ${type}`);
}

/** An unsigned big-endian mpint, left-padded to `size` bytes. */
function fixed(mpint: Buffer, size: number): Buffer {
  const first = mpint.findIndex((b) => b !== 0);
  const trimmed = mpint.subarray(first < 0 ? mpint.length : first);
  if (trimmed.length > size) throw new Error('integer too large');
  return Buffer.concat([Buffer.alloc(size - trimmed.length), trimmed]);
}

/** An ECDSA signature blob (mpint r, mpint s) in IEEE P1363 form. */
function p1363(sig: Buffer, size: number): Buffer {
  const rs = new SshWireReader(sig);
  return Buffer.concat([fixed(rs.string(), size), fixed(rs.string(), size)]);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();
const RSA_HASHES: Record<string, string> = { 'rsa-sha2-512': 'sha512', 'rsa-sha2-256': 'sha256', 'ssh-rsa': 'sha1' };

/**
 * Checks an SSH signature blob over `data` with `k` (RFC 4253, 5656, 8709; FIDO keys as OpenSSH's PROTOCOL.u2f:
 * the authenticator signs its application's and the data's SHA-256 with its flags and counter between them).
 */
function verifyBlob(k: WireKey, sigBlob: Buffer, data: Buffer): boolean {
  const r = new SshWireReader(sigBlob);
  const algo = r.string().toString('utf8');
  const sig = r.string();
  if (k.application) {
    if (algo !== k.type) return false;
    const signed = Buffer.concat([sha256(k.application), r.bytes(5), sha256(data)]);
    if (!r.done) return false;
    return k.curve
      ? verify('sha256', signed, { key: k.key, dsaEncoding: 'ieee-p1363' }, p1363(sig, k.curve.size))
      : verify(null, signed, k.key, sig);
  }
  if (!r.done) return false;
  if (algo === 'ssh-ed25519' && k.type === 'ssh-ed25519') return verify(null, data, k.key, sig);
  const rsa = RSA_HASHES[algo];
  if (rsa && k.type === 'ssh-rsa') return verify(rsa, data, k.key, sig);
  if (k.curve && algo === k.type) return verify(k.curve.hash, data, { key: k.key, dsaEncoding: 'ieee-p1363' }, p1363(sig, k.curve.size));
  return false;
}

/**
 * True when `sig` is a signature over `message` in `namespace` by the OpenSSH public key `keyLine` (42wim/sshsig
 * Verify: the envelope's key must be that key).
 */
export function verifySshSignature(sig: SshSignature, message: Buffer, keyLine: string, namespace: string): boolean {
  const blob = keyBlobOf(keyLine);
  if (!blob || !blob.equals(sig.publicKey) || sig.namespace !== namespace) return false;
  try {
    const key = wireKey(blob);
    const digest = createHash(sig.hashAlgorithm).update(message).digest();
    const signed = Buffer.concat([MAGIC, wire(namespace), wire(''), wire(sig.hashAlgorithm), wire(digest)]);
    return verifyBlob(key, sig.signature, signed);
  } catch {
    return false;
  }
}
