import { z } from 'zod';

/**
 * Gitea `IssueLabelsOption`: `labels` holds label ids (integers) or label names (strings), never both; the
 * service reads the items, so a non-array is a 422 here and a bad item a 400 there (as Gitea).
 */
export const IssueLabelsOption = z.object({
  labels: z.array(z.unknown()).nullable().optional(),
});
