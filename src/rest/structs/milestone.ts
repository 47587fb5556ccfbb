import { z } from 'zod';

const zDateTime = z.iso.datetime({ offset: true });
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

/** Gitea `CreateMilestoneOption`: nothing is required (Gitea creates an untitled milestone). */
export const CreateMilestoneOption = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  due_on: zDateTime.nullable().optional(),
  state: z.string().optional(),
});

/** Gitea `EditMilestoneOption`. */
export const EditMilestoneOption = z.object({
  title: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  due_on: zDateTime.nullable().optional(),
  state: z.string().nullable().optional(),
});

/** Query of GET /repos/{o}/{r}/milestones (page/limit are read separately); unknown states read as open (Gitea). */
export const ListMilestonesQuery = z.object({
  state: z
    .preprocess(first, z.string().optional())
    .transform((v): 'open' | 'closed' | 'all' => (v === 'closed' || v === 'all' ? v : 'open')),
  name: z.preprocess(first, z.string().optional()),
});
