import { z } from 'zod';
import { qEnum, qString } from '../params.ts';

const zDateTime = z.iso.datetime({ offset: true });

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

/** Query of GET /repos/{o}/{r}/milestones (page/limit are added by the list route); unknown states read as open (Gitea). */
export const ListMilestonesQuery = z.object({
  state: qEnum(['open', 'closed', 'all'], 'open', 'milestone state'),
  name: qString('filter by milestone name'),
});
