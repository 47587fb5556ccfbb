// SSH public keys as credentials (the built-in SSH server): the key a client offers → whose it is. Whether the
// client may use it for a repository is the permission model's (deploy keys) and the services' decision.
import { createHash } from 'node:crypto';
import type { Db, Models } from '../db/client.ts';
import type { SshKeyInfo } from './authInfo.ts';

/** A registered key a client offered: a user's (with the user) or a deploy key (no user). */
export interface SshKeyOwner {
  key: SshKeyInfo;
  /** The stored `type base64[ comment]` line, to verify the client's signature with. */
  content: string;
  user: Models.User | null;
}

/** `SHA256:…` of a public key blob, as ssh-keygen prints it and as keys are stored (services/user/sshKey.ts). */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

type KeyRow = Models.PublicKey & { owner: Models.User | null };

/** A user key (with its user) or a deploy key; other rows (principals, a user key without its user) are none. */
function ownerOf(row: KeyRow | null): SshKeyOwner | null {
  if (!row || (row.type !== 'USER' && row.type !== 'DEPLOY')) return null;
  const deploy = row.type === 'DEPLOY';
  if (!deploy && !row.owner) return null;
  return { key: { id: row.id, name: row.name, deploy }, content: row.content, user: deploy ? null : row.owner };
}

/**
 * The registered key whose wire blob is `blob` (found by fingerprint, through its index; the stored blob must be
 * the offered one), with its user for a user key. Null for keys nobody added.
 */
export async function findSshKey(db: Db, blob: Buffer): Promise<SshKeyOwner | null> {
  const row = await db.publicKey.findFirst({
    where: { fingerprint: sshFingerprint(blob) },
    include: { owner: true },
    orderBy: { id: 'asc' },
  });
  const stored = row ? Buffer.from(row.content.split(' ')[1] ?? '', 'base64') : null;
  return stored?.equals(blob) ? ownerOf(row) : null;
}

/** The key a connection signed in with, as it is now (Gitea's serv reloads it for every command): null once deleted. */
export async function findSshKeyById(db: Db, id: number): Promise<SshKeyOwner | null> {
  return ownerOf(await db.publicKey.findUnique({ where: { id }, include: { owner: true } }));
}

/**
 * Records a use of the key for a repository (Gitea UpdatePublicKeyInRepo): the key's time of last use (REST
 * `last_used_at`), and the deploy key's row of that repository.
 */
export async function markSshKeyUsed(db: Db, key: SshKeyInfo, repoId: number): Promise<void> {
  const now = new Date();
  await db.publicKey.updateMany({ where: { id: key.id }, data: { updatedAt: now } });
  if (key.deploy) await db.deployKey.updateMany({ where: { keyId: key.id, repoId }, data: { updatedAt: now } });
}
