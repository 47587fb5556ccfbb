// Gitea `GPGKey`, `GPGKeyEmail`, `CreateGPGKeyOption`, `VerifyGPGKeyOption` (modules/structs/user_gpgkey.go).
import { z } from 'zod';

/** Gitea `GPGKeyEmail`. */
export const GPGKeyEmail = z.object({ email: z.string(), verified: z.boolean() });

const keyFields = {
  id: z.number().int(),
  primary_key_id: z.string(),
  key_id: z.string(),
  public_key: z.string(),
  emails: z.array(GPGKeyEmail).nullable(),
  can_sign: z.boolean(),
  can_encrypt_comms: z.boolean(),
  can_encrypt_storage: z.boolean(),
  can_certify: z.boolean(),
  verified: z.boolean(),
  created_at: z.string(),
  expires_at: z.string(),
};

/** A subkey as Gitea shows it inside its primary key (no e-mails, no subkeys: null). */
const GPGSubkey = z.object({ ...keyFields, subkeys: z.array(z.never()).nullable() });

/** Gitea `GPGKey`, fields in Gitea's order. */
export const GPGKey = z.object({ ...keyFields, subkeys: z.array(GPGSubkey).nullable() });
/** A GPGKey on the wire. */
export type GPGKey = z.infer<typeof GPGKey>;

/** Gitea `CreateGPGKeyOption`. */
export const CreateGPGKeyOption = z.object({
  armored_public_key: z.string().min(1),
  armored_signature: z.string().optional(),
});

/** Gitea `VerifyGPGKeyOption` (both required). */
export const VerifyGPGKeyOption = z.object({
  key_id: z.string().min(1),
  armored_signature: z.string().min(1),
});
