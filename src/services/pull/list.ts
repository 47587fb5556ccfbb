import type { Models } from '../../db/client.ts';
import { InvalidArgumentError } from '../../errors.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';
import { loadPullViews, resolvePullRepo } from './pull.ts';
import type { PullView } from './types.ts';

/** GET /repos/{o}/{r}/pulls filters (Gitea PullRequestsOptions). */
export interface PullFilters {
  /** `open` or `closed`; anything else (Gitea: also the empty default) lists both. */
  state?: string;
  sort?: string;
  /** Label ids: pull requests with any of them. */
  labels?: readonly number[];
  milestone?: number;
  /** The author's login; unknown → 400. */
  poster?: string;
  baseBranch?: string;
  headBranch?: string;
}

/** The ORDER BY of a Gitea sort type, ties broken by id like Gitea. */
export function pullOrder(sort: string | undefined): Models.Prisma.IssueOrderByWithRelationInput[] {
  switch (sort) {
    case 'oldest':
      return [{ createdAt: 'asc' }, { id: 'asc' }];
    case 'recentupdate':
      return [{ updatedAt: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }];
    case 'leastupdate':
      return [{ updatedAt: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }];
    case 'recentclose':
      return [{ closedAt: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }];
    case 'mostcomment':
      return [{ numComments: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }];
    case 'leastcomment':
      return [{ numComments: 'asc' }, { createdAt: 'desc' }, { id: 'desc' }];
    case 'priority':
      return [{ priority: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }];
    default:
      return [{ createdAt: 'desc' }, { id: 'desc' }];
  }
}

/**
 * The WHERE of a pull request list of one repository (Gitea listPullRequestStatement), on the issue rows.
 * @throws InvalidArgumentError for an unknown poster (Gitea answers 400)
 */
export async function pullListWhere(cx: ServiceContext, repoId: number, filters: PullFilters): Promise<Models.Prisma.IssueWhereInput> {
  let posterId: number | undefined;
  if (filters.poster) {
    const poster = await findUserByName(cx.db, filters.poster);
    if (!poster) throw new InvalidArgumentError(`user does not exist [uid: 0, name: ${filters.poster}]`, { name: filters.poster });
    posterId = poster.id;
  }
  const labels = (filters.labels ?? []).filter((id) => Number.isSafeInteger(id));
  return {
    repoId,
    isPull: true,
    ...(filters.state === 'open' || filters.state === 'closed' ? { isClosed: filters.state === 'closed' } : {}),
    ...(labels.length ? { labels: { some: { labelId: { in: labels } } } } : {}),
    ...(filters.milestone && filters.milestone > 0 ? { milestoneId: filters.milestone } : {}),
    ...(posterId !== undefined ? { posterId } : {}),
    ...(filters.baseBranch || filters.headBranch
      ? {
          pullRequest: {
            is: {
              ...(filters.baseBranch ? { baseBranch: filters.baseBranch } : {}),
              ...(filters.headBranch ? { headBranch: filters.headBranch } : {}),
            },
          },
        }
      : {}),
  };
}

/**
 * GET /repos/{o}/{r}/pulls (Gitea ListPullRequests): the repository's pull requests filtered by state, labels
 * (any of), milestone, poster and base branch, in Gitea's sort order, one page, with the total.
 * @throws NotFoundError, PermissionDeniedError, InvalidArgumentError
 */
export async function listPullRequests(
  cx: ServiceContext,
  ref: RepoRef,
  filters: PullFilters,
  page: ListOptions | ListWindow,
): Promise<Page<PullView>> {
  const access = await resolvePullRepo(cx, ref, 'read');
  const where = await pullListWhere(cx, access.repo.id, filters);
  const [total, issues] = await Promise.all([
    cx.db.issue.count({ where }),
    cx.db.issue.findMany({ where, orderBy: pullOrder(filters.sort), ...skipTake(page) }),
  ]);
  return { items: await loadPullViews(cx, issues), total };
}
