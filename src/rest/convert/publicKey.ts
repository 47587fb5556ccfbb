// User SSH keys → Gitea PublicKey JSON (convert.ToPublicKey + the API's appendPrivateInformation).
import type { Models } from '../../db/client.ts';
import type { UserKey } from '../../services/user/publicKey.ts';
import type { PublicKey } from '../structs/publicKey.ts';
import { apiTime } from './time.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

/** Who is looking, and whether they see the owner's details of each key (its owner or a site admin). */
export interface KeyViewer {
  viewer: Pick<Models.User, 'id' | 'isAdmin'> | null;
  showsOwner: (key: UserKey) => boolean;
}

/** Gitea convert.ToPublicKey; the key's owner and site admins also get `user`, `key_type` and `read_only`. */
export function toApiPublicKey(key: UserKey, kv: KeyViewer, opts: ConvertOptions): PublicKey {
  const out: PublicKey = {
    id: key.id,
    key: key.content,
    url: `${opts.rootUrl}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: apiTime(key.createdAt),
    last_used_at: apiTime(key.updatedAt),
  };
  if (!kv.showsOwner(key)) return out;
  if (key.owner) out.user = toApiUser(key.owner, kv.viewer, opts);
  // read_only is omitempty in Gitea: absent when false.
  if (key.mode === 'READ') out.read_only = true;
  out.key_type = key.type === 'USER' ? 'user' : key.type === 'DEPLOY' ? 'deploy' : 'unknown';
  return out;
}

/** A list of user keys. */
export function toApiPublicKeyList(keys: readonly UserKey[], kv: KeyViewer, opts: ConvertOptions): PublicKey[] {
  return keys.map((k) => toApiPublicKey(k, kv, opts));
}
