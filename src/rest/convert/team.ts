import type { Models } from '../../db/client.ts';
import { modeName } from '../../permissions/accessMode.ts';
import { teamUnitModes } from '../../permissions/teamUnits.ts';
import { unitKey } from '../../permissions/units.ts';
import type { Team } from '../structs/team.ts';
import { toApiOrganization } from './org.ts';
import type { ConvertOptions } from './user.ts';

/** What the converter reads: a team with its units (in creation order). */
export type TeamSource = Models.Team & { units: readonly Pick<Models.TeamUnit, 'type' | 'accessMode'>[] };

/**
 * Gitea convert.ToTeam: admin and owner teams list every unit at the team's own mode; other teams list their
 * unit rows (`units` is null when there are none). `org` null renders `"organization": null`, as Gitea does
 * where it does not load it (team lists, edit).
 */
export function toApiTeam(team: TeamSource, org: Models.User | null, opts: ConvertOptions): Team {
  const units = teamUnitModes(team);
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: org ? toApiOrganization(org, opts) : null,
    includes_all_repositories: team.includesAllRepositories,
    permission: modeName(team.authorize),
    units: units.length ? units.map((u) => unitKey(u.type)) : null,
    units_map: Object.fromEntries(units.map((u) => [unitKey(u.type), modeName(u.accessMode)])),
    can_create_org_repo: team.canCreateOrgRepo,
    visibility: team.visibility.toLowerCase() as Team['visibility'],
  };
}

/** Teams with their organizations (`withOrg`) or with `"organization": null`. */
export function toApiTeamList(teams: readonly (TeamSource & { org: Models.User })[], withOrg: boolean, opts: ConvertOptions): Team[] {
  return teams.map((t) => toApiTeam(t, withOrg ? t.org : null, opts));
}
