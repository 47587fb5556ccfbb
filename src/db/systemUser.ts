import type { Models } from './client.ts';

const EPOCH = new Date(0);

/**
 * A user row for one of Gitea's system users (the Ghost of a deleted account, the `gitea-actions` bot): the fields
 * that name it, on top of an account that cannot sign in, owns nothing and counts nothing.
 */
export function systemUserRow(user: Pick<Models.User, 'id' | 'type' | 'name'> & Partial<Models.User>): Models.User {
  return {
    lowerName: user.name.toLowerCase(),
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
    ...user,
  };
}
