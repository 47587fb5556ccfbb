import { z } from 'zod';

/** Gitea `TagProtection` (modules/structs/repo_tag.go). */
export const TagProtection = z.object({
  id: z.number().int(),
  name_pattern: z.string(),
  whitelist_usernames: z.array(z.string()),
  whitelist_teams: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TagProtection = z.infer<typeof TagProtection>;

const names = z.array(z.string()).nullable().optional();

/** Gitea `CreateTagProtectionOption`. */
export const CreateTagProtectionOption = z.object({
  name_pattern: z.string().optional(),
  whitelist_usernames: names,
  whitelist_teams: names,
});
export type CreateTagProtectionOption = z.infer<typeof CreateTagProtectionOption>;

/** Gitea `EditTagProtectionOption`: absent (or null) fields stay as they are. */
export const EditTagProtectionOption = z.object({
  name_pattern: z.string().nullable().optional(),
  whitelist_usernames: names,
  whitelist_teams: names,
});
export type EditTagProtectionOption = z.infer<typeof EditTagProtectionOption>;
