import { z } from 'zod';
import { goName, zBool, zStringList } from '../validation.ts';

/** Gitea `OAuth2Application`: `client_secret` is set only in the answers of create and update. */
export const OAuth2Application = z.object({
  id: z.number().int(),
  name: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  redirect_uris: z.array(z.string()),
  confidential_client: z.boolean(),
  skip_secondary_authorization: z.boolean(),
  created: z.string(),
});
export type OAuth2Application = z.infer<typeof OAuth2Application>;

/** Gitea `CreateOAuth2ApplicationOptions` (also the body of an update, which replaces every field). */
export const CreateOAuth2ApplicationOptions = z.object({
  name: z.string().min(1),
  redirect_uris: goName(zStringList, 'RedirectURIs'),
  confidential_client: zBool.optional(),
  skip_secondary_authorization: zBool.optional(),
});

/** A grant: an application the user authorized (Forgegraph extension; Gitea shows these only in its web settings). */
export const OAuth2Grant = z.object({
  id: z.number().int(),
  application_id: z.number().int(),
  application_name: z.string(),
  client_id: z.string(),
  scope: z.string(),
  created: z.string(),
  updated: z.string(),
});
export type OAuth2Grant = z.infer<typeof OAuth2Grant>;
