import { z } from 'zod';

/** Gitea `ServerVersion`. */
export const ServerVersion = z.object({ version: z.string() });

/** Gitea `GeneralAPISettings`. */
export const GeneralAPISettings = z.object({
  max_response_items: z.number().int(),
  default_paging_num: z.number().int(),
  default_git_trees_per_page: z.number().int(),
  default_max_blob_size: z.number().int(),
  default_max_response_size: z.number().int(),
});

/** Gitea `GeneralAttachmentSettings`: `max_size` in MiB, `allowed_types` a comma list (empty: all). */
export const GeneralAttachmentSettings = z.object({
  enabled: z.boolean(),
  allowed_types: z.string(),
  max_size: z.number().int(),
  max_files: z.number().int(),
});

/** Gitea `GeneralUISettings`. */
export const GeneralUISettings = z.object({
  default_theme: z.string(),
  allowed_reactions: z.array(z.string()),
  custom_emojis: z.array(z.string()),
});

/** Gitea `GeneralRepoSettings`. */
export const GeneralRepoSettings = z.object({
  mirrors_disabled: z.boolean(),
  http_git_disabled: z.boolean(),
  migrations_disabled: z.boolean(),
  stars_disabled: z.boolean(),
  time_tracking_disabled: z.boolean(),
  lfs_disabled: z.boolean(),
});

/** Gitea `APIError`: every error body. */
export const APIError = z.object({ message: z.string(), url: z.string() });
