import type { Models } from '../../db/client.ts';

type Where = Models.Prisma.RepositoryWhereInput;

/**
 * Gitea's collaboration condition for `uid` (SearchRepoOptions.OwnerID with Collaborate): repositories not
 * owned by the user that they reach as a collaborator, through a team, or as a member of a public repository's
 * organization.
 */
export function collaborativeWhere(userId: number): Where {
  return {
    ownerId: { not: userId },
    OR: [
      { collaborations: { some: { userId } } },
      { teamRepos: { some: { team: { members: { some: { userId } } } } } },
      { owner: { orgTeams: { some: { includesAllRepositories: true, members: { some: { userId } } } } } },
      { isPrivate: false, owner: { orgMembers: { some: { userId } } } },
    ],
  };
}
