import type { Models } from '../db/client.ts';
import { atLeast, type AccessMode } from './accessMode.ts';
import { ALL_UNITS, READ_ONLY_UNITS, type UnitType } from './units.ts';

/** One unit grant of a team (a TeamUnit row). */
export interface UnitGrant {
  type: UnitType;
  accessMode: AccessMode;
}

/** The team authorities that have every unit (Gitea Team.HasAdminAccess: admin and owner teams). */
export const EVERY_UNIT_AUTHORITIES: readonly Models.AccessMode[] = ['ADMIN', 'OWNER'];

/** Gitea Team.HasAdminAccess: a team of admin or owner authority has every unit, whatever its rows say. */
export function hasEveryUnit(authorize: AccessMode): boolean {
  return atLeast(authorize, 'ADMIN');
}

/**
 * A team's units as Gitea reports them (convert.ToTeam, GetUnitsMap): every unit at the team's authority for
 * admin and owner teams, otherwise its own rows in order.
 */
export function teamUnitModes(team: { authorize: AccessMode; units: readonly UnitGrant[] }): UnitGrant[] {
  return hasEveryUnit(team.authorize) ? ALL_UNITS.map((type) => ({ type, accessMode: team.authorize })) : [...team.units];
}

/** The TeamUnit rows stored for a team that has every unit: its authority on each unit, read on the read-only ones. */
export function everyUnitRows(authority: AccessMode): UnitGrant[] {
  return ALL_UNITS.map((type) => ({ type, accessMode: READ_ONLY_UNITS.includes(type) ? 'READ' : authority }));
}
