// User SSH keys (Gitea asymkey public_key rows of type user): list, add, get and delete, for the viewer and for
// site admins on a user's behalf. Key material is validated by the repository domain's parser (sshKey.ts).
import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { isSiteAdmin, requireSiteAdmin, requireViewer } from '../access/guards.ts';
import { requireNeed, requireScopes } from '../access/writeGate.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { parsePublicKey } from './sshKey.ts';
import { findUserByName, getUserByName } from './user.ts';
import { publicKeyReadWhere } from './visibility.ts';
import { isDbId } from '../dbId.ts';

/** A user key with its owner loaded (`owner` is null only for keys without one, which are never user keys). */
export type UserKey = Models.PublicKey & { owner: Models.User | null };

/** Gitea CreateKeyOption for user keys (`read_only` is ignored for user keys, as in Gitea). */
export interface CreateUserKeyInput {
  title: string;
  key: string;
}

const INCLUDE = { owner: true } as const;

/** True when the viewer sees the key's private information (`user`, `key_type`, `read_only`): its owner or a site admin. */
export function showsKeyOwner(cx: ServiceContext, key: Pick<Models.PublicKey, 'ownerId'>): boolean {
  return isSiteAdmin(cx) || (cx.viewer !== null && cx.viewer.id === key.ownerId);
}

async function listKeys(
  cx: ServiceContext,
  where: Models.Prisma.PublicKeyWhereInput,
  opts: ListOptions | ListWindow,
): Promise<Page<UserKey>> {
  const [items, total] = await Promise.all([
    cx.db.publicKey.findMany({ where, include: INCLUDE, orderBy: { id: 'asc' }, ...skipTake(opts) }),
    cx.db.publicKey.count({ where }),
  ]);
  return { items, total };
}

/**
 * The viewer's SSH keys, oldest first, optionally the one with `fingerprint` (GET /user/keys).
 * @throws UnauthenticatedError, PermissionDeniedError (token scope)
 */
export async function listMyKeys(
  cx: ServiceContext,
  fingerprint: string | undefined,
  opts: ListOptions | ListWindow,
): Promise<Page<UserKey>> {
  const viewer = requireViewer(cx);
  requireScopes(cx, 'read:user');
  return listKeys(cx, { ownerId: viewer.id, type: 'USER', ...(fingerprint ? { fingerprint } : {}) }, opts);
}

/**
 * A user's SSH keys as anyone who may see the user sees them (GET /users/{u}/keys), optionally filtered by fingerprint.
 * @throws NotFoundError when the user is absent or invisible, PermissionDeniedError (token scope)
 */
export async function listUserKeys(
  cx: ServiceContext,
  username: string,
  fingerprint: string | undefined,
  opts: ListOptions | ListWindow,
): Promise<Page<UserKey>> {
  requireScopes(cx, 'read:user');
  const user = await getUserByName(cx, username);
  if (user.type !== 'INDIVIDUAL') return { items: [], total: 0 };
  return listKeys(cx, { ownerId: user.id, type: 'USER', ...(fingerprint ? { fingerprint } : {}) }, opts);
}

/** A user's keys under the key read policy, for GraphQL's User.publicKeys. */
export function listKeysOf(cx: ServiceContext, user: Pick<Models.User, 'id'>, opts: ListWindow): Promise<Page<UserKey>> {
  return listKeys(cx, { ownerId: user.id, AND: [publicKeyReadWhere(cx)] }, opts);
}

/**
 * One user SSH key by id (GET /user/keys/{id}: Gitea serves any user's key; the owner's details only to its owner
 * and site admins). Deploy keys are not user keys and are not found here.
 * @throws NotFoundError, UnauthenticatedError
 */
export async function getKey(cx: ServiceContext, id: number): Promise<UserKey> {
  requireViewer(cx);
  requireScopes(cx, 'read:user');
  const key = isDbId(id) ? await cx.db.publicKey.findFirst({ where: { id, type: 'USER' }, include: INCLUDE }) : null;
  if (!key) throw new NotFoundError('public key does not exist', { keyId: id });
  return key;
}

/** Adds `input` as a key of `owner` (Gitea AddPublicKey): a fingerprint is used once site-wide, titles once per user. */
async function addKey(cx: ServiceContext, owner: Models.User, input: CreateUserKeyInput): Promise<UserKey> {
  if (input.title.includes('\u0000')) throw new ValidationError('Invalid', { field: 'title', rule: 'Invalid' });
  const parsed = parsePublicKey(input.key);
  return withTx(cx, async (tx, emit) => {
    // Deploy keys and other users' keys share the fingerprint space: Gitea's checkKeyFingerprint.
    if (await tx.publicKey.findFirst({ where: { fingerprint: parsed.fingerprint }, select: { id: true } })) {
      throw new ValidationError('Key content has been used as non-deploy key');
    }
    if (await tx.publicKey.findFirst({ where: { ownerId: owner.id, name: input.title }, select: { id: true } })) {
      throw new ValidationError('Key title has been used');
    }
    const key = await tx.publicKey.create({
      data: { ownerId: owner.id, name: input.title, fingerprint: parsed.fingerprint, content: parsed.content, mode: 'WRITE', type: 'USER' },
      include: INCLUDE,
    });
    emit({ type: 'user.keyAdded', userId: owner.id, keyId: key.id, actorId: cx.viewer?.id ?? null });
    return key;
  });
}

/**
 * Adds an SSH key to the viewer's account (POST /user/keys).
 * @throws UnauthenticatedError, PermissionDeniedError, ValidationError (Gitea's 422 messages)
 */
export async function addMyKey(cx: ServiceContext, input: CreateUserKeyInput): Promise<UserKey> {
  const viewer = requireViewer(cx);
  requireNeed(cx, 'write:user', { user: viewer });
  return addKey(cx, viewer, input);
}

/**
 * Adds an SSH key to a user's account as a site admin (POST /admin/users/{u}/keys).
 * @throws NotFoundError, PermissionDeniedError, ValidationError
 */
export async function adminAddKey(cx: ServiceContext, username: string, input: CreateUserKeyInput): Promise<UserKey> {
  requireSiteAdmin(cx, 'write');
  const user = await findUserByName(cx.db, username);
  if (!user || user.type !== 'INDIVIDUAL') throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`);
  return addKey(cx, user, input);
}

/** Gitea DeletePublicKey(doer, id): the key's owner or a site admin `doer` may delete it. */
async function deleteKey(cx: ServiceContext, doer: Models.User, id: number): Promise<void> {
  const key = isDbId(id) ? await cx.db.publicKey.findFirst({ where: { id, type: 'USER' } }) : null;
  if (!key) throw new NotFoundError('public key does not exist', { keyId: id });
  if (!doer.isAdmin && doer.id !== key.ownerId) throw new PermissionDeniedError('You do not have access to this key');
  await withTx(cx, async (tx, emit) => {
    await tx.publicKey.deleteMany({ where: { id: key.id } });
    emit({ type: 'user.keyRemoved', userId: key.ownerId ?? doer.id, keyId: key.id, actorId: cx.viewer?.id ?? null });
  });
}

/**
 * Deletes one of the viewer's SSH keys (DELETE /user/keys/{id}); site admins may delete anyone's.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError
 */
export async function deleteMyKey(cx: ServiceContext, id: number): Promise<void> {
  const viewer = requireViewer(cx);
  requireNeed(cx, 'write:user', { user: viewer });
  await deleteKey(cx, viewer, id);
}

/**
 * Deletes a user's SSH key as a site admin (DELETE /admin/users/{u}/keys/{id}); as in Gitea the key must belong to
 * that user unless the user is an admin (403 "You do not have access to this key").
 * @throws NotFoundError, PermissionDeniedError
 */
export async function adminDeleteKey(cx: ServiceContext, username: string, id: number): Promise<void> {
  requireSiteAdmin(cx, 'write');
  const user = await findUserByName(cx.db, username);
  if (!user || user.type !== 'INDIVIDUAL') throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`);
  await deleteKey(cx, user, id);
}
