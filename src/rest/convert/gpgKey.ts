// GPG keys → Gitea GPGKey JSON (convert.ToGPGKey; `can_certify` repeats `can_sign`, as Gitea's does).
import type { Models } from '../../db/client.ts';
import { keyEmails, type GpgKeyRow } from '../../services/gpg/gpgKey.ts';
import type { GPGKey } from '../structs/gpgKey.ts';
import { apiTime, GO_ZERO } from './time.ts';

/** Gitea's field order: ids and key, e-mails and subkeys, then the flags and times. */
function keyJson(k: Models.GpgKey, emails: GPGKey['emails'], subkeys: GPGKey['subkeys']): GPGKey {
  return {
    id: k.id,
    primary_key_id: k.primaryKeyId,
    key_id: k.keyId,
    public_key: k.content,
    emails,
    subkeys,
    can_sign: k.canSign,
    can_encrypt_comms: k.canEncryptComms,
    can_encrypt_storage: k.canEncryptStorage,
    can_certify: k.canSign,
    verified: k.verified,
    created_at: apiTime(k.keyCreatedAt),
    expires_at: k.expiresAt ? apiTime(k.expiresAt) : GO_ZERO,
  };
}

/** Gitea convert.ToGPGKey: the key's e-mails (activated when it was added) and its subkeys (without either). */
export function toApiGpgKey(k: GpgKeyRow): GPGKey {
  return keyJson(
    k,
    keyEmails(k).map((email) => ({ email, verified: true })),
    k.subkeys.map((s) => ({ ...keyJson(s, null, null), subkeys: null })),
  );
}
