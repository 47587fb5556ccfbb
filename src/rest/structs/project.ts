import { z } from 'zod';
import { qEnum, qString } from '../params.ts';

/**
 * Gitea `Project` (modules/structs/project.go), fields in Gitea's order: `owner_id` only for owner-level
 * projects, `repo_id` only for repository projects, `closed_at` only while closed (Go omitempty).
 */
export const Project = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  owner_id: z.number().int().optional(),
  repo_id: z.number().int().optional(),
  creator_id: z.number().int(),
  is_closed: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().optional(),
});
/** A Gitea Project as sent on the wire. */
export type Project = z.infer<typeof Project>;

/** Body of POST …/projects (ours: Gitea has no projects API); `title` is checked by the service (Required, at most 100 characters). */
export const CreateProjectOption = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  template_type: z
    .union([z.literal(0), z.literal(1), z.literal(2)])
    .optional()
    .describe("Gitea's project template (TemplateType): 0 none (default), 1 basic kanban, 2 bug triage"),
});

/** Gitea's TemplateType numbers, as the web form sends them. */
export const PROJECT_TEMPLATE_TYPES = ['NONE', 'BASIC_KANBAN', 'BUG_TRIAGE'] as const;

/** Body of PATCH …/projects/{id}; only given fields change. */
export const EditProjectOption = z.object({
  title: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  state: z.enum(['open', 'closed']).nullable().optional(),
});

/** Query of GET …/projects (page/limit are added by the list route): `state` open (default), closed or all; Gitea's project `sort`. */
export const ListProjectsQuery = z.object({
  state: qEnum(['open', 'closed', 'all'], 'open', 'state of the projects'),
  sort: qString('sort order (anything else is newest first)', {
    enum: ['oldest', 'recentupdate', 'leastupdate', 'alphabetically', 'reversealphabetically'],
  }),
});
