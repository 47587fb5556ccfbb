import { z } from 'zod';
import { wireType } from '../validation.ts';

/**
 * Gitea `IssueLabelsOption`: `labels` holds label ids (integers) or label names (strings), never both; the
 * service reads the items, so a non-array is a 422 here and a bad item a 400 there (as Gitea).
 */
export const IssueLabelsOption = z.object({
  labels: wireType(z.array(z.unknown()).nullable().optional(), {
    type: 'array',
    items: { oneOf: [{ type: 'integer', format: 'int64' }, { type: 'string' }] },
    description: 'label ids, or label names',
  }),
});
