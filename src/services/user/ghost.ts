import type { Models } from '../../db/client.ts';

/** The id of Gitea's Ghost user (user.NewGhostUser), which stands in for a deleted account. */
export const GHOST_USER_ID = -1;

const EPOCH = new Date(0);

/**
 * Gitea's Ghost user as a user row (id -1, login "Ghost"): what the API answers for an account that was deleted
 * where a user must be named. It has no row, so lookups by its id find nothing.
 */
export function ghostUser(): Models.User {
  return {
    id: GHOST_USER_ID,
    type: 'INDIVIDUAL',
    name: 'Ghost',
    lowerName: 'ghost',
    fullName: '',
    email: '',
    keepEmailPrivate: true,
    passwordHash: '',
    mustChangePassword: false,
    loginSource: 0,
    loginName: '',
    location: '',
    website: '',
    description: '',
    language: '',
    visibility: 'PUBLIC',
    isActive: false,
    isAdmin: false,
    isRestricted: false,
    prohibitLogin: true,
    allowGitHook: false,
    allowImportLocal: false,
    allowCreateOrganization: false,
    maxRepoCreation: 0,
    keepActivityPrivate: true,
    repoAdminChangeTeamAccess: false,
    restrictVisibilityChangesToOwners: false,
    avatar: '',
    numFollowers: 0,
    numFollowing: 0,
    numStars: 0,
    numRepos: 0,
    numTeams: 0,
    numMembers: 0,
    lastLoginAt: null,
    createdAt: EPOCH,
    updatedAt: EPOCH,
    theme: '',
    diffViewStyle: '',
  };
}
