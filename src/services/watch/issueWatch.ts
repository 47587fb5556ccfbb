// Subscriptions to issues and pull requests (Gitea models/issues/issue_watch.go, routers/api/v1/repo/issue_subscription.go).
import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { requireRepoWrite, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { withRetry } from '../dbErrors.ts';
import { findIssueByIndex, locateIssueById } from '../issue/issue.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';
import { WATCHING_MODES } from './repoWatch.ts';

/** Comment types whose authors take part in an issue (Gitea GetParticipantIDsByIssue). */
export const PARTICIPATING_COMMENTS: Models.CommentType[] = ['COMMENT', 'CODE', 'REVIEW'];

/** The viewer's subscription to an issue, for Gitea's WatchInfo. */
export interface IssueSubscription {
  repo: Models.Repository;
  issue: Models.Issue;
  watching: boolean;
}

/**
 * Gitea CheckIssueWatch: an explicit (un)subscription wins; otherwise watching the repository or taking part in
 * the issue (its poster, or the author of a comment or review) subscribes.
 */
export async function isWatchingIssue(
  db: DbLike,
  userId: number,
  issue: Pick<Models.Issue, 'id' | 'repoId' | 'posterId'>,
): Promise<boolean> {
  const [explicit, repoWatch, comment] = await Promise.all([
    db.issueWatch.findUnique({ where: { userId_issueId: { userId, issueId: issue.id } }, select: { isWatching: true } }),
    db.watch.findFirst({ where: { userId, repoId: issue.repoId, mode: { in: WATCHING_MODES } }, select: { id: true } }),
    db.comment.findFirst({ where: { issueId: issue.id, posterId: userId, type: { in: PARTICIPATING_COMMENTS } }, select: { id: true } }),
  ]);
  if (explicit) return explicit.isWatching;
  return repoWatch !== null || issue.posterId === userId || comment !== null;
}

/**
 * GET …/issues/{index}/subscriptions (Gitea GetIssueSubscribers): active users explicitly subscribed.
 * @throws NotFoundError
 */
export async function listIssueSubscribers(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  opts: ListOptions | ListWindow,
): Promise<Page<Models.User>> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const issue = await findIssueByIndex(cx, access, index);
  const where: Models.Prisma.IssueWatchWhereInput = { issueId: issue.id, isWatching: true, user: { isActive: true, prohibitLogin: false } };
  const [rows, total] = await Promise.all([
    cx.db.issueWatch.findMany({ where, orderBy: { id: 'asc' }, include: { user: true }, ...skipTake(opts) }),
    cx.db.issueWatch.count({ where }),
  ]);
  return { items: rows.map((r) => r.user), total };
}

/**
 * GET …/issues/{index}/subscriptions/check (Gitea CheckIssueSubscription): whether the viewer is subscribed.
 * @throws NotFoundError, UnauthenticatedError
 */
export async function checkIssueSubscription(cx: ServiceContext, ref: RepoRef, index: number): Promise<IssueSubscription> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const viewer = requireViewer(cx);
  const issue = await findIssueByIndex(cx, access, index);
  return { repo: access.repo, issue, watching: await isWatchingIssue(cx.db, viewer.id, issue) };
}

/**
 * PUT/DELETE …/issues/{index}/subscriptions/{user} (Gitea setIssueSubscription): only the user themself or a
 * site admin; returns false when the state was already so (Gitea 200), true when it changed (201).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function setIssueSubscription(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  username: string,
  watch: boolean,
): Promise<boolean> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  requireRepoWrite(cx, access, 'write:issue');
  const viewer = requireViewer(cx);
  const issue = await findIssueByIndex(cx, access, index);
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`, { username });
  if (user.id !== viewer.id && !isSiteAdmin(cx)) {
    throw new PermissionDeniedError(`${viewer.name} is not permitted to change subscriptions for ${user.name}`);
  }
  if ((await isWatchingIssue(cx.db, user.id, issue)) === watch) return false;
  await withRetry(() =>
    cx.db.issueWatch.upsert({
      where: { userId_issueId: { userId: user.id, issueId: issue.id } },
      create: { userId: user.id, issueId: issue.id, isWatching: watch },
      update: { isWatching: watch },
    }),
  );
  return true;
}

/**
 * Subscribes or unsubscribes the viewer to an issue or pull request given by id (GraphQL updateSubscription);
 * returns the issue. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function setViewerIssueSubscription(cx: ServiceContext, issueId: number, watch: boolean): Promise<Models.Issue> {
  const viewer = requireViewer(cx);
  const { ref, index } = await locateIssueById(cx, issueId);
  await setIssueSubscription(cx, ref, index, viewer.name, watch);
  return cx.db.issue.findUniqueOrThrow({ where: { id: issueId } });
}

/**
 * The issues `userId` is subscribed to, as a filter (Gitea's `subscribed`, GitHub's viewerSubscribed): not
 * explicitly unsubscribed, and explicitly subscribed, the poster, a participant by comment, or a watcher of the
 * repository — the rule viewerWatchingIssues applies to a list.
 */
export function subscribedIssuesWhere(userId: number): Models.Prisma.IssueWhereInput {
  return {
    watches: { none: { userId, isWatching: false } },
    OR: [
      { watches: { some: { userId, isWatching: true } } },
      { posterId: userId },
      { comments: { some: { posterId: userId, type: { in: PARTICIPATING_COMMENTS } } } },
      { repo: { watches: { some: { userId, mode: { in: WATCHING_MODES } } } } },
    ],
  };
}

/** Whether the viewer is subscribed to each of `issueIds` (isWatchingIssue for a whole list, four queries). */
export async function viewerWatchingIssues(cx: ServiceContext, issueIds: readonly number[]): Promise<Map<number, boolean>> {
  const out = new Map<number, boolean>();
  if (!cx.viewer || !issueIds.length) return out;
  const userId = cx.viewer.id;
  const ids = [...issueIds];
  const issues = await cx.db.issue.findMany({ where: { id: { in: ids } }, select: { id: true, repoId: true, posterId: true } });
  const [explicit, repoWatches, comments] = await Promise.all([
    cx.db.issueWatch.findMany({ where: { userId, issueId: { in: ids } }, select: { issueId: true, isWatching: true } }),
    cx.db.watch.findMany({
      where: { userId, repoId: { in: [...new Set(issues.map((i) => i.repoId))] }, mode: { in: WATCHING_MODES } },
      select: { repoId: true },
    }),
    cx.db.comment.findMany({
      where: { issueId: { in: ids }, posterId: userId, type: { in: PARTICIPATING_COMMENTS } },
      select: { issueId: true },
      distinct: ['issueId'],
    }),
  ]);
  const explicitOf = new Map(explicit.map((w) => [w.issueId, w.isWatching]));
  const watchedRepos = new Set(repoWatches.map((w) => w.repoId));
  const commented = new Set(comments.map((c) => c.issueId));
  for (const i of issues) {
    out.set(i.id, explicitOf.get(i.id) ?? (watchedRepos.has(i.repoId) || i.posterId === userId || commented.has(i.id)));
  }
  return out;
}
