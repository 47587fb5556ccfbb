import { z } from 'zod';
import { qString } from '../params.ts';
import { zBool } from '../validation.ts';

/** Gitea `Label` (modules/structs/issue_label.go), fields in Gitea's order; `color` without `#`. */
export const Label = z.object({
  id: z.number().int(),
  name: z.string(),
  exclusive: z.boolean(),
  is_archived: z.boolean(),
  color: z.string(),
  description: z.string(),
  url: z.string(),
});
/** A Gitea Label as sent on the wire. */
export type Label = z.infer<typeof Label>;

/** Gitea `CreateLabelOption`: name and color required (`binding:"Required"`), `#` optional in color. */
export const CreateLabelOption = z.object({
  name: z.string().min(1),
  exclusive: zBool.optional(),
  color: z.string().min(1),
  description: z.string().optional(),
  is_archived: zBool.optional(),
});

/** Gitea `EditLabelOption`: every field optional; only given fields change. */
export const EditLabelOption = z.object({
  name: z.string().optional(),
  exclusive: zBool.optional(),
  color: z.string().optional(),
  description: z.string().optional(),
  is_archived: zBool.optional(),
});

/** Query of the label lists: Gitea's undocumented `sort` (page/limit are added by the list route). */
export const ListLabelsQuery = z.object({
  sort: qString('sort order', { enum: ['leastissues', 'mostissues', 'reversealphabetically'] }),
});
