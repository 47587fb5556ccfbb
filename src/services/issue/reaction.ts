import DataLoader from 'dataloader';
import type { DbLike, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { requireRepoWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { canWriteIssue, findIssueByIndex, unitOf } from './issue.ts';
import { reactionCountRows, reactionRows, type ReactionsOf } from './relationPages.ts';
import { issueReadWhere } from './visibility.ts';

/** Gitea's default `[ui] REACTIONS`: the only contents accepted (exact, case-sensitive), in display order. */
export const ALLOWED_REACTIONS = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'] as const;
export type ReactionContent = (typeof ALLOWED_REACTIONS)[number];

/** A reaction row with its user (null for a migrated reaction without a local account). */
export type ReactionWithUser = Models.Reaction & { user: Models.User | null };

/** The outcome of adding a reaction: Gitea answers 201 for a new one and 200 when it already existed. */
export interface ReactionResult {
  reaction: ReactionWithUser;
  created: boolean;
}

/** What a reaction is attached to: an issue (comment null) or one of its comments. */
export interface ReactionTarget {
  access: RepoAccess;
  issue: Models.Issue;
  comment: Models.Comment | null;
}

/** A reaction subject named by database id (GraphQL global ids). */
export type ReactionSubject = { kind: 'issue'; id: number } | { kind: 'comment'; id: number };

const ORDER: Models.Prisma.ReactionOrderByWithRelationInput[] = [{ createdAt: 'asc' }, { id: 'asc' }];
const ALLOWED: readonly string[] = ALLOWED_REACTIONS;

/** True for a content Gitea accepts as a reaction. */
export function isAllowedReaction(content: string): content is ReactionContent {
  return ALLOWED.includes(content);
}

/** The write gates of the reaction routes: visible repository (404), the write gate (issue scope), signed in (401); no archived check, as Gitea. */
async function writeAccess(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  requireRepoWrite(cx, access, 'write:issue');
  requireViewer(cx);
  return access;
}

/**
 * A comment of this repository whose issue or pull request the viewer may read (Gitea GetCommentByID, then the
 * repository and CanReadIssuesOrPulls checks). @throws NotFoundError
 */
async function findComment(
  cx: ServiceContext,
  access: RepoAccess,
  commentId: number,
): Promise<{ comment: Models.Comment; issue: Models.Issue }> {
  const row =
    Number.isSafeInteger(commentId) && commentId > 0
      ? await cx.db.comment.findUnique({ where: { id: commentId }, include: { issue: true } })
      : null;
  if (!row) throw new NotFoundError(`comment does not exist [id: ${commentId}, issue_id: 0]`, { commentId });
  const { issue, ...comment } = row;
  if (issue.repoId !== access.repo.id || !canRead(access.perm, unitOf(issue))) throw new NotFoundError('not found', { commentId });
  return { comment, issue };
}

async function issueTarget(cx: ServiceContext, ref: RepoRef, index: number, write: boolean): Promise<ReactionTarget> {
  const access = write ? await writeAccess(cx, ref) : await resolveIssueRepo(cx, ref, 'read');
  return { access, issue: await findIssueByIndex(cx, access, index), comment: null };
}

async function commentTarget(cx: ServiceContext, ref: RepoRef, commentId: number, write: boolean): Promise<ReactionTarget> {
  const access = write ? await writeAccess(cx, ref) : await resolveIssueRepo(cx, ref, 'read');
  const { comment, issue } = await findComment(cx, access, commentId);
  return { access, issue, comment };
}

/** Gitea: a locked issue takes reactions only from writers of its unit. @throws PermissionDeniedError */
function requireUnlockedOrWriter(target: ReactionTarget): void {
  if (target.issue.isLocked && !canWriteIssue(target.access, target.issue)) {
    throw new PermissionDeniedError('no permission to change reaction', { issueId: target.issue.id });
  }
}

/**
 * Gitea IsUserBlockedBy: the viewer (unless a site admin) may not react when blocked by the issue's poster, the
 * repository's owner or, for a comment, the comment's poster. @throws PermissionDeniedError
 */
async function requireNotBlocked(cx: ServiceContext, viewer: Models.User, target: ReactionTarget): Promise<void> {
  if (viewer.isAdmin) return;
  const blockers = [target.access.repo.ownerId, target.issue.posterId, target.comment?.posterId].filter(
    (id): id is number => typeof id === 'number',
  );
  const block = await cx.db.block.findFirst({ where: { blockeeId: viewer.id, blockerId: { in: blockers } }, select: { id: true } });
  if (block) throw new PermissionDeniedError('user is blocked', { userId: viewer.id });
}

const targetWhere = (t: ReactionTarget): Models.Prisma.ReactionWhereInput => ({ issueId: t.issue.id, commentId: t.comment?.id ?? 0 });

function findOwnReaction(db: DbLike, t: ReactionTarget, userId: number, content: string): Promise<ReactionWithUser | null> {
  return db.reaction.findFirst({ where: { ...targetWhere(t), userId, type: content, originalAuthorId: 0 }, include: { user: true } });
}

/**
 * Adds the viewer's reaction to the target (Gitea CreateIssueReaction/CreateCommentReaction): locked issue and
 * not a writer → 403; blocked → 403 `user is blocked`; a content outside ALLOWED_REACTIONS → 403. An existing
 * reaction (including one inserted concurrently: the unique key decides) is returned with `created: false`.
 * @throws PermissionDeniedError
 */
async function react(cx: ServiceContext, target: ReactionTarget, content: string): Promise<ReactionResult> {
  const viewer = requireViewer(cx);
  requireUnlockedOrWriter(target);
  await requireNotBlocked(cx, viewer, target);
  if (!isAllowedReaction(content)) throw new PermissionDeniedError(`'${content}' is not an allowed reaction`, { content });
  const existing = await findOwnReaction(cx.db, target, viewer.id, content);
  if (existing) return { reaction: existing, created: false };
  try {
    const reaction = await withTx(cx, async (tx, emit) => {
      const row = await tx.reaction.create({
        data: { type: content, issueId: target.issue.id, commentId: target.comment?.id ?? 0, userId: viewer.id },
        include: { user: true },
      });
      emit({
        type: 'reaction.added',
        reactionId: row.id,
        issueId: target.issue.id,
        commentId: row.commentId,
        repoId: target.access.repo.id,
        content,
        actorId: viewer.id,
      });
      return row;
    });
    return { reaction, created: true };
  } catch (err) {
    // The same user reacting twice at once: the loser of the insert race sees the winner's row.
    const winner = isUniqueViolation(err) ? await findOwnReaction(cx.db, target, viewer.id, content) : null;
    if (winner) return { reaction: winner, created: false };
    throw err;
  }
}

/** Removes the viewer's reaction `content` from the target; nothing to remove is not an error (Gitea). @throws PermissionDeniedError */
async function unreact(cx: ServiceContext, target: ReactionTarget, content: string): Promise<void> {
  const viewer = requireViewer(cx);
  requireUnlockedOrWriter(target);
  if (content === '' || content.includes('\u0000')) return;
  await withTx(cx, async (tx, emit) => {
    const { count } = await tx.reaction.deleteMany({
      where: { ...targetWhere(target), userId: viewer.id, type: content, originalAuthorId: 0 },
    });
    if (count)
      emit({
        type: 'reaction.removed',
        issueId: target.issue.id,
        commentId: target.comment?.id ?? 0,
        repoId: target.access.repo.id,
        content,
        actorId: viewer.id,
      });
  });
}

/**
 * GET /repos/{o}/{r}/issues/{index}/reactions: the issue's own reactions (not its comments'), oldest first,
 * paginated; only allowed contents count (Gitea filters by `[ui] REACTIONS`). @throws NotFoundError
 */
export async function listIssueReactions(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  page: ListOptions,
): Promise<Page<ReactionWithUser>> {
  const target = await issueTarget(cx, ref, index, false);
  const where: Models.Prisma.ReactionWhereInput = { ...targetWhere(target), type: { in: [...ALLOWED] } };
  const [items, total] = await Promise.all([
    cx.db.reaction.findMany({ where, include: { user: true }, orderBy: ORDER, ...skipTake(page) }),
    cx.db.reaction.count({ where }),
  ]);
  return { items, total };
}

/** GET /repos/{o}/{r}/issues/comments/{id}/reactions: every reaction of the comment, oldest first. @throws NotFoundError */
export async function listCommentReactions(cx: ServiceContext, ref: RepoRef, commentId: number): Promise<ReactionWithUser[]> {
  const target = await commentTarget(cx, ref, commentId, false);
  return cx.db.reaction.findMany({
    where: { ...targetWhere(target), type: { in: [...ALLOWED] } },
    include: { user: true },
    orderBy: ORDER,
  });
}

/**
 * POST /repos/{o}/{r}/issues/{index}/reactions (see `react` for the rules).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function createIssueReaction(cx: ServiceContext, ref: RepoRef, index: number, content: string): Promise<ReactionResult> {
  return react(cx, await issueTarget(cx, ref, index, true), content);
}

/**
 * POST /repos/{o}/{r}/issues/comments/{id}/reactions: the comment must belong to the repository (404).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function createCommentReaction(cx: ServiceContext, ref: RepoRef, commentId: number, content: string): Promise<ReactionResult> {
  return react(cx, await commentTarget(cx, ref, commentId, true), content);
}

/** DELETE /repos/{o}/{r}/issues/{index}/reactions. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function deleteIssueReaction(cx: ServiceContext, ref: RepoRef, index: number, content: string): Promise<void> {
  await unreact(cx, await issueTarget(cx, ref, index, true), content);
}

/** DELETE /repos/{o}/{r}/issues/comments/{id}/reactions. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function deleteCommentReaction(cx: ServiceContext, ref: RepoRef, commentId: number, content: string): Promise<void> {
  await unreact(cx, await commentTarget(cx, ref, commentId, true), content);
}

/** The REST coordinates of a subject named by id; unknown or invisible ones get coordinates that answer NotFound. */
async function subjectRef(cx: ServiceContext, subject: ReactionSubject): Promise<{ ref: RepoRef; index: number; commentId: number }> {
  const none = { ref: { owner: '', repo: '' }, index: 0, commentId: 0 };
  const repo = { select: { ownerName: true, name: true } } as const;
  if (subject.kind === 'issue') {
    const issue = await cx.db.issue.findFirst({ where: { id: subject.id, ...issueReadWhere(cx) }, select: { index: true, repo } });
    return issue ? { ref: { owner: issue.repo.ownerName, repo: issue.repo.name }, index: issue.index, commentId: 0 } : none;
  }
  const comment = await cx.db.comment.findFirst({
    where: { id: subject.id, issue: issueReadWhere(cx) },
    select: { id: true, issue: { select: { repo } } },
  });
  return comment ? { ref: { owner: comment.issue.repo.ownerName, repo: comment.issue.repo.name }, index: 0, commentId: comment.id } : none;
}

/** The reaction's subject after a change, with its current reactions (for mutation payloads). */
export interface ReactionChange {
  result: ReactionResult | null;
  issue: Models.Issue;
  comment: Models.Comment | null;
  reactions: ReactionWithUser[];
}

async function changeById(cx: ServiceContext, subject: ReactionSubject, content: string, add: boolean): Promise<ReactionChange> {
  const { ref, index, commentId } = await subjectRef(cx, subject);
  const target = subject.kind === 'issue' ? await issueTarget(cx, ref, index, true) : await commentTarget(cx, ref, commentId, true);
  const result = add ? await react(cx, target, content) : (await unreact(cx, target, content), null);
  const reactions = await cx.db.reaction.findMany({
    where: { ...targetWhere(target), type: { in: [...ALLOWED] } },
    include: { user: true },
    orderBy: ORDER,
  });
  return { result, issue: target.issue, comment: target.comment, reactions };
}

/**
 * Adds a reaction to an issue or comment named by id (GraphQL addReaction; the same rules as the REST routes).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export function addReaction(cx: ServiceContext, subject: ReactionSubject, content: string): Promise<ReactionChange> {
  return changeById(cx, subject, content, true);
}

/** Removes the viewer's reaction from an issue or comment named by id (GraphQL removeReaction). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export function removeReaction(cx: ServiceContext, subject: ReactionSubject, content: string): Promise<ReactionChange> {
  return changeById(cx, subject, content, false);
}

/** The distinct subjects among `subjectIds` (an id of 0 or less names no row). */
const subjectsOf = (subjectIds: readonly number[]): number[] => [...new Set(subjectIds.filter((id) => id > 0))];

/**
 * The allowed reactions on many issues themselves or many comments, oldest first per subject, with their users:
 * one statement on the read path and the request's user loader (for batched GraphQL fields; callers have already
 * made sure the subjects are visible).
 */
export async function loadReactions(
  cx: ServiceContext,
  target: ReactionsOf,
  subjectIds: readonly number[],
): Promise<Map<number, ReactionWithUser[]>> {
  const ids = subjectsOf(subjectIds);
  const rows = ids.length ? await reactionRows(cx.db, target, ids, ALLOWED) : [];
  const userIds = [...new Set(rows.map((r) => r.userId).filter((id) => id !== null))];
  const found = await cx.loaders.userById.loadMany(userIds);
  const failed = found.find((f) => f instanceof Error);
  if (failed) throw failed;
  const users = new Map(userIds.map((id, i) => [id, (found[i] as Models.User | null) ?? null]));
  const bySubject = new Map<number, ReactionWithUser[]>(ids.map((id) => [id, []]));
  for (const row of rows) {
    // The read path's rows are this call's own: the user is set on them, not on a copy.
    const withUser = row as ReactionWithUser;
    withUser.user = row.userId !== null ? (users.get(row.userId) ?? null) : null;
    bySubject.get(target === 'issue' ? row.issueId : row.commentId)?.push(withUser);
  }
  return bySubject;
}

/** A per-request loader of the allowed reactions of issues or comments by id (the graph's reactionGroups). */
export function reactionsLoader(cx: ServiceContext, target: ReactionsOf): DataLoader<number, ReactionWithUser[]> {
  return new DataLoader(async (ids) => {
    const bySubject = await loadReactions(cx, target, ids);
    return ids.map((id) => bySubject.get(id) ?? []);
  });
}

/** Reactions of one subject grouped by content (GitHub ReactionGroup): every allowed content, in display order. */
export interface ReactionGroup {
  content: ReactionContent;
  /** When the first reaction of this content was made; null when there is none. */
  createdAt: Date | null;
  /**
   * The users who reacted, oldest first (migrated reactions without a local account are left out); null when the
   * group was only counted (loadReactionCounts), for a selection that reads no reactor.
   */
  users: Models.User[] | null;
  /** How many users reacted (the length of `users` when they were loaded). */
  count: number;
  viewerHasReacted: boolean;
}

/** Each allowed content's place in display order. */
const GROUP_INDEX = new Map<string, number>(ALLOWED_REACTIONS.map((content, i) => [content, i]));

/** A group per allowed content, none reacted yet; `counted`: groups that will hold counts only (users null). */
const emptyGroups = (counted: boolean): ReactionGroup[] =>
  ALLOWED_REACTIONS.map((content) => ({ content, createdAt: null, users: counted ? null : [], count: 0, viewerHasReacted: false }));

/** Groups one subject's reactions (already ordered oldest first) by content, for the viewer (one pass). */
export function groupReactions(rows: readonly ReactionWithUser[], viewerId: number | null): ReactionGroup[] {
  const groups = emptyGroups(false);
  for (const r of rows) {
    const group = groups[GROUP_INDEX.get(r.type) ?? -1];
    if (!group) continue;
    group.createdAt ??= r.createdAt;
    if (r.originalAuthorId !== 0) continue;
    if (r.user) {
      group.users?.push(r.user);
      group.count++;
    }
    if (viewerId !== null && r.userId === viewerId) group.viewerHasReacted = true;
  }
  return groups;
}

/**
 * The reaction groups of many issues themselves or many comments, counted in SQL for the viewer (reactionCountRows):
 * what groupReactions gives but the users, for a selection that reads only the groups' contents, times, counts and
 * the viewer's flag (callers have already made sure the subjects are visible).
 */
export async function loadReactionCounts(
  cx: ServiceContext,
  target: ReactionsOf,
  subjectIds: readonly number[],
): Promise<Map<number, ReactionGroup[]>> {
  const ids = subjectsOf(subjectIds);
  const rows = ids.length ? await reactionCountRows(cx.db, target, ids, cx.viewer?.id ?? null, ALLOWED) : [];
  const bySubject = new Map<number, ReactionGroup[]>(ids.map((id) => [id, emptyGroups(true)]));
  for (const row of rows) {
    const group = bySubject.get(row.subjectId)?.[GROUP_INDEX.get(row.type) ?? -1];
    if (!group) continue;
    group.createdAt = row.createdAt;
    group.count = Number(row.count);
    group.viewerHasReacted = Number(row.mine) === 1;
  }
  return bySubject;
}

/** A per-request loader of the counted reaction groups of issues or comments by id (loadReactionCounts). */
export function reactionCountsLoader(cx: ServiceContext, target: ReactionsOf): DataLoader<number, ReactionGroup[]> {
  return new DataLoader(async (ids) => {
    const bySubject = await loadReactionCounts(cx, target, ids);
    return ids.map((id) => bySubject.get(id) ?? emptyGroups(true));
  });
}
