import { describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import type { AccessMode } from '../../src/permissions/accessMode.ts';
import {
  canRead,
  canReadAny,
  canWrite,
  computeRepoPermission,
  isRepoAdmin,
  unitMode,
  type RepoFacts,
  type RepoPermission,
  type TeamGrant,
  type ViewerFacts,
} from '../../src/permissions/repoPermission.ts';
import { ALL_UNITS, type UnitType } from '../../src/permissions/units.ts';

type Visibility = Models.Visibility;
type OwnerType = Models.UserType;
type Viewer = ViewerFacts['viewer'];

const OWNER_ID = 100;
const PLAIN: Viewer = { id: 1, isAdmin: false, isRestricted: false };
const RESTRICTED: Viewer = { id: 2, isAdmin: false, isRestricted: true };
const ADMIN: Viewer = { id: 3, isAdmin: true, isRestricted: false };
const OWNER: Viewer = { id: OWNER_ID, isAdmin: false, isRestricted: false };
const EXTERNAL: readonly UnitType[] = ['EXT_WIKI', 'EXT_ISSUES'];
const INTERNAL: readonly UnitType[] = ALL_UNITS.filter((u) => !EXTERNAL.includes(u));

function repo(o: { isPrivate?: boolean; ownerType?: OwnerType; visibility?: Visibility; units?: readonly UnitType[] } = {}): RepoFacts {
  return {
    id: 1,
    ownerId: OWNER_ID,
    isPrivate: o.isPrivate ?? false,
    owner: { id: OWNER_ID, type: o.ownerType ?? 'ORGANIZATION', visibility: o.visibility ?? 'PUBLIC' },
    units: o.units ?? ALL_UNITS,
  };
}

function facts(viewer: Viewer, o: Partial<Omit<ViewerFacts, 'viewer'>> = {}): ViewerFacts {
  return { viewer, isOrgMember: false, teams: [], collaboration: null, blocked: false, ...o };
}

/** Every enabled unit at `mode` (external units capped at read). */
function uniform(mode: AccessMode, units: readonly UnitType[] = ALL_UNITS): RepoPermission['units'] {
  const out: RepoPermission['units'] = {};
  for (const u of units) out[u] = EXTERNAL.includes(u) && mode !== 'NONE' ? 'READ' : mode;
  return out;
}

/** A team granting `units` at the given modes (others absent = none). */
function team(authorize: AccessMode, units: Partial<Record<UnitType, AccessMode>> = {}): TeamGrant {
  return { authorize, units };
}

function allUnits(mode: AccessMode): Partial<Record<UnitType, AccessMode>> {
  return Object.fromEntries(ALL_UNITS.map((u) => [u, mode]));
}

describe('computeRepoPermission: no explicit grants', () => {
  // Columns: owner public/limited/private × repository public/private (Gitea GetUserRepoPermission + HasOrgOrUserVisible).
  const COLUMNS: Array<[Visibility, boolean]> = [
    ['PUBLIC', false],
    ['PUBLIC', true],
    ['LIMITED', false],
    ['LIMITED', true],
    ['PRIVATE', false],
    ['PRIVATE', true],
  ];
  const R = 'READ' as const;
  const N = 'NONE' as const;
  const O = 'OWNER' as const;
  const ROWS: Array<[label: string, viewer: Viewer, member: boolean, owners: OwnerType[], expected: AccessMode[]]> = [
    ['anonymous', null, false, ['INDIVIDUAL', 'ORGANIZATION'], [R, N, N, N, N, N]],
    ['signed-in outsider', PLAIN, false, ['INDIVIDUAL', 'ORGANIZATION'], [R, N, R, N, N, N]],
    ['restricted outsider', RESTRICTED, false, ['INDIVIDUAL', 'ORGANIZATION'], [R, N, N, N, N, N]],
    ['site admin', ADMIN, false, ['INDIVIDUAL', 'ORGANIZATION'], [O, O, O, O, O, O]],
    ['the owning user', OWNER, false, ['INDIVIDUAL'], [O, O, O, O, O, O]],
    ['org member without a team on the repo', PLAIN, true, ['ORGANIZATION'], [R, N, R, N, R, N]],
    // Gitea: the org minimum (read on public repositories) is for non-restricted users only; a restricted
    // user reads a public repository only when its owner is public too (accessLevel "fully public").
    ['restricted org member without a team on the repo', RESTRICTED, true, ['ORGANIZATION'], [R, N, N, N, N, N]],
  ];
  const cases = ROWS.flatMap(([label, viewer, member, owners, expected]) =>
    owners.flatMap((ownerType) =>
      COLUMNS.map(([visibility, isPrivate], i) => ({ label, viewer, member, ownerType, visibility, isPrivate, want: expected[i] ?? N })),
    ),
  );

  it.each(cases)(
    '$label, $ownerType owner $visibility, private=$isPrivate → $want',
    ({ viewer, member, ownerType, visibility, isPrivate, want }) => {
      const perm = computeRepoPermission(repo({ ownerType, visibility, isPrivate }), facts(viewer, { isOrgMember: member }));
      expect(perm.mode).toBe(want);
      if (want === 'NONE') expect(ALL_UNITS.filter((u) => unitMode(perm, u) !== 'NONE')).toEqual([]);
      else expect(perm.units).toEqual(uniform(want));
      expect(canReadAny(perm)).toBe(want !== 'NONE');
      expect(isRepoAdmin(perm)).toBe(want === 'OWNER');
      expect(perm.blocked).toBe(false);
    },
  );
});

describe('computeRepoPermission: teams (org member, org repository)', () => {
  const TEAM_CASES: Array<{ name: string; isPrivate: boolean; teams: TeamGrant[]; mode: AccessMode; units: RepoPermission['units'] }> = [
    { name: 'authorize none, no units, private repo', isPrivate: true, teams: [team('NONE')], mode: 'NONE', units: uniform('NONE') },
    {
      name: 'authorize none on a public repo keeps the read minimum',
      isPrivate: false,
      teams: [team('NONE')],
      mode: 'READ',
      units: uniform('READ'),
    },
    {
      name: 'authorize read, every unit read',
      isPrivate: true,
      teams: [team('READ', allUnits('READ'))],
      mode: 'READ',
      units: uniform('READ'),
    },
    {
      name: 'authorize write with per-unit modes',
      isPrivate: true,
      teams: [team('WRITE', { CODE: 'WRITE', ISSUES: 'READ', PULL_REQUESTS: 'NONE' })],
      mode: 'WRITE',
      units: { ...uniform('NONE'), CODE: 'WRITE', ISSUES: 'READ' },
    },
    {
      name: 'per-unit modes on a public repo never drop below read',
      isPrivate: false,
      teams: [team('WRITE', { CODE: 'WRITE', PULL_REQUESTS: 'NONE' })],
      mode: 'WRITE',
      units: { ...uniform('READ'), CODE: 'WRITE' },
    },
    {
      name: 'authorize admin gives owner on everything',
      isPrivate: true,
      teams: [team('ADMIN', { CODE: 'READ' })],
      mode: 'OWNER',
      units: uniform('OWNER'),
    },
    {
      name: 'authorize owner (the Owners team) gives owner',
      isPrivate: true,
      teams: [team('OWNER', allUnits('OWNER'))],
      mode: 'OWNER',
      units: uniform('OWNER'),
    },
    {
      name: 'several teams: the maximum per unit',
      isPrivate: true,
      teams: [team('WRITE', { CODE: 'READ', ISSUES: 'WRITE' }), team('WRITE', { CODE: 'WRITE', ISSUES: 'READ', WIKI: 'READ' })],
      mode: 'WRITE',
      units: { ...uniform('NONE'), CODE: 'WRITE', ISSUES: 'WRITE', WIKI: 'READ' },
    },
    {
      name: 'one admin team among others wins',
      isPrivate: true,
      teams: [team('READ', { CODE: 'READ' }), team('ADMIN')],
      mode: 'OWNER',
      units: uniform('OWNER'),
    },
    {
      name: 'external units are capped at read',
      isPrivate: true,
      teams: [team('WRITE', { EXT_ISSUES: 'WRITE', EXT_WIKI: 'WRITE', CODE: 'WRITE' })],
      mode: 'WRITE',
      units: { ...uniform('NONE'), EXT_ISSUES: 'READ', EXT_WIKI: 'READ', CODE: 'WRITE' },
    },
  ];

  it.each(TEAM_CASES)('$name', ({ isPrivate, teams, mode, units }) => {
    const perm = computeRepoPermission(repo({ isPrivate }), facts(PLAIN, { isOrgMember: true, teams }));
    expect(perm.mode).toBe(mode);
    expect(perm.units).toEqual(units);
  });

  it('a restricted member gets exactly what the team gives (no read minimum)', () => {
    const perm = computeRepoPermission(
      repo({ visibility: 'LIMITED' }),
      facts(RESTRICTED, { isOrgMember: true, teams: [team('WRITE', { CODE: 'WRITE' })] }),
    );
    expect(perm.units).toEqual({ ...uniform('NONE'), CODE: 'WRITE' });
    expect(canWrite(perm, 'CODE')).toBe(true);
    expect(canRead(perm, 'ISSUES')).toBe(false);
  });

  it('team grants only cover enabled units', () => {
    const perm = computeRepoPermission(
      repo({ isPrivate: true, units: ['CODE', 'ISSUES'] }),
      facts(PLAIN, { isOrgMember: true, teams: [team('WRITE', allUnits('WRITE'))] }),
    );
    expect(perm.units).toEqual({ CODE: 'WRITE', ISSUES: 'WRITE' });
    expect(canRead(perm, 'PULL_REQUESTS')).toBe(false);
  });
});

describe('computeRepoPermission: collaborators', () => {
  const MODES: AccessMode[] = ['READ', 'WRITE', 'ADMIN'];
  const OWNERS: Array<[OwnerType, Visibility]> = [
    ['INDIVIDUAL', 'PUBLIC'],
    ['INDIVIDUAL', 'PRIVATE'],
    ['ORGANIZATION', 'LIMITED'],
    // The owner is invisible to the collaborator: Gitea still grants the collaboration.
    ['ORGANIZATION', 'PRIVATE'],
  ];
  const cases = MODES.flatMap((mode) => OWNERS.map(([ownerType, visibility]) => ({ mode, ownerType, visibility })));

  it.each(cases)('$mode collaborator on a private repo of a $visibility $ownerType owner', ({ mode, ownerType, visibility }) => {
    const perm = computeRepoPermission(repo({ isPrivate: true, ownerType, visibility }), facts(PLAIN, { collaboration: mode }));
    expect(perm.mode).toBe(mode);
    expect(perm.units).toEqual(uniform(mode));
    expect(canWrite(perm, 'CODE')).toBe(mode !== 'READ');
    expect(isRepoAdmin(perm)).toBe(mode === 'ADMIN');
  });

  it('a restricted collaborator reads a public repo of a limited org', () => {
    const perm = computeRepoPermission(repo({ visibility: 'LIMITED' }), facts(RESTRICTED, { collaboration: 'READ' }));
    expect(perm.mode).toBe('READ');
    expect(canRead(perm, 'CODE')).toBe(true);
  });

  it('collaboration and teams combine per unit', () => {
    const perm = computeRepoPermission(
      repo({ isPrivate: true }),
      facts(PLAIN, { isOrgMember: true, collaboration: 'READ', teams: [team('WRITE', { ISSUES: 'WRITE' })] }),
    );
    expect(perm.units).toEqual({ ...uniform('READ'), ISSUES: 'WRITE' });
    expect(perm.mode).toBe('WRITE');
  });
});

describe('computeRepoPermission: disabled units and blocks', () => {
  it.each([
    ['site admin', ADMIN, 'OWNER'],
    ['anonymous', null, 'READ'],
    ['outsider', PLAIN, 'READ'],
  ] as const)('disabled units are absent, even for the %s', (_label, viewer, mode) => {
    const perm = computeRepoPermission(repo({ units: ['CODE', 'EXT_WIKI'] }), facts(viewer));
    expect(perm.units).toEqual({ CODE: mode, EXT_WIKI: 'READ' });
    expect(unitMode(perm, 'ISSUES')).toBe('NONE');
    expect(canRead(perm, 'ISSUES')).toBe(false);
  });

  it('a repository with no units is still visible through its mode', () => {
    const perm = computeRepoPermission(repo({ units: [] }), facts(PLAIN));
    expect(perm.units).toEqual({});
    expect(canReadAny(perm)).toBe(true);
  });

  it.each([
    ['outsider on a public repo', facts(PLAIN, { blocked: true }), 'READ'],
    ['write collaborator', facts(PLAIN, { blocked: true, collaboration: 'WRITE' }), 'WRITE'],
    ['member of an owner team', facts(PLAIN, { blocked: true, isOrgMember: true, teams: [team('OWNER', allUnits('OWNER'))] }), 'OWNER'],
  ] as const)('blocked %s: can read, cannot write', (_label, v, mode) => {
    const perm = computeRepoPermission(repo(), v);
    expect(perm.blocked).toBe(true);
    expect(perm.mode).toBe(mode);
    expect(canRead(perm, 'CODE')).toBe(true);
    expect(canRead(perm, 'ISSUES')).toBe(true);
    expect(canWrite(perm, 'CODE')).toBe(false);
    expect(canWrite(perm, 'ISSUES')).toBe(false);
  });

  it('blocked viewers of an invisible owner still see nothing', () => {
    const perm = computeRepoPermission(repo({ visibility: 'PRIVATE' }), facts(PLAIN, { blocked: true }));
    expect(perm.mode).toBe('NONE');
    expect(canReadAny(perm)).toBe(false);
  });

  it('the same write collaborator unblocked can write', () => {
    expect(canWrite(computeRepoPermission(repo(), facts(PLAIN, { collaboration: 'WRITE' })), 'CODE')).toBe(true);
  });

  it('internal units of an owner are owner', () => {
    const perm = computeRepoPermission(repo({ ownerType: 'INDIVIDUAL' }), facts(OWNER));
    for (const u of INTERNAL) expect(unitMode(perm, u)).toBe('OWNER');
  });
});

describe('computeRepoPermission: how the viewer reaches the repository', () => {
  it('a public-only token reaches public repositories of public owners only, whoever holds it', () => {
    for (const viewer of [PLAIN, ADMIN, OWNER]) {
      const reach = facts(viewer, { publicOnly: true, collaboration: 'ADMIN' });
      expect(computeRepoPermission(repo({ isPrivate: true }), reach).mode).toBe('NONE');
      expect(computeRepoPermission(repo({ visibility: 'LIMITED' }), reach).mode).toBe('NONE');
      expect(canReadAny(computeRepoPermission(repo(), reach))).toBe(true);
    }
    // On a public repository of a public owner the token keeps the holder's own mode.
    expect(canWrite(computeRepoPermission(repo(), facts(PLAIN, { publicOnly: true, collaboration: 'WRITE' })), 'CODE')).toBe(true);
  });

  it("the operator's CLI has owner on every enabled unit, without a viewer", () => {
    const perm = computeRepoPermission(repo({ isPrivate: true, visibility: 'PRIVATE', units: ['CODE'] }), facts(null, { system: true }));
    expect(perm.mode).toBe('OWNER');
    expect(perm.units).toEqual({ CODE: 'OWNER' });
  });
});
