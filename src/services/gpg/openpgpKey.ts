// OpenPGP material through OpenPGP.js (the only place that imports it): armored keys parsed into Gitea's gpg_key
// rows, and detached signatures checked against a key. Gitea's go-crypto reads the same packets; the flags it
// shows (can_sign, can_encrypt_*) come from the key's algorithm, as Gitea's do.
import type * as openpgp from 'openpgp';

let loaded: Promise<typeof openpgp> | undefined;
/** OpenPGP.js, imported on first use: loaded at start it cost the server ~50 ms and ~5 MB resident (its 2.3 MB source). */
const library = () => (loaded ??= import('openpgp'));

/** A key id as Gitea prints it: 16 upper-case hex digits. */
export type KeyId = string;

/** One key packet (primary or subkey) as Gitea stores it. */
export interface ParsedKeyPacket {
  keyId: KeyId;
  /** The public key packet (with its header), base64: Gitea's `content`. */
  content: string;
  createdAt: Date;
  canSign: boolean;
  canEncrypt: boolean;
}

/** A primary key with its subkeys, identities' e-mails and expiry (Gitea parseGPGKey). */
export interface ParsedKey extends ParsedKeyPacket {
  subkeys: ParsedKeyPacket[];
  /** E-mails of the identities that are not revoked, as written in the key. */
  emails: string[];
  /** All identities' e-mails (for Gitea's "no email found" message). */
  allEmails: string[];
  expiresAt: Date | null;
  key: openpgp.PublicKey;
}

/** A key that cannot be read (Gitea ErrGPGKeyParsing). */
export class KeyParseError extends Error {}

const SIGN_ALGOS = new Set(['rsaEncryptSign', 'rsaSign', 'dsa', 'ecdsa', 'eddsaLegacy', 'ed25519', 'ed448']);
const ENCRYPT_ALGOS = new Set(['rsaEncryptSign', 'rsaEncrypt', 'elgamal', 'ecdh', 'x25519', 'x448']);

const hexId = (id: openpgp.KeyID): KeyId => id.toHex().toUpperCase();

function packetOf(
  pgp: typeof openpgp,
  p: openpgp.PublicKeyPacket | openpgp.PublicSubkeyPacket | openpgp.SecretKeyPacket | openpgp.SecretSubkeyPacket,
): ParsedKeyPacket {
  const list = new pgp.PacketList<openpgp.AnyPacket>();
  list.push(p);
  const algo = p.getAlgorithmInfo().algorithm;
  return {
    keyId: hexId(p.getKeyID()),
    content: Buffer.from(list.write()).toString('base64'),
    createdAt: p.getCreationTime(),
    canSign: SIGN_ALGOS.has(algo),
    canEncrypt: ENCRYPT_ALGOS.has(algo),
  };
}

async function parseKey(pgp: typeof openpgp, key: openpgp.Key): Promise<ParsedKey> {
  const pub = key.toPublic();
  const emails: string[] = [];
  const allEmails: string[] = [];
  for (const u of pub.users) {
    if (!u.userID) continue;
    allEmails.push(u.userID.email);
    if (!u.revocationSignatures.length) emails.push(u.userID.email);
  }
  const expiry = await pub.getExpirationTime().catch(() => null);
  return {
    ...packetOf(pgp, pub.keyPacket),
    subkeys: pub.subkeys.map((s) => packetOf(pgp, s.keyPacket)),
    emails,
    allEmails,
    expiresAt: expiry instanceof Date ? expiry : null,
    key: pub,
  };
}

/** The keys of an armored key block (Gitea checkArmoredGPGKeyString). @throws KeyParseError */
export async function readArmoredKeys(armored: string): Promise<ParsedKey[]> {
  const pgp = await library();
  let keys: openpgp.Key[];
  try {
    keys = await pgp.readKeys({ armoredKeys: armored });
  } catch (err) {
    throw new KeyParseError(`failed to parse gpg key ${(err as Error).message}`);
  }
  if (!keys.length) throw new KeyParseError('failed to parse gpg key openpgp: no keys found');
  return Promise.all(keys.map((key) => parseKey(pgp, key)));
}

/** A detached signature read from its armor, with the id of the key that made it (empty when it names none). */
export interface DetachedSignature {
  signature: openpgp.Signature;
  issuer: KeyId;
}

/** Reads an armored detached signature; null when it is not one (Gitea gpg.error.extract_sign). */
export async function readDetachedSignature(armored: string): Promise<DetachedSignature | null> {
  const pgp = await library();
  try {
    const signature = await pgp.readSignature({ armoredSignature: armored });
    const id = signature.getSigningKeyIDs().find((k) => !/^0+$/.test(k.toHex()));
    return { signature, issuer: id ? hexId(id) : '' };
  } catch {
    return null;
  }
}

/**
 * The id of the key of `key` (its primary key or a subkey) whose signature over `data` is `sig`, or null when
 * none verifies it (a bad signature, a key that may not sign, or another key's signature).
 */
export async function verifyDetached(key: openpgp.PublicKey, data: Uint8Array, sig: DetachedSignature): Promise<KeyId | null> {
  const pgp = await library();
  try {
    const message = await pgp.createMessage({ binary: data });
    const result = await pgp.verify({ message, signature: sig.signature, verificationKeys: key, format: 'binary' });
    for (const s of result.signatures) {
      if (await s.verified.then(() => true).catch(() => false)) return hexId(s.keyID);
    }
    return null;
  } catch {
    return null;
  }
}

/** Reads the armored key stored with a key row (it was parsed when added). */
export async function readStoredKey(armored: string): Promise<openpgp.PublicKey> {
  return (await (await library()).readKey({ armoredKey: armored })).toPublic();
}
