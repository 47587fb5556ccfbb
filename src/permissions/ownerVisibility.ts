import type { Models } from '../db/client.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin' | 'isRestricted'> | null;
type Owner = Pick<Models.User, 'id' | 'visibility'>;

/**
 * Gitea's HasOrgOrUserVisible: public owners are visible to everyone; limited ones to signed-in users
 * (restricted users only when they are members); private ones to members (or the user itself) and admins.
 */
export function canSeeOwner(viewer: Viewer, owner: Owner, isMember: boolean): boolean {
  if (viewer && (viewer.isAdmin || viewer.id === owner.id)) return true;
  switch (owner.visibility) {
    case 'PUBLIC':
      return true;
    case 'LIMITED':
      return viewer !== null && (!viewer.isRestricted || isMember);
    case 'PRIVATE':
      return viewer !== null && isMember;
  }
}

/** What decides whether a team's metadata (and member and repository lists) may be read. */
export interface TeamReadFacts {
  visibility: Models.Visibility;
  isTeamMember: boolean;
  isOrgOwner: boolean;
  isOrgMember: boolean;
  canSeeOrg: boolean;
  isSiteAdmin: boolean;
}

/**
 * Gitea's team read rule (reqTeamReadAccess + CanNonMemberReadMeta): admins, org owners and team members
 * always; otherwise public teams to anyone who can see the org, limited teams to org members,
 * private teams to nobody else.
 */
export function canReadTeam(f: TeamReadFacts): boolean {
  if (f.isSiteAdmin || f.isOrgOwner || f.isTeamMember) return true;
  if (f.visibility === 'PUBLIC') return f.canSeeOrg;
  if (f.visibility === 'LIMITED') return f.isOrgMember;
  return false;
}
