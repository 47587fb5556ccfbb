import { describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { canReadTeam, canSeeOwner, type TeamReadFacts } from '../../src/permissions/ownerVisibility.ts';
import { canSeeUser, visibleVisibilities } from '../../src/permissions/userVisibility.ts';

type Visibility = Models.Visibility;
type Viewer = Parameters<typeof canSeeOwner>[0];

const OWNER_ID = 100;
const VIEWERS: Record<string, Viewer> = {
  anonymous: null,
  'signed-in': { id: 1, isAdmin: false, isRestricted: false },
  restricted: { id: 2, isAdmin: false, isRestricted: true },
  'site admin': { id: 3, isAdmin: true, isRestricted: false },
  'the account itself': { id: OWNER_ID, isAdmin: false, isRestricted: false },
  'the account itself, restricted': { id: OWNER_ID, isAdmin: false, isRestricted: true },
};

// Gitea HasOrgOrUserVisible (ownerVisibilitySatisfiesDoer || member), non-strict sign-in mode.
// Columns: public, limited, private owner; for a non-member, then for a member.
const OWNER_TABLE: Array<[viewer: string, nonMember: [boolean, boolean, boolean], member: [boolean, boolean, boolean]]> = [
  ['anonymous', [true, false, false], [true, false, false]],
  ['signed-in', [true, true, false], [true, true, true]],
  ['restricted', [true, false, false], [true, true, true]],
  ['site admin', [true, true, true], [true, true, true]],
  ['the account itself', [true, true, true], [true, true, true]],
  ['the account itself, restricted', [true, true, true], [true, true, true]],
];
const VISIBILITIES: Visibility[] = ['PUBLIC', 'LIMITED', 'PRIVATE'];

describe('canSeeOwner', () => {
  const cases = OWNER_TABLE.flatMap(([viewer, nonMember, member]) =>
    VISIBILITIES.flatMap((visibility, i) => [
      { viewer, visibility, isMember: false, want: nonMember[i] },
      { viewer, visibility, isMember: true, want: member[i] },
    ]),
  );
  it.each(cases)('$viewer, $visibility owner, member=$isMember → $want', ({ viewer, visibility, isMember, want }) => {
    expect(canSeeOwner(VIEWERS[viewer] ?? null, { id: OWNER_ID, visibility }, isMember)).toBe(want);
  });
});

describe('canSeeUser', () => {
  it.each([
    ['anonymous', 'PUBLIC', true],
    ['anonymous', 'LIMITED', false],
    ['anonymous', 'PRIVATE', false],
    ['signed-in', 'LIMITED', true],
    ['signed-in', 'PRIVATE', false],
    ['restricted', 'LIMITED', false],
    ['site admin', 'PRIVATE', true],
    ['the account itself', 'PRIVATE', true],
  ] as const)('%s viewing a %s user → %s', (viewer, visibility, want) => {
    expect(canSeeUser(VIEWERS[viewer] ?? null, { id: OWNER_ID, visibility })).toBe(want);
  });

  it('the system context sees everyone; membership widens private organizations', () => {
    expect(canSeeUser(null, { id: OWNER_ID, visibility: 'PRIVATE' }, { system: true })).toBe(true);
    expect(canSeeUser(VIEWERS['signed-in'] ?? null, { id: OWNER_ID, visibility: 'PRIVATE' }, { isMember: true })).toBe(true);
    expect(canSeeUser(VIEWERS.anonymous ?? null, { id: OWNER_ID, visibility: 'PRIVATE' }, { isMember: true })).toBe(false);
  });

  it.each([
    ['anonymous', ['PUBLIC']],
    ['signed-in', ['PUBLIC', 'LIMITED']],
    ['restricted', ['PUBLIC']],
    ['site admin', ['PUBLIC', 'LIMITED', 'PRIVATE']],
  ] as const)('visibleVisibilities for %s', (viewer, want) => {
    expect(visibleVisibilities(VIEWERS[viewer] ?? null)).toEqual(want);
  });
});

describe('canReadTeam', () => {
  const NOBODY: TeamReadFacts = {
    visibility: 'PRIVATE',
    isTeamMember: false,
    isOrgOwner: false,
    isOrgMember: false,
    canSeeOrg: true,
    isSiteAdmin: false,
  };
  // Gitea reqTeamReadAccess + Team.CanNonMemberReadMeta.
  const CASES: Array<[label: string, facts: Partial<TeamReadFacts>, want: boolean]> = [
    ['private team, outsider', {}, false],
    ['private team, org member', { isOrgMember: true }, false],
    ['private team, team member', { isOrgMember: true, isTeamMember: true }, true],
    ['private team, org owner', { isOrgMember: true, isOrgOwner: true }, true],
    ['private team, site admin', { isSiteAdmin: true }, true],
    ['limited team, outsider who can see the org', { visibility: 'LIMITED' }, false],
    ['limited team, org member', { visibility: 'LIMITED', isOrgMember: true }, true],
    ['public team, outsider who can see the org', { visibility: 'PUBLIC' }, true],
    ['public team, outsider who cannot see the org', { visibility: 'PUBLIC', canSeeOrg: false }, false],
    ['public team of an invisible org, site admin', { visibility: 'PUBLIC', canSeeOrg: false, isSiteAdmin: true }, true],
    ['limited team, team member who is somehow not an org member', { visibility: 'LIMITED', isTeamMember: true }, true],
  ];
  it.each(CASES)('%s → %s', (_label, f, want) => {
    expect(canReadTeam({ ...NOBODY, ...f })).toBe(want);
  });
});
