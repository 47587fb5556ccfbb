// Users' GPG keys (Gitea models/asymkey gpg_key*.go and routers/api/v1/user/gpg_key.go): list, add (with or
// without a signed verification token), get, delete, and the token-signing verification flow. The key's
// e-mails are matched against the owner's activated addresses when it is added, as Gitea stores them.
import type { Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { requireNeed, requireScopes } from '../access/writeGate.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { getUserByName } from '../user/user.ts';
import { KeyParseError, readArmoredKeys, readDetachedSignature, verifyDetached, type ParsedKey } from './openpgpKey.ts';
import { acceptedTokens } from './verificationToken.ts';
import { isDbId } from '../dbId.ts';

/** A primary key row with its subkeys. */
export type GpgKeyRow = Models.GpgKey & { subkeys: Models.GpgKey[] };

const INCLUDE = { subkeys: { orderBy: { id: 'asc' } } } as const;

/** The e-mails stored with a key row. */
export function keyEmails(row: Pick<Models.GpgKey, 'emails'>): string[] {
  const parsed: unknown = JSON.parse(row.emails);
  return Array.isArray(parsed) ? parsed.filter((e): e is string => typeof e === 'string') : [];
}

async function listKeysOf(cx: ServiceContext, ownerId: number, opts: ListOptions): Promise<Page<GpgKeyRow>> {
  const where = { ownerId, parentId: null };
  const [items, total] = await Promise.all([
    cx.db.gpgKey.findMany({ where, include: INCLUDE, orderBy: { id: 'asc' }, ...skipTake(opts) }),
    cx.db.gpgKey.count({ where }),
  ]);
  return { items, total };
}

/** The viewer's GPG keys, oldest first (GET /user/gpg_keys). @throws UnauthenticatedError, PermissionDeniedError */
export async function listMyGpgKeys(cx: ServiceContext, opts: ListOptions): Promise<Page<GpgKeyRow>> {
  const viewer = requireViewer(cx);
  requireScopes(cx, 'read:user');
  return listKeysOf(cx, viewer.id, opts);
}

/** A user's GPG keys, public as in Gitea (GET /users/{u}/gpg_keys). @throws NotFoundError, PermissionDeniedError */
export async function listUserGpgKeys(cx: ServiceContext, username: string, opts: ListOptions): Promise<Page<GpgKeyRow>> {
  requireScopes(cx, 'read:user');
  const user = await getUserByName(cx, username);
  return listKeysOf(cx, user.id, opts);
}

/** One of the viewer's keys by id (Gitea GetGPGKeyForUserByID). @throws NotFoundError, UnauthenticatedError */
export async function getMyGpgKey(cx: ServiceContext, id: number): Promise<GpgKeyRow> {
  const viewer = requireViewer(cx);
  requireScopes(cx, 'read:user');
  const key = isDbId(id) ? await cx.db.gpgKey.findFirst({ where: { id, ownerId: viewer.id }, include: INCLUDE }) : null;
  if (!key) throw new NotFoundError(`public key does not exist [id: ${id}]`, { keyId: id });
  return key;
}

/** The token the viewer signs to prove they hold a key (GET /user/gpg_key_token). @throws UnauthenticatedError */
export function myVerificationToken(cx: ServiceContext): string {
  const viewer = requireViewer(cx);
  requireScopes(cx, 'read:user');
  return acceptedTokens(viewer)[0];
}

const invalidSignature = (token: string) =>
  new ValidationError(
    `The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${token}`,
  );

/** The first of `keys` whose key made `armoredSig` over one of the tokens, as Gitea tries them (plain, `\n`, `\r\n`). */
async function signerOf(keys: readonly ParsedKey[], tokens: readonly string[], armoredSig: string, endings: readonly string[]) {
  const sig = await readDetachedSignature(armoredSig);
  if (!sig) return null;
  for (const token of tokens) {
    for (const end of endings) {
      const data = Buffer.from(token + end, 'utf8');
      for (const k of keys) if (await verifyDetached(k.key, data, sig)) return k;
    }
  }
  return null;
}

export interface AddGpgKeyInput {
  armoredKey: string;
  /** A detached signature of the verification token: the key is then added as verified. */
  signature?: string | undefined;
}

/**
 * Adds the keys of an armored block to the viewer's account (Gitea AddGPGKey); returns the first. Without a
 * signature, one of the key's e-mails must be an activated address of the viewer; with one, the key that signed
 * the verification token is added, verified.
 * @throws ValidationError (422: unreadable key, duplicate id, bad signature), NotFoundError (no e-mail matches)
 */
export async function addMyGpgKey(cx: ServiceContext, input: AddGpgKeyInput): Promise<GpgKeyRow> {
  const viewer = requireViewer(cx);
  requireNeed(cx, 'write:user', { user: viewer });
  const tokens = acceptedTokens(viewer);
  let keys: ParsedKey[];
  try {
    keys = await readArmoredKeys(input.armoredKey);
  } catch (err) {
    if (err instanceof KeyParseError) throw new ValidationError(err.message);
    throw err;
  }
  const verified = !!input.signature;
  if (input.signature) {
    const signer = await signerOf(keys, tokens, input.signature, ['', '\n', '\r\n']);
    if (!signer) throw invalidSignature(tokens[0]);
    keys = [signer];
  }
  const activated = await cx.db.emailAddress.findMany({
    where: { userId: viewer.id, isActivated: true },
    select: { email: true, lowerEmail: true },
  });
  const rows = keys.map((k) => {
    const emails = k.emails
      .map((e) => activated.find((a) => a.lowerEmail === e.trim().toLowerCase())?.email)
      .filter((e): e is string => !!e);
    if (!verified && !emails.length)
      throw new NotFoundError(
        `None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${tokens[0]}`,
        { keyId: k.keyId },
      );
    return { key: k, emails: [...new Set(emails)] };
  });
  return withTx(cx, async (tx) => {
    const created: GpgKeyRow[] = [];
    for (const { key, emails } of rows) {
      if (await tx.gpgKey.findFirst({ where: { keyId: key.keyId, parentId: null }, select: { id: true } }))
        throw new ValidationError('A key with the same id already exists', { keyId: key.keyId });
      const flags = (p: { canSign: boolean; canEncrypt: boolean }) => ({
        canSign: p.canSign,
        canEncryptComms: p.canEncrypt,
        canEncryptStorage: p.canEncrypt,
        canCertify: p.canSign,
      });
      const primary = await tx.gpgKey.create({
        data: {
          ownerId: viewer.id,
          keyId: key.keyId,
          content: key.content,
          armored: key.key.armor(),
          emails: JSON.stringify(emails),
          verified,
          ...flags(key),
          keyCreatedAt: key.createdAt,
          expiresAt: key.expiresAt,
        },
      });
      for (const sub of key.subkeys) {
        await tx.gpgKey.create({
          data: {
            ownerId: viewer.id,
            parentId: primary.id,
            keyId: sub.keyId,
            primaryKeyId: key.keyId,
            content: sub.content,
            ...flags(sub),
            keyCreatedAt: sub.createdAt,
            expiresAt: key.expiresAt,
          },
        });
      }
      created.push(await tx.gpgKey.findUniqueOrThrow({ where: { id: primary.id }, include: INCLUDE }));
    }
    const first = created[0];
    if (!first) throw new ValidationError('failed to parse gpg key openpgp: no keys found');
    return first;
  });
}

/**
 * Deletes one of the viewer's keys with its subkeys (Gitea DeleteGPGKey: a key that is not the viewer's is
 * silently left alone).
 * @throws UnauthenticatedError, PermissionDeniedError
 */
export async function deleteMyGpgKey(cx: ServiceContext, id: number): Promise<void> {
  const viewer = requireViewer(cx);
  requireNeed(cx, 'write:user', { user: viewer });
  if (!isDbId(id)) return;
  const key = await cx.db.gpgKey.findFirst({ where: { id, ownerId: viewer.id } });
  if (!key) return;
  await cx.db.gpgKey.deleteMany({ where: { id: key.parentId ?? key.id } });
}

export interface VerifyGpgKeyInput {
  keyId: string;
  signature: string;
}

/**
 * Marks one of the viewer's keys verified by a signature of the verification token made with it or one of its
 * subkeys (Gitea VerifyGPGKey; the token may end with `\n` or `\n\n`).
 * @throws NotFoundError (no such key of the viewer), ValidationError (422: the signature does not match)
 */
export async function verifyMyGpgKey(cx: ServiceContext, input: VerifyGpgKeyInput): Promise<GpgKeyRow> {
  const viewer = requireViewer(cx);
  requireNeed(cx, 'write:user', { user: viewer });
  const keyId = input.keyId.toUpperCase().replace(/^0+/, '');
  if (!keyId) throw new NotFoundError('GPG key does not exist');
  const row = await cx.db.gpgKey.findFirst({ where: { ownerId: viewer.id, keyId: keyId.padStart(16, '0'), parentId: null } });
  if (!row) throw new NotFoundError(`public key does not exist [id: 0]`, { keyId });
  const tokens = acceptedTokens(viewer);
  const parsed = await readArmoredKeys(row.armored);
  if (!(await signerOf(parsed, tokens, input.signature, ['', '\n', '\n\n']))) throw invalidSignature(tokens[0]);
  await cx.db.gpgKey.update({ where: { id: row.id }, data: { verified: true } });
  return cx.db.gpgKey.findUniqueOrThrow({ where: { id: row.id }, include: INCLUDE });
}
