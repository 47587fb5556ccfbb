import DataLoader from 'dataloader';
import { readRows } from '../../db/readPath.ts';
import type { ServiceContext } from '../context.ts';
import { orgMemberReadWhere } from '../org/visibility.ts';
import { collaborationReadWhere } from '../repo/visibility.ts';

/** The values of GitHub's CommentAuthorAssociation that Forgegraph can tell. */
export type AuthorAssociation = 'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'MANNEQUIN' | 'NONE';

/** The author of an issue, pull request or comment: the issue row it is on and the user (null for a deleted one). */
export interface AuthorKey {
  issueId: number;
  userId: number | null;
}

const keyOf = (k: AuthorKey): string => `${k.issueId}:${k.userId ?? 0}`;
const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/**
 * A per-request loader of how authors stand to the repository of an issue (GitHub's authorAssociation): OWNER
 * for the repository's owner, MEMBER for a member of the organization that owns it, COLLABORATOR for a
 * collaborator, else NONE (deleted users too). A membership or collaboration counts only where the viewer may
 * see it (orgMemberReadWhere, collaborationReadWhere: a private membership is NONE to outsiders, collaborators
 * are NONE to anonymous viewers). Callers have already made sure the issues are readable. At most three
 * statements a batch, whatever its size.
 */
export function authorAssociationLoader(cx: ServiceContext): DataLoader<AuthorKey, AuthorAssociation, string> {
  return new DataLoader<AuthorKey, AuthorAssociation, string>(
    async (keys) => {
      const userIds = unique(keys.map((k) => k.userId).filter((id): id is number => id !== null));
      if (!userIds.length) return keys.map(() => 'NONE');
      const issues = await readRows<'Issue', { id: number; repoId: number; ownerId: number; ownerType: string }>(
        cx.db,
        'Issue',
        `SELECT i."id", i."repoId", r."ownerId", o."type" AS "ownerType" FROM "Issue" i
          JOIN "Repository" r ON r."id" = i."repoId" JOIN "User" o ON o."id" = r."ownerId" WHERE i."id" IN (?)`,
        [unique(keys.map((k) => k.issueId))],
      );
      const byIssue = new Map(issues.map((i) => [i.id, i]));
      const orgIds = unique(issues.filter((i) => i.ownerType === 'ORGANIZATION').map((i) => i.ownerId));
      const [members, collaborators] = await Promise.all([
        orgIds.length
          ? cx.db.orgUser.findMany({
              where: { orgId: { in: orgIds }, userId: { in: userIds }, AND: [orgMemberReadWhere(cx)] },
              select: { orgId: true, userId: true },
            })
          : [],
        cx.db.collaboration.findMany({
          where: { repoId: { in: unique(issues.map((i) => i.repoId)) }, userId: { in: userIds }, AND: [collaborationReadWhere(cx)] },
          select: { repoId: true, userId: true },
        }),
      ]);
      const member = new Set(members.map((m) => `${m.orgId}:${m.userId}`));
      const collaborator = new Set(collaborators.map((c) => `${c.repoId}:${c.userId}`));
      return keys.map((k): AuthorAssociation => {
        const issue = byIssue.get(k.issueId);
        if (!issue || k.userId === null) return 'NONE';
        if (issue.ownerId === k.userId) return 'OWNER';
        if (member.has(`${issue.ownerId}:${k.userId}`)) return 'MEMBER';
        if (collaborator.has(`${issue.repoId}:${k.userId}`)) return 'COLLABORATOR';
        return 'NONE';
      });
    },
    { cacheKeyFn: keyOf },
  );
}

/** What authorAssociationOf reads of an issue, pull request or comment row. */
export interface AuthoredRow {
  issueId: number;
  posterId: number | null;
  /** Non-zero for a migrated row: posted by the migrating user on behalf of a user of the source service. */
  originalAuthorId: number;
}

/**
 * The association of a row's author: MANNEQUIN for a migrated row (its author is a placeholder for a user of the
 * source service, whoever ran the migration), else the loader's answer for the poster.
 */
export function authorAssociationOf(
  loader: DataLoader<AuthorKey, AuthorAssociation, string>,
  row: AuthoredRow,
): AuthorAssociation | Promise<AuthorAssociation> {
  if (row.originalAuthorId !== 0) return 'MANNEQUIN';
  return loader.load({ issueId: row.issueId, userId: row.posterId });
}
