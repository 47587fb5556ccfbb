import { z } from 'zod';

/** Gitea `Attachment` (modules/structs/attachment.go), fields in Gitea's order. */
export const Attachment = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  download_count: z.number().int(),
  created_at: z.string(),
  uuid: z.string(),
  browser_download_url: z.string(),
});
export type Attachment = z.infer<typeof Attachment>;
