import { z } from 'zod';
import { zInt } from '../validation.ts';

/**
 * Gitea `IssueMeta` {index, owner, repo}: the other issue of POST/DELETE …/blocks and …/dependencies. Gitea
 * binds no rule on it: a missing index is 0 and missing names are "" (both then answer 404).
 */
export const IssueMeta = z.object({
  index: zInt
    .nullable()
    .optional()
    .transform((v) => v ?? 0),
  owner: z
    .string()
    .nullable()
    .optional()
    .transform((v) => v ?? ''),
  repo: z
    .string()
    .nullable()
    .optional()
    .transform((v) => v ?? ''),
});
/** An IssueMeta as received. */
export type IssueMeta = z.infer<typeof IssueMeta>;
