import { z } from 'zod';
import { goName, zBool, zInt, zStringList } from '../validation.ts';

/** Gitea `User` (modules/structs/user.go), fields in Gitea's order. */
export const User = z.object({
  id: z.number().int(),
  login: z.string(),
  login_name: z.string(),
  source_id: z.number().int(),
  full_name: z.string(),
  email: z.string(),
  avatar_url: z.string(),
  html_url: z.string(),
  language: z.string(),
  is_admin: z.boolean(),
  last_login: z.string(),
  created: z.string(),
  restricted: z.boolean(),
  active: z.boolean(),
  prohibit_login: z.boolean(),
  location: z.string(),
  website: z.string(),
  description: z.string(),
  visibility: z.enum(['public', 'limited', 'private']),
  followers_count: z.number().int(),
  following_count: z.number().int(),
  starred_repos_count: z.number().int(),
  username: z.string(),
});
export type User = z.infer<typeof User>;

export const Email = z.object({
  email: z.string(),
  verified: z.boolean(),
  primary: z.boolean(),
  user_id: z.number().int(),
  username: z.string(),
});
export type Email = z.infer<typeof Email>;

export const AccessToken = z.object({
  id: z.number().int(),
  name: z.string(),
  sha1: z.string(),
  token_last_eight: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string(),
});
export type AccessToken = z.infer<typeof AccessToken>;

export const UserSearchResults = z.object({ ok: z.boolean(), data: z.array(User) });

const visibility = z.enum(['', 'public', 'limited', 'private']);

/** Gitea `CreateUserOption`. */
export const CreateUserOption = z.object({
  username: z.string().min(1),
  email: z.string().min(1),
  password: z.string().optional(),
  full_name: z.string().optional(),
  login_name: z.string().optional(),
  source_id: zInt.optional(),
  must_change_password: zBool.optional(),
  restricted: zBool.optional(),
  send_notify: zBool.optional(),
  visibility: visibility.optional(),
  created_at: z.iso.datetime({ offset: true }).optional(),
});

/** Gitea `RenameUserOption` (binding Required;Username;MaxSize(40): checked by the service). */
export const RenameUserOption = z.object({ new_username: goName(z.string().min(1), 'NewName') });

/** Gitea `EditUserOption` (`login_name` is binding-required). */
export const EditUserOption = z.object({
  login_name: z.string().min(1),
  source_id: zInt.optional(),
  active: zBool.optional(),
  admin: zBool.optional(),
  allow_create_organization: zBool.optional(),
  allow_git_hook: zBool.optional(),
  allow_import_local: zBool.optional(),
  description: z.string().optional(),
  email: z.string().optional(),
  full_name: z.string().optional(),
  location: z.string().optional(),
  max_repo_creation: zInt.optional(),
  must_change_password: zBool.optional(),
  password: z.string().optional(),
  prohibit_login: zBool.optional(),
  restricted: zBool.optional(),
  visibility: visibility.optional(),
  website: z.string().optional(),
});

export const CreateAccessTokenOption = z.object({
  name: z.string().min(1),
  scopes: zStringList.optional(),
});

export const CreateEmailOption = z.object({ emails: zStringList.optional() });
export const DeleteEmailOption = z.object({ emails: zStringList.optional() });

/** Gitea `UserSettings` (the swagger document calls the response a list; Gitea answers one object). */
export const UserSettings = z.object({
  full_name: z.string(),
  website: z.string(),
  description: z.string(),
  location: z.string(),
  language: z.string(),
  theme: z.string(),
  diff_view_style: z.string(),
  hide_email: z.boolean(),
  hide_activity: z.boolean(),
});
export type UserSettings = z.infer<typeof UserSettings>;

/** Gitea `UserSettingsOptions`: every field optional. */
export const UserSettingsOptions = z.object({
  full_name: z.string().nullable().optional(),
  website: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  location: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  theme: z.string().nullable().optional(),
  diff_view_style: z.string().nullable().optional(),
  hide_email: z.boolean().nullable().optional(),
  hide_activity: z.boolean().nullable().optional(),
});

/** Gitea `UserMeta`: who a token belongs to. */
export const UserMeta = z.object({ id: z.number().int(), login: z.string() });

/** Gitea `CurrentAccessToken`: the token a request is made with (no secret, no last eight). */
export const CurrentAccessToken = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string(),
  user: UserMeta,
});
export type CurrentAccessToken = z.infer<typeof CurrentAccessToken>;
