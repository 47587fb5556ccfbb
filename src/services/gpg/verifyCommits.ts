// Commit signature verification (Gitea asymkey ParseCommitWithSignature + convert.ToVerification): a signature
// by a key registered under its issuer id verifies when the key (or its primary) carries an activated e-mail;
// otherwise the committer's own keys are tried when they may vouch for the committer's e-mail. Reasons are
// Gitea's: gpg.error.not_signed_commit, gpg.error.extract_sign, gpg.error.no_gpg_keys_found,
// gpg.error.probable_bad_signature, or "<signer> / <key id>" when verified. SSH signatures go to
// sshCommitVerification.ts ("<signer> / SHA256:…" when verified). Statements per call are constant: two for the
// committers, then side by side one batched GPG key lookup (with its relations) when any signature is not SSH and
// one SSH key lookup when any is.
import type { Models } from '../../db/client.ts';
import { readCommitSignatures, type CommitSignature } from '../../git/commitSignature.ts';
import { repoPath } from '../../git/repoPath.ts';
import { readTagSignatures } from '../../git/tagSignature.ts';
import type { ServiceContext } from '../context.ts';
import { keyEmails } from './gpgKey.ts';
import { readDetachedSignature, type DetachedSignature, type KeyId } from './openpgpKey.ts';
import { signingKeyOf } from './signatureCache.ts';
import { sshKeysOf, verifySshSigned, type Committer } from './sshCommitVerification.ts';
import { isSshSignature } from './sshSignature.ts';
import { groupBy } from '../../groupBy.ts';

/** Who signed, as Gitea's PayloadCommitVerification.signer shows them. */
export interface SignerView {
  username: string;
  name: string;
  email: string;
}

/** A commit's verification (Gitea CommitVerification, as the API shows it). */
export interface CommitVerification {
  verified: boolean;
  reason: string;
  /** The armored signature ('' when unsigned) and the signed payload. */
  signature: string;
  payload: string;
  signer: SignerView | null;
  /** The signing user, when verified. */
  signerUser: Models.User | null;
  /** The key id the signature names ('' when unsigned, unreadable or SSH). */
  keyId: KeyId;
  /** An SSH signature's key fingerprint (`SHA256:…`; '' for GPG or when unreadable). */
  keyFingerprint: string;
  /** GitHub's GitSignatureState when it says more than Gitea's reason (SSH signatures). */
  state?: string;
  /** Whether the commit carries a signature at all. */
  signed: boolean;
  /** The committer's (a tag's tagger's) e-mail, as the object names it. */
  committerEmail: string;
}

export const NOT_SIGNED = 'gpg.error.not_signed_commit';
const EXTRACT_SIGN = 'gpg.error.extract_sign';
const NO_KEY_FOUND = 'gpg.error.no_gpg_keys_found';
const BAD_SIGNATURE = 'gpg.error.probable_bad_signature';

type Owner = Models.User & { emailAddresses: Models.EmailAddress[] };
type KeyRow = Models.GpgKey & { parent: Models.GpgKey | null; subkeys: Models.GpgKey[]; owner: Owner };

/** Committers by e-mail (Gitea GetUserByEmail: an activated address, else a primary e-mail), and whether it was an activated one. */
async function committersByEmail(cx: ServiceContext, emails: readonly string[]) {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
  const out = new Map<string, Committer>();
  if (!lower.length) return out;
  const [addresses, primaries] = await Promise.all([
    cx.db.emailAddress.findMany({ where: { lowerEmail: { in: lower }, isActivated: true }, include: { user: true } }),
    cx.db.user.findMany({ where: { email: { in: [...new Set(emails)] }, type: 'INDIVIDUAL' } }),
  ]);
  for (const u of primaries) out.set(u.email.toLowerCase(), { user: u, activated: false });
  for (const a of addresses) out.set(a.lowerEmail, { user: a.user, activated: true });
  return out;
}

const displayName = (u: Models.User) => u.fullName.trim() || u.name;
const signerView = (u: Models.User, email: string): SignerView => ({ username: u.name, name: displayName(u), email });

/** Gitea checkKeyEmails with no e-mail asked for: an e-mail of the keys, or of a verified key's owner. */
function keyEmailOf(rows: readonly (Models.GpgKey | null)[], owner: Owner): string | null {
  for (const k of rows) {
    if (!k) continue;
    const first = keyEmails(k)[0];
    if (first) return first;
    if (k.verified) {
      const active = owner.emailAddresses.find((e) => e.isActivated);
      if (active) return active.email;
    }
  }
  return null;
}

/** The armored material of the primary key of `row`. */
const armoredOf = (row: KeyRow): string => row.parent?.armored ?? row.armored;

interface Attempt {
  sha: string;
  payload: Buffer;
  sig: DetachedSignature;
}

/** Gitea hashAndVerifyWithSubKeys: which of `allowed` (a key and its subkeys that may sign) made the signature. */
async function verifiedBy(a: Attempt, armored: string, allowed: readonly Models.GpgKey[]): Promise<KeyId | null> {
  const id = await signingKeyOf(a.sha, armored, a.payload, a.sig);
  return id && allowed.some((k) => k.keyId === id && k.canSign) ? id : null;
}

/** What verifying a batch looks keys up in. */
interface Lookup {
  committers: Map<string, Committer>;
  byKeyId: Map<string, KeyRow[]>;
  byOwner: Map<number, KeyRow[]>;
  sshByOwner: Map<number, Models.PublicKey[]>;
}

type Base = Pick<CommitVerification, 'signature' | 'payload' | 'signer' | 'signerUser' | 'keyFingerprint' | 'committerEmail'>;

/** Gitea ParseCommitWithSSHSignature, shown as Gitea's verification. */
function verifySsh(c: CommitSignature, base: Base, l: Lookup): CommitVerification {
  const committer = l.committers.get(c.committerEmail.toLowerCase());
  const out = verifySshSigned(c, committer, committer ? (l.sshByOwner.get(committer.user.id) ?? []) : []);
  if (!out.verified || !committer) {
    const state = out.verified ? 'NO_USER' : out.state;
    return { ...base, verified: false, reason: NO_KEY_FOUND, keyId: '', keyFingerprint: out.fingerprint, state, signed: true };
  }
  return {
    ...base,
    verified: true,
    reason: `${committer.user.name} / ${out.key.fingerprint}`,
    signer: signerView(committer.user, c.committerEmail),
    signerUser: committer.user,
    keyId: '',
    keyFingerprint: out.fingerprint,
    signed: true,
  };
}

async function verifyOne(c: CommitSignature, l: Lookup): Promise<CommitVerification> {
  const { committers, byKeyId, byOwner } = l;
  const base: Base = {
    signature: c.signature ?? '',
    payload: c.signature ? c.payload.toString('utf8') : '',
    signer: null,
    signerUser: null,
    keyFingerprint: '',
    committerEmail: c.committerEmail,
  };
  if (!c.signature) return { ...base, verified: false, reason: NOT_SIGNED, keyId: '', signed: false };
  if (isSshSignature(c.signature)) return verifySsh(c, base, l);
  const sig = await readDetachedSignature(c.signature);
  if (!sig) return { ...base, verified: false, reason: EXTRACT_SIGN, keyId: '', signed: true };
  const attempt: Attempt = { sha: c.sha, payload: c.payload, sig };
  const ok = (user: Models.User, keyId: KeyId, email: string): CommitVerification => ({
    ...base,
    verified: true,
    reason: `${user.name} / ${keyId}`,
    signer: signerView(user, email),
    signerUser: user,
    keyId: sig.issuer,
    signed: true,
  });
  let reason = NO_KEY_FOUND;
  const named = sig.issuer ? (byKeyId.get(sig.issuer) ?? []) : [];
  for (const row of named) {
    const email = keyEmailOf([row, row.parent], row.owner);
    if (email === null) continue;
    const id = await verifiedBy(attempt, armoredOf(row), [row, ...row.subkeys]);
    if (id) return ok(row.owner, id, email);
  }
  if (named.length) reason = BAD_SIGNATURE;
  const committer = committers.get(c.committerEmail.toLowerCase());
  for (const k of committer ? (byOwner.get(committer.user.id) ?? []) : []) {
    const own = keyEmails(k).find((e) => e.toLowerCase() === c.committerEmail.toLowerCase());
    const email = k.verified && committer?.activated ? c.committerEmail : own;
    if (!committer || !email) continue;
    const id = await verifiedBy(attempt, k.armored, [k, ...k.subkeys]);
    if (id) return ok(committer.user, id, email);
  }
  return { ...base, verified: false, reason, keyId: sig.issuer, signed: true };
}

/** Verifies the signatures of commits (or tags) whose objects were read (see readCommitSignatures), by object id. */
export async function verifySignatures(cx: ServiceContext, commits: readonly CommitSignature[]): Promise<Map<string, CommitVerification>> {
  const signed = commits.filter((c) => c.signature);
  const committers = await committersByEmail(
    cx,
    signed.map((c) => c.committerEmail),
  );
  const issuers = new Set<string>();
  for (const c of signed) {
    const m = /^-----BEGIN PGP SIGNATURE-----/.test(c.signature ?? '') ? await readDetachedSignature(c.signature ?? '') : null;
    if (m?.issuer) issuers.add(m.issuer);
  }
  const ownerIds = [...new Set([...committers.values()].map((c) => c.user.id))];
  const ssh = signed.filter((c) => isSshSignature(c.signature ?? ''));
  const [sshByOwner, rows] = await Promise.all([
    ssh.length ? sshKeysOf(cx, ownerIds) : new Map<number, Models.PublicKey[]>(),
    (issuers.size || ownerIds.length) && ssh.length < signed.length
      ? cx.db.gpgKey.findMany({
          where: { OR: [{ keyId: { in: [...issuers] } }, { ownerId: { in: ownerIds }, parentId: null }] },
          include: { parent: true, subkeys: true, owner: { include: { emailAddresses: { where: { isActivated: true } } } } },
          orderBy: { id: 'asc' },
        })
      : ([] as KeyRow[]),
  ]);
  const byKeyId = groupBy(rows, (r) => (issuers.has(r.keyId) ? r.keyId : undefined));
  const byOwner = groupBy(rows, (r) => (r.parentId === null && ownerIds.includes(r.ownerId) ? r.ownerId : undefined));
  const out = new Map<string, CommitVerification>();
  const lookup: Lookup = { committers, byKeyId, byOwner, sshByOwner };
  for (const c of commits) out.set(c.sha, await verifyOne(c, lookup));
  return out;
}

/** Reads and verifies commits of a repository (`env`: a push's quarantine). @throws NotFoundError */
export async function verifyCommits(
  cx: ServiceContext,
  gitDir: string,
  shas: readonly string[],
  env: Record<string, string> = {},
): Promise<Map<string, CommitVerification>> {
  if (!shas.length) return new Map();
  const sigs = await readCommitSignatures(gitDir, [...new Set(shas)], env);
  return verifySignatures(cx, [...sigs.values()]);
}

/** Reads and verifies annotated tag objects of a repository, their tagger standing for the committer. @throws NotFoundError */
export async function verifyTags(cx: ServiceContext, gitDir: string, shas: readonly string[]): Promise<Map<string, CommitVerification>> {
  if (!shas.length) return new Map();
  const sigs = await readTagSignatures(gitDir, [...new Set(shas)]);
  return verifySignatures(cx, [...sigs.values()]);
}

/**
 * verifyCommits (or verifyTags) for objects of a repository already read through its read policy (the graph's
 * Commit.signature and Tag.signature).
 */
export function verifyRepositoryObjects(
  cx: ServiceContext,
  repo: Pick<Models.Repository, 'ownerName' | 'name'>,
  shas: readonly string[],
  type: 'commit' | 'tag',
): Promise<Map<string, CommitVerification>> {
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  return type === 'commit' ? verifyCommits(cx, gitDir, shas) : verifyTags(cx, gitDir, shas);
}
