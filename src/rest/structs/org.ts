import { z } from 'zod';
import { goName, zBool } from '../validation.ts';

/** Gitea `Organization` (modules/structs/org.go), fields in Gitea's order. */
export const Organization = z.object({
  id: z.number().int(),
  name: z.string(),
  full_name: z.string(),
  email: z.string(),
  avatar_url: z.string(),
  description: z.string(),
  website: z.string(),
  location: z.string(),
  visibility: z.enum(['public', 'limited', 'private']),
  repo_admin_change_team_access: z.boolean(),
  username: z.string(),
});
export type Organization = z.infer<typeof Organization>;

const visibility = z.enum(['', 'public', 'limited', 'private']);

/** Gitea `RenameOrgOption` (binding Required;Username;MaxSize(40): checked by the service). */
export const RenameOrgOption = z.object({ new_name: goName(z.string().min(1), 'NewName') });

/** Gitea `CreateOrgOption` (plus Forgegraph's restrict_visibility_changes_to_owners). */
export const CreateOrgOption = z.object({
  username: goName(z.string().min(1), 'UserName'),
  full_name: z.string().optional(),
  email: z.string().optional(),
  description: z.string().optional(),
  website: z.string().optional(),
  location: z.string().optional(),
  visibility: visibility.optional(),
  repo_admin_change_team_access: zBool.optional(),
  restrict_visibility_changes_to_owners: zBool.optional(),
});

/** Gitea `EditOrgOption` (plus Forgegraph's restrict_visibility_changes_to_owners). */
export const EditOrgOption = CreateOrgOption.omit({ username: true });

/** Gitea `OrganizationPermissions`: what a user may do in an organization. */
export const OrganizationPermissions = z.object({
  can_create_repository: z.boolean(),
  can_read: z.boolean(),
  can_write: z.boolean(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
});
