import { z } from 'zod';
import { zBool } from '../validation.ts';
import { Organization } from './org.ts';

const accessLevel = z.enum(['none', 'read', 'write', 'admin', 'owner']);

/** Gitea `Team` (modules/structs/org_team.go), fields in Gitea's order; `organization` is null where Gitea does not load it. */
export const Team = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  organization: Organization.nullable(),
  includes_all_repositories: z.boolean(),
  permission: accessLevel,
  units: z.array(z.string()).nullable(),
  units_map: z.record(z.string(), accessLevel),
  can_create_org_repo: z.boolean(),
  visibility: z.enum(['public', 'limited', 'private']),
});
export type Team = z.infer<typeof Team>;

// Rules beyond JSON types (Required, AlphaDashDot, MaxSize, In) are the service's, checked after permissions as Gitea's bind.
const units = z.array(z.string()).nullable().optional();
const unitsMap = z.record(z.string(), z.string()).nullable().optional();

/** Gitea `CreateTeamOption`. */
export const CreateTeamOption = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  includes_all_repositories: zBool.optional(),
  permission: z.string().optional(),
  units,
  units_map: unitsMap,
  can_create_org_repo: zBool.optional(),
  visibility: z.string().optional(),
});

/** Gitea `EditTeamOption`: only given fields change. */
export const EditTeamOption = z.object({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  includes_all_repositories: zBool.nullable().optional(),
  permission: z.string().optional(),
  units,
  units_map: unitsMap,
  can_create_org_repo: zBool.nullable().optional(),
  visibility: z.string().nullable().optional(),
});

/** Gitea's team search answer: `{ok, data}`. */
export const TeamSearchResults = z.object({ ok: z.boolean(), data: z.array(Team) });
