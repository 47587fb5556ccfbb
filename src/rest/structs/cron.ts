import { z } from 'zod';

/** Gitea `Cron` (modules/structs/cron.go): one cron task of GET /admin/cron. */
export const Cron = z.object({
  name: z.string(),
  schedule: z.string(),
  next: z.string(),
  prev: z.string(),
  exec_times: z.number().int(),
});
export type Cron = z.infer<typeof Cron>;
