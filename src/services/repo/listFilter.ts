import type { Models } from '../../db/client.ts';
import { InvalidArgumentError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';

type Where = Models.Prisma.RepositoryWhereInput;

/** How the viewer (or the account a list belongs to) is related to a repository: GitHub's RepositoryAffiliation. */
export type RepoAffiliation = 'OWNER' | 'COLLABORATOR' | 'ORGANIZATION_MEMBER';

/** Filters of a list of repositories (GitHub's arguments of User.repositories and friends); absent: no filter. */
export interface RepoListFilter {
  /** PUBLIC or PRIVATE (GitHub privacy). */
  privacy?: 'PUBLIC' | 'PRIVATE';
  /** PUBLIC, PRIVATE or INTERNAL (GitHub visibility): no Gitea repository is INTERNAL. */
  visibility?: 'PUBLIC' | 'PRIVATE' | 'INTERNAL';
  isFork?: boolean;
  isArchived?: boolean;
  /** GitHub's migration lock: no Gitea repository is locked. */
  isLocked?: boolean;
  hasIssuesEnabled?: boolean;
  /** Only repositories the viewer is related to in one of these ways (none for an anonymous viewer). */
  viewerAffiliations?: readonly RepoAffiliation[];
}

/** Matches no repository (a filter for something no Gitea repository is). */
const NONE: Where = { id: { in: [] } };

/** The repositories the viewer is related to in one of `affiliations`. */
function viewerAffiliationWhere(cx: ServiceContext, affiliations: readonly RepoAffiliation[]): Where {
  const viewer = cx.viewer;
  if (!viewer) return NONE;
  const or: Where[] = [];
  if (affiliations.includes('OWNER')) or.push({ ownerId: viewer.id });
  if (affiliations.includes('COLLABORATOR')) or.push({ collaborations: { some: { userId: viewer.id } } });
  if (affiliations.includes('ORGANIZATION_MEMBER'))
    or.push({ owner: { type: 'ORGANIZATION', orgMembers: { some: { userId: viewer.id } } } });
  return { OR: or };
}

/**
 * The `where` of a repository list's filters, to AND with the list's read policy (repoReadWhere), which still
 * decides what the viewer may see.
 */
export function repoListWhere(cx: ServiceContext, f: RepoListFilter): Where {
  const and: Where[] = [];
  if (f.privacy) and.push({ isPrivate: f.privacy === 'PRIVATE' });
  if (f.visibility) and.push(f.visibility === 'INTERNAL' ? NONE : { isPrivate: f.visibility === 'PRIVATE' });
  if (f.isFork !== undefined) and.push({ isFork: f.isFork });
  if (f.isArchived !== undefined) and.push({ isArchived: f.isArchived });
  if (f.isLocked) and.push(NONE);
  if (f.hasIssuesEnabled !== undefined) {
    const issues: Where = { units: { some: { type: 'ISSUES' } } };
    and.push(f.hasIssuesEnabled ? issues : { NOT: issues });
  }
  if (f.viewerAffiliations?.length) and.push(viewerAffiliationWhere(cx, f.viewerAffiliations));
  return and.length ? { AND: and } : {};
}

/**
 * Checks the owner affiliations asked of a list that holds only what one account owns (its repositories): OWNER
 * (or nothing) is what it lists; the others name repositories it does not list.
 * @throws InvalidArgumentError for COLLABORATOR or ORGANIZATION_MEMBER
 */
export function assertOwnedOnly(affiliations: readonly RepoAffiliation[] | undefined, argument: string): void {
  const other = affiliations?.find((a) => a !== 'OWNER');
  if (other)
    throw new InvalidArgumentError(
      `${argument}: only OWNER is supported here (this list holds the repositories the account owns, not those it reaches as ${other})`,
      { argument },
    );
}

/**
 * Checks the owner affiliations asked of a list of other accounts' repositories (forks, watched repositories),
 * which it cannot filter by: only none. @throws InvalidArgumentError when one is given
 */
export function assertNoOwnerAffiliations(affiliations: readonly RepoAffiliation[] | undefined, argument: string): void {
  if (affiliations?.length)
    throw new InvalidArgumentError(`${argument}: not supported on this list; filter by the viewer with \`affiliations\``, { argument });
}

/** GitHub's RepositoryOrderField. PUSHED_AT is Gitea's updated time, which every push moves. */
export type RepoOrderField = 'CREATED_AT' | 'NAME' | 'PUSHED_AT' | 'STARGAZERS' | 'UPDATED_AT';

/** The order of a repository list (with the id as tie-breaker, so pages are stable). */
export function repoListOrderBy(
  order: { field: RepoOrderField; direction: 'ASC' | 'DESC' } | undefined,
  fallback: Models.Prisma.RepositoryOrderByWithRelationInput[],
): Models.Prisma.RepositoryOrderByWithRelationInput[] {
  if (!order) return fallback;
  const dir = order.direction === 'DESC' ? ('desc' as const) : ('asc' as const);
  switch (order.field) {
    case 'CREATED_AT':
      return [{ createdAt: dir }, { id: dir }];
    case 'NAME':
      return [{ lowerName: dir }, { id: dir }];
    case 'PUSHED_AT':
    case 'UPDATED_AT':
      return [{ updatedAt: dir }, { id: dir }];
    case 'STARGAZERS':
      return [{ numStars: dir }, { id: dir }];
  }
}
