// Activity feeds (Gitea services/feed GetFeeds): the four REST lists and the GraphQL connections' queries.
import type { Models } from '../../db/client.ts';
import type { RepoPermission } from '../../permissions/repoPermission.ts';
import { isSiteAdmin, requireTokenScope } from '../access/guards.ts';
import { requireOrg } from '../access/orgAccess.ts';
import { requireRepo } from '../access/repoAccess.ts';
import { requireTeamRead } from '../access/teamAccess.ts';
import type { ServiceContext } from '../context.ts';
import { loadCommentViews, type CommentView } from '../issue/comment.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { loadApiRepos, withPermissions, type ApiRepoRow } from '../repo/repoRows.ts';
import { getUserByName } from '../user/user.ts';
import { activityReadWhere, type FeedScope } from './visibility.ts';

type Where = Models.Prisma.ActionWhereInput;

/** An activity with what its REST form needs, bulk-loaded: the actor, the repository (with the viewer's permission) and the comment. */
export interface ActivityView {
  action: Models.Action;
  actUser: Models.User;
  repo: ApiRepoRow;
  perm: RepoPermission;
  comment: CommentView | null;
}

/** The list options of every feed: a page and Gitea's `date` (YYYY-MM-DD; anything else is ignored, as Gitea does). */
export interface FeedListInput extends ListOptions {
  date?: string;
}

/** Newest first (Gitea orders by created_unix DESC); the id breaks ties. */
const FEED_ORDER: Models.Prisma.ActionOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/**
 * Gitea FeedDateCond: the day `date` (YYYY-MM-DD, in the server's time zone, UTC here) from 00:00:00 to 23:59:59.
 * An unparsable date applies no filter.
 */
function dateWhere(date: string | undefined): Where {
  const m = date ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!m) return {};
  const low = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(low.getTime()) || low.toISOString().slice(0, 10) !== date) return {};
  return { createdAt: { gte: low, lt: new Date(low.getTime() + 86_400_000) } };
}

/** Loads one page of a feed with its total, converting rows in a constant number of queries. */
async function listFeed(cx: ServiceContext, scope: FeedScope, input: FeedListInput): Promise<Page<ActivityView>> {
  const where: Where = { AND: [activityReadWhere(cx, scope), dateWhere(input.date)] };
  const [rows, total] = await Promise.all([
    cx.db.action.findMany({ where, orderBy: FEED_ORDER, include: { actUser: true }, ...skipTake(input) }),
    cx.db.action.count({ where }),
  ]);
  return { items: await loadActivityViews(cx, rows), total };
}

/** The relations of many activity rows: repositories with permissions (one batch), comments, in the rows' order. */
async function loadActivityViews(cx: ServiceContext, rows: readonly (Models.Action & { actUser: Models.User })[]): Promise<ActivityView[]> {
  if (!rows.length) return [];
  const repoIds = [...new Set(rows.map((r) => r.repoId))];
  const commentIds = [...new Set(rows.flatMap((r) => (r.commentId === null ? [] : [r.commentId])))];
  const [repos, comments] = await Promise.all([
    loadApiRepos(cx, { where: { id: { in: repoIds } } }).then((loaded) => withPermissions(cx, loaded)),
    commentIds.length ? cx.db.comment.findMany({ where: { id: { in: commentIds } } }) : [],
  ]);
  const commentViews = await loadCommentViews(cx.db, comments);
  const repoById = new Map(repos.map((r) => [r.repo.id, r]));
  const commentById = new Map(commentViews.map((v) => [v.comment.id, v]));
  return rows.flatMap(({ actUser, ...action }) => {
    const repo = repoById.get(action.repoId);
    if (!repo) return [];
    return [
      {
        action,
        actUser,
        repo: repo.repo,
        perm: repo.perm,
        comment: action.commentId === null ? null : (commentById.get(action.commentId) ?? null),
      },
    ];
  });
}

/** Gitea's IncludePrivate of ListUserActivityFeeds: the account itself and site admins. */
const selfOrAdmin = (cx: ServiceContext, account: Pick<Models.User, 'id'>): boolean =>
  cx.viewer !== null && (isSiteAdmin(cx) || cx.viewer.id === account.id);

/**
 * The feed scope of a user's or organization's own feed in the graph (User.activity, Organization.activity):
 * private rows for the account itself, site admins and, for an organization, its members (as REST's
 * /users/{u}/… and /orgs/{org}/… feeds).
 */
export async function accountFeedScope(cx: ServiceContext, account: Pick<Models.User, 'id' | 'type'>): Promise<FeedScope> {
  let includePrivate = selfOrAdmin(cx, account);
  if (!includePrivate && cx.viewer && account.type === 'ORGANIZATION')
    includePrivate = (await cx.loaders.orgStanding.load(account.id)).isMember;
  return { kind: 'user', user: account, includePrivate };
}

/**
 * GET /users/{username}/activities/feeds: the rows materialized for that account (its own actions, and others'
 * on repositories it owns or watches; only its own with `onlyPerformedBy`).
 * @throws NotFoundError (unknown or invisible account), PermissionDeniedError (token scope)
 */
export async function listUserFeeds(
  cx: ServiceContext,
  username: string,
  input: FeedListInput & { onlyPerformedBy?: boolean },
): Promise<Page<ActivityView>> {
  requireTokenScope(cx, 'user', 'read');
  const user = await getUserByName(cx, username);
  const scope: FeedScope = { kind: 'user', user, includePrivate: selfOrAdmin(cx, user), onlyPerformedBy: input.onlyPerformedBy === true };
  return listFeed(cx, scope, input);
}

/** GET /orgs/{org}/activities/feeds: the organization's rows. @throws NotFoundError, PermissionDeniedError */
export async function listOrgFeeds(cx: ServiceContext, orgName: string, input: FeedListInput): Promise<Page<ActivityView>> {
  requireTokenScope(cx, 'organization', 'read');
  const access = await requireOrg(cx, orgName);
  return listFeed(cx, { kind: 'user', user: access.org, includePrivate: access.isMember }, input);
}

/**
 * GET /teams/{id}/activities/feeds: the organization's rows on the team's repositories, private ones included,
 * for those who may read the team. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listTeamFeeds(cx: ServiceContext, teamId: number, input: FeedListInput): Promise<Page<ActivityView>> {
  const { team } = await requireTeamRead(cx, teamId);
  return listFeed(cx, { kind: 'team', team }, input);
}

/** GET /repos/{owner}/{repo}/activities/feeds: one row per event on the repository. @throws NotFoundError */
export async function listRepoFeeds(cx: ServiceContext, owner: string, name: string, input: FeedListInput): Promise<Page<ActivityView>> {
  requireTokenScope(cx, 'repository', 'read');
  const { repo } = await requireRepo(cx, owner, name);
  return listFeed(cx, { kind: 'repo', repoId: repo.id }, input);
}

/**
 * A page of activity rows for a GraphQL connection: Pothos's `query` (select/include, cursor, take, skip) spread
 * under the feed's read policy, newest first.
 */
export function findActivityRows<Q extends Omit<Models.Prisma.ActionFindManyArgs, 'where' | 'orderBy'>>(
  cx: ServiceContext,
  scope: FeedScope,
  query: Q,
): Promise<Models.Action[]> {
  return cx.db.action.findMany({ ...query, where: activityReadWhere(cx, scope), orderBy: { id: 'desc' } });
}

/** The number of activity rows of a feed the viewer may read (GraphQL totalCount). */
export function countActivityRows(cx: ServiceContext, scope: FeedScope): Promise<number> {
  return cx.db.action.count({ where: activityReadWhere(cx, scope) });
}
