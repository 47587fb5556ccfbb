// Gitea `PublicKey` (modules/structs/user_key.go): a user's SSH key as the REST API shows it.
import { z } from 'zod';
import { qString } from '../params.ts';
import { User } from './user.ts';

/** Gitea `PublicKey`; `user`, `key_type` and `read_only` only for the key's owner and site admins (omitempty). */
export const PublicKey = z.object({
  id: z.number().int(),
  key: z.string(),
  url: z.string(),
  title: z.string(),
  fingerprint: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  user: User.optional(),
  read_only: z.boolean().optional(),
  key_type: z.string().optional(),
});
/** A Gitea PublicKey as sent on the wire. */
export type PublicKey = z.infer<typeof PublicKey>;

/** Query of GET /user/keys and GET /users/{u}/keys. */
export const ListPublicKeysQuery = z.object({
  fingerprint: qString('fingerprint of the key'),
});
