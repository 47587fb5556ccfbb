// GitHub's CommentAuthorAssociation (an author's relation to a repository) from Gitea's facts: ownership,
// organization membership, collaboration, and merged pull requests (Gitea's "Contributor" role).
import DataLoader from 'dataloader';
import type { ServiceContext } from '../context.ts';
import { orgMemberReadWhere } from '../org/visibility.ts';
import { issueReadWhere } from './visibility.ts';
import { collaborationReadWhere } from '../repo/visibility.ts';

/** The associations Forgegraph can tell (GitHub's FIRST_TIMER, FIRST_TIME_CONTRIBUTOR and MANNEQUIN never). */
export type AuthorAssociation = 'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'CONTRIBUTOR' | 'NONE';

/** An author of something in a repository. */
export interface AuthorKey {
  repoId: number;
  userId: number;
}

/**
 * Per request: the association of many authors with many repositories, in four queries whatever their number.
 * OWNER: the repository's owner; MEMBER: a member of the organization that owns it; COLLABORATOR: a collaborator;
 * CONTRIBUTOR: the author of a merged pull request into it; else NONE. Each fact is read through its own read
 * policy (organization memberships, collaborator lists, pull requests), so an association never tells the viewer
 * more than those lists would: a private membership or collaboration they may not list reads as NONE.
 */
export function authorAssociationLoader(cx: ServiceContext): DataLoader<AuthorKey, AuthorAssociation, string> {
  return new DataLoader(
    async (keys: readonly AuthorKey[]) => {
      const repoIds = [...new Set(keys.map((k) => k.repoId))];
      const userIds = [...new Set(keys.map((k) => k.userId))];
      const repos = await cx.db.repository.findMany({ where: { id: { in: repoIds } }, select: { id: true, ownerId: true } });
      const ownerOf = new Map(repos.map((r) => [r.id, r.ownerId]));
      const [members, collaborations, merged] = await Promise.all([
        cx.db.orgUser.findMany({
          where: { AND: [{ orgId: { in: [...new Set(ownerOf.values())] }, userId: { in: userIds } }, orgMemberReadWhere(cx)] },
          select: { orgId: true, userId: true },
        }),
        cx.db.collaboration.findMany({
          where: { AND: [{ repoId: { in: repoIds }, userId: { in: userIds } }, collaborationReadWhere(cx)] },
          select: { repoId: true, userId: true },
        }),
        cx.db.issue.groupBy({
          by: ['repoId', 'posterId'],
          where: {
            AND: [
              { repoId: { in: repoIds }, posterId: { in: userIds }, isPull: true, pullRequest: { hasMerged: true } },
              issueReadWhere(cx),
            ],
          },
        }),
      ]);
      const member = new Set(members.map((m) => `${m.orgId}:${m.userId}`));
      const collaborator = new Set(collaborations.map((c) => `${c.repoId}:${c.userId}`));
      const contributor = new Set(merged.map((i) => `${i.repoId}:${i.posterId}`));
      return keys.map(({ repoId, userId }): AuthorAssociation => {
        const ownerId = ownerOf.get(repoId);
        if (ownerId === userId) return 'OWNER';
        if (ownerId !== undefined && member.has(`${ownerId}:${userId}`)) return 'MEMBER';
        if (collaborator.has(`${repoId}:${userId}`)) return 'COLLABORATOR';
        return contributor.has(`${repoId}:${userId}`) ? 'CONTRIBUTOR' : 'NONE';
      });
    },
    { cacheKeyFn: (k) => `${k.repoId}:${k.userId}` },
  );
}
