// The read policy of releases: published releases of repositories whose releases the viewer reads; drafts to writers.
import { scopeAllows } from '../../auth/scope.ts';
import type { Models } from '../../db/client.ts';
import { EVERY_UNIT_AUTHORITIES } from '../../permissions/teamUnits.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';

type RepoWhere = Models.Prisma.RepositoryWhereInput;

const WRITING: Models.AccessMode[] = ['WRITE', 'ADMIN', 'OWNER'];

/**
 * Repositories whose releases the viewer may write (Gitea's IncludeDrafts: write access to the repository or to
 * its releases unit), as a filter; null when there are none (anonymous, or a token without write:repository,
 * which Gitea's TestAPIReleaseRead shows cannot see drafts).
 */
function releaseWriterRepoWhere(cx: ServiceContext): RepoWhere | null {
  if (cx.auth.method === 'token' && cx.auth.scope && !scopeAllows(cx.auth.scope, ['repository'], 'write')) return null;
  if (isSiteAdmin(cx)) return {};
  const viewer = cx.viewer;
  if (!viewer) return null;
  const userId = viewer.id;
  const inTeam: Models.Prisma.TeamWhereInput = { members: { some: { userId } } };
  const team: Models.Prisma.TeamWhereInput = {
    ...inTeam,
    OR: [{ authorize: { in: [...EVERY_UNIT_AUTHORITIES] } }, { units: { some: { type: 'RELEASES', accessMode: { in: WRITING } } } }],
  };
  return {
    OR: [
      { ownerId: userId },
      { collaborations: { some: { userId, mode: { in: WRITING } } } },
      { teamRepos: { some: { team } } },
      { owner: { type: 'ORGANIZATION', orgTeams: { some: { ...team, includesAllRepositories: true } } } },
    ],
  };
}

/**
 * The read policy of releases (Gitea's release list and reads): not a bare tag (`is_tag`), in a repository whose
 * releases unit the viewer reads, and a draft only where the viewer may write releases.
 */
export function releaseReadWhere(cx: ServiceContext): Models.Prisma.ReleaseWhereInput {
  const writer = releaseWriterRepoWhere(cx);
  return {
    isTag: false,
    repo: repoReadWhere(cx, ['RELEASES']),
    ...(writer === null ? { isDraft: false } : { OR: [{ isDraft: false }, { repo: writer }] }),
  };
}
