import type { Models } from '../../db/client.ts';
import { ValidationError } from '../../errors.ts';
import type { UnitGrant } from '../../permissions/teamUnits.ts';
import { unitFromKey, type UnitType } from '../../permissions/units.ts';

type AccessMode = Models.AccessMode;
type Visibility = Models.Visibility;

/** What a team create or edit asks for (Gitea CreateTeamOption / EditTeamOption, already JSON-decoded). */
export interface TeamInput {
  name?: string;
  description?: string;
  /** Gitea's `permission`: only `admin` gives the team admin authority; `read`/`write` only shape `units`. */
  permission?: string;
  /** Deprecated unit key list (`repo.code` …); each unit gets `permission` (read or write, otherwise none). */
  units?: readonly string[] | null;
  /** Unit key → `read` | `write` | `admin` (anything else is `none`); wins over `units`. */
  unitsMap?: Readonly<Record<string, string>> | null;
  includesAllRepositories?: boolean;
  canCreateOrgRepo?: boolean;
  /** `public`, `limited` or `private`; empty means private. */
  visibility?: string;
}

// go-chi binding AlphaDashDot: letters, digits, `_`, `-` and `.` only.
const ALPHA_DASH_DOT = /^[\w.-]+$/;
const VISIBILITIES = ['public', 'limited', 'private'];

function runes(s: string): number {
  return [...s].length;
}

/**
 * Gitea's binding rules for a team body, in struct order (Name, Description, Visibility); the first failure
 * wins, as `[Field]: Rule`. The name is required on create only.
 * @throws ValidationError
 */
export function validateTeamInput(input: TeamInput, opts: { create: boolean }): void {
  const name = input.name ?? '';
  if (opts.create && !name) throw new ValidationError('Required', { field: 'name', rule: 'Required' });
  if (name && !ALPHA_DASH_DOT.test(name)) throw new ValidationError('AlphaDashDot', { field: 'name', rule: 'AlphaDashDot' });
  if (runes(name) > 255) throw new ValidationError('MaxSize', { field: 'name', rule: 'MaxSize' });
  if (input.description !== undefined && runes(input.description) > 255) {
    throw new ValidationError('MaxSize', { field: 'description', rule: 'MaxSize' });
  }
  if (input.visibility && !VISIBILITIES.includes(input.visibility)) throw new ValidationError('In', { field: 'visibility', rule: 'In' });
}

/** Gitea NormalizeTeamVisibility: anything but public/limited is private. */
export function teamVisibility(v: string | undefined): Visibility {
  return v === 'public' ? 'PUBLIC' : v === 'limited' ? 'LIMITED' : 'PRIVATE';
}

/** Gitea ParseAccessMode(p, none, admin): only `admin` counts; `read`/`write` leave the team at none. */
export function teamAuthority(permission: string | undefined): AccessMode {
  return permission === 'admin' ? 'ADMIN' : 'NONE';
}

/** Gitea ParseAccessMode without `owner` (never accepted from input). */
function unitMode(p: string): AccessMode {
  return p === 'read' ? 'READ' : p === 'write' ? 'WRITE' : p === 'admin' ? 'ADMIN' : 'NONE';
}

/**
 * The units a non-admin team gets from a body, or null when it names none: `units_map` when non-empty
 * (unknown keys dropped; case-insensitive keys), else `units` with `permission` read/write (else none),
 * unknown names silently dropped, duplicates once.
 */
export function requestedUnits(input: TeamInput): UnitGrant[] | null {
  const map = input.unitsMap ?? {};
  if (Object.keys(map).length > 0) {
    const byType = new Map<UnitType, AccessMode>();
    for (const [key, p] of Object.entries(map)) {
      const type = unitFromKey(key.toLowerCase());
      if (type) byType.set(type, unitMode(p));
    }
    return [...byType].map(([type, accessMode]) => ({ type, accessMode }));
  }
  if (input.units && input.units.length > 0) {
    const mode: AccessMode = input.permission === 'read' ? 'READ' : input.permission === 'write' ? 'WRITE' : 'NONE';
    const types = new Set<UnitType>();
    for (const key of input.units) {
      const type = unitFromKey(key.toLowerCase());
      if (type) types.add(type);
    }
    return [...types].map((type) => ({ type, accessMode: mode }));
  }
  return null;
}
