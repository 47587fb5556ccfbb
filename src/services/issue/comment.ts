import { scopeAllows } from '../../auth/scope.ts';
import { usersByIds } from '../../loaders/usersByIds.ts';
import type { DbLike, Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import { countNewComment } from '../../db/counters.ts';
import { insertRowReturning } from '../../db/insertRows.ts';
import { isDbId } from '../dbId.ts';
import {
  ConflictError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  RepoArchivedError,
  ValidationError,
} from '../../errors.ts';
import { canRead, canWrite, isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { requireRepoWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { requireText } from './create.ts';
import { canWriteIssue, findIssueByIndex, repoNamesById, unitOf, type RepoName } from './issue.ts';
import { issueReadWhere } from './visibility.ts';
import { withCommentContent, withEventRepo } from '../../notify/eventReads.ts';

type Comment = Models.Comment;
type CommentType = Models.CommentType;

/** A comment with what its REST form needs (issue, repository, poster, attachments), bulk-loaded. */
export interface CommentView {
  comment: Comment;
  issue: Models.Issue;
  repo: Pick<Models.Repository, 'id' | 'name' | 'ownerName'>;
  poster: Models.User | null;
  attachments: Models.Attachment[];
}

/** Gitea's `since`/`before` filters (on the update time, at second precision as Gitea stores it). */
export interface TimeWindow {
  since?: Date;
  before?: Date;
}

/** Gitea CommentType.HasContentSupport: the types whose body can be edited. */
const CONTENT_TYPES: readonly CommentType[] = ['COMMENT', 'CODE', 'REVIEW', 'DISMISS_REVIEW'];
/** Gitea ConversationCountedCommentType: the types `Issue.numComments` counts. */
const COUNTED_TYPES: readonly CommentType[] = ['COMMENT', 'REVIEW'];

/** Whether `Issue.numComments` counts comments of `type`. */
export const countedInNumComments = (type: CommentType): boolean => COUNTED_TYPES.includes(type);

/** True for comment types with an editable body (Gitea HasContentSupport). */
export const hasContentSupport = (type: CommentType): boolean => CONTENT_TYPES.includes(type);

/** Gitea's orders comments by creation time, then id. */
export const COMMENT_ORDER: Models.Prisma.CommentOrderByWithRelationInput[] = [{ createdAt: 'asc' }, { id: 'asc' }];

/** Prisma conditions for Gitea's since/before (Gitea compares whole seconds: `updated_unix >= since`, `<= before`). */
export function updatedWithin(w: TimeWindow): Models.Prisma.CommentWhereInput[] {
  const and: Models.Prisma.CommentWhereInput[] = [];
  const second = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;
  if (w.since) and.push({ updatedAt: { gte: new Date(second(w.since)) } });
  if (w.before) and.push({ updatedAt: { lt: new Date(second(w.before) + 1000) } });
  return and;
}

/** Rows a caller of loadCommentViews already has, not read again. */
export interface KnownCommentRows {
  issues?: readonly Models.Issue[];
  repos?: readonly RepoName[];
  /** Users (the viewer, as a new comment's poster). */
  users?: readonly Models.User[];
  /** The comments were written by this request: none has attachments yet. */
  justWritten?: boolean;
}

/** Loads the relations of many comments in a constant number of queries, keeping the input order. */
export async function loadCommentViews(db: DbLike, comments: readonly Comment[], known: KnownCommentRows = {}): Promise<CommentView[]> {
  if (!comments.length) return [];
  const issueById = new Map((known.issues ?? []).map((i) => [i.id, i]));
  const posterById = new Map((known.users ?? []).map((u) => [u.id, u]));
  const missing = [...new Set(comments.map((c) => c.issueId).filter((id) => !issueById.has(id)))];
  const posterIds = [...new Set(comments.map((c) => c.posterId).filter((id): id is number => id !== null && !posterById.has(id)))];
  // On the read path (src/db/readPath.ts): every comment written or listed is answered through here.
  const [issues, posters, attachments] = await Promise.all([
    missing.length ? readRows(db, 'Issue', 'SELECT * FROM "Issue" WHERE "id" IN (?)', [missing]) : [],
    usersByIds(db, posterIds),
    known.justWritten
      ? []
      : readRows(db, 'Attachment', 'SELECT * FROM "Attachment" WHERE "commentId" IN (?) ORDER BY "id"', [comments.map((c) => c.id)]),
  ]);
  for (const i of issues) issueById.set(i.id, i);
  const repoById = await repoNamesById(
    db,
    [...issueById.values()].map((i) => i.repoId),
    known.repos,
  );
  for (const u of posters) posterById.set(u.id, u);
  return comments.map((comment) => {
    const issue = issueById.get(comment.issueId);
    const repo = issue && repoById.get(issue.repoId);
    if (!issue || !repo) throw new NotFoundError(`comment does not exist [id: ${comment.id}, issue_id: 0]`, { commentId: comment.id });
    return {
      comment,
      issue,
      repo,
      poster: comment.posterId === null ? null : (posterById.get(comment.posterId) ?? null),
      attachments: attachments.filter((a) => a.commentId === comment.id),
    };
  });
}

async function loadCommentView(
  db: DbLike,
  comment: Comment,
  issue: Models.Issue,
  repo: RepoName,
  known: Omit<KnownCommentRows, 'issues' | 'repos'> = {},
): Promise<CommentView> {
  const [view] = await loadCommentViews(db, [comment], { ...known, issues: [issue], repos: [repo] });
  if (!view) throw new NotFoundError('comment does not exist', { commentId: comment.id });
  return view;
}

/**
 * The write gates of the comment routes: repository and issues/pulls unit visible (404), the write gate (issue
 * scope), then `mustNotBeArchived` (423) and `reqToken` (401) in the route's order. `archived` says where the
 * archived check sits, or that the route has none (Gitea's DELETE and deprecated PATCH).
 */
async function resolveForWrite(cx: ServiceContext, ref: RepoRef, archived: 'beforeAuth' | 'afterAuth' | 'none'): Promise<RepoAccess> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  requireRepoWrite(cx, access, 'write:issue');
  if (archived === 'beforeAuth' && access.repo.isArchived) throw new RepoArchivedError();
  requireViewer(cx);
  if (archived === 'afterAuth' && access.repo.isArchived) throw new RepoArchivedError();
  return access;
}

/** Gitea's `binding:"Required"` on `body` (422 `[Body]: Required`), and no NUL for PostgreSQL. @throws ValidationError */
function requireBody(body: string | undefined): string {
  if (body === undefined || body === '') throw new ValidationError('Required', { field: 'body', rule: 'Required' });
  requireText(body, 'body');
  return body;
}

/**
 * A comment of the repository, with its issue (Gitea GetCommentWithRepoID): unknown, or of another repository,
 * is 404 `comment does not exist [id: N, issue_id: 0]`; a comment whose issue's unit is unreadable is 404.
 * @throws NotFoundError
 */
export async function findCommentInRepo(
  cx: ServiceContext,
  access: RepoAccess,
  id: number,
): Promise<{ comment: Comment; issue: Models.Issue }> {
  const row = isDbId(id) ? await cx.db.comment.findUnique({ where: { id }, include: { issue: true } }) : null;
  if (!row || row.issue.repoId !== access.repo.id)
    throw new NotFoundError(`comment does not exist [id: ${id}, issue_id: 0]`, { commentId: id });
  if (!canRead(access.perm, unitOf(row.issue))) throw new NotFoundError('not found', { commentId: id });
  const { issue, ...comment } = row;
  return { comment, issue };
}

/** Only the poster or a writer of the issue's unit; Gitea answers 403 with an empty body. @throws PermissionDeniedError */
function requirePosterOrWriter(cx: ServiceContext, access: RepoAccess, comment: Comment, issue: Models.Issue): void {
  const viewer = requireViewer(cx);
  if (viewer.id !== comment.posterId && !canWriteIssue(access, issue)) {
    throw new PermissionDeniedError('user should be the poster of the comment or have write permission', {
      commentId: comment.id,
      reason: 'NOT_POSTER_OR_WRITER',
    });
  }
}

/**
 * Gitea IsUserBlockedBy(doer, issue poster, repository owner): a viewer blocked by either may not comment or
 * edit, unless they are a repository admin. @throws PermissionDeniedError
 */
export async function requireNotBlocked(cx: ServiceContext, access: RepoAccess, issue: Models.Issue): Promise<void> {
  const viewer = requireViewer(cx);
  if (isRepoAdmin(access.perm)) return;
  const byPoster =
    issue.posterId !== null && issue.posterId !== viewer.id
      ? await cx.db.block.findUnique({
          where: { blockerId_blockeeId: { blockerId: issue.posterId, blockeeId: viewer.id } },
          select: { id: true },
        })
      : null;
  if (access.perm.blocked || byPoster) throw new PermissionDeniedError('user is blocked', { issueId: issue.id });
}

/**
 * The plain comments of an issue or pull request, oldest first (GET /repos/{o}/{r}/issues/{index}/comments;
 * Gitea does not paginate it). @throws NotFoundError
 */
export async function listIssueComments(cx: ServiceContext, ref: RepoRef, index: number, window: TimeWindow): Promise<CommentView[]> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const issue = await findIssueByIndex(cx, access, index);
  const rows = await cx.db.comment.findMany({
    where: { AND: [{ issueId: issue.id, type: 'COMMENT' }, ...updatedWithin(window)] },
    orderBy: COMMENT_ORDER,
  });
  return loadCommentViews(cx.db, rows, { issues: [issue], repos: [access.repo] });
}

/**
 * The plain comments of every issue (and pull request, if readable) of a repository, oldest first
 * (GET /repos/{o}/{r}/issues/comments). @throws NotFoundError
 */
export async function listRepoComments(
  cx: ServiceContext,
  ref: RepoRef,
  input: TimeWindow & { page: ListOptions },
): Promise<Page<CommentView>> {
  const { repo, perm } = await resolveIssueRepo(cx, ref, 'read');
  const readIssues = canRead(perm, 'ISSUES');
  const readPulls = canRead(perm, 'PULL_REQUESTS');
  const issueWhere: Models.Prisma.IssueWhereInput = { repoId: repo.id, ...(readIssues !== readPulls ? { isPull: readPulls } : {}) };
  const where: Models.Prisma.CommentWhereInput = { AND: [{ type: 'COMMENT', issue: issueWhere }, ...updatedWithin(input)] };
  const [rows, total] = await Promise.all([
    cx.db.comment.findMany({ where, orderBy: COMMENT_ORDER, ...skipTake(input.page) }),
    cx.db.comment.count({ where }),
  ]);
  return { items: await loadCommentViews(cx.db, rows, { repos: [repo] }), total };
}

/** What every comment event says of the comment, its issue and who acted. */
function commentEventFacts(commentId: number, issue: Pick<Models.Issue, 'id' | 'repoId' | 'index' | 'isPull'>, actorId: number) {
  return { commentId, issueId: issue.id, repoId: issue.repoId, index: issue.index, isPull: issue.isPull, actorId };
}

/**
 * Adds a plain comment (Gitea CreateIssueComment). Gates in Gitea's order: 404 invisible repository or unit,
 * 401 anonymous, 423 archived, 422 empty body, 404 unknown or unreadable issue, 403 locked issue for non-writers
 * (site admins excepted), 403 blocked by the issue's poster or the repository's owner. The issue's comment
 * counter moves in the same transaction.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, ValidationError, PermissionDeniedError
 */
export async function createComment(cx: ServiceContext, ref: RepoRef, index: number, body: string | undefined): Promise<CommentView> {
  const access = await resolveForWrite(cx, ref, 'afterAuth');
  const viewer = requireViewer(cx);
  const content = requireBody(body);
  const issue = await findIssueByIndex(cx, access, index);
  if (issue.isLocked && !canWriteIssue(access, issue) && !viewer.isAdmin) {
    throw new PermissionDeniedError('You cannot comment on a locked issue.', { issueId: issue.id });
  }
  await requireNotBlocked(cx, access, issue);
  const { comment, updated } = await withTx(cx, async (tx, emit) => {
    const comment = await insertRowReturning(tx, 'Comment', { type: 'COMMENT', posterId: viewer.id, issueId: issue.id, content });
    const updated = await countNewComment(tx, issue.id);
    emit(
      withEventRepo(
        withCommentContent(
          {
            type: 'comment.created',
            ...commentEventFacts(comment.id, issue, viewer.id),
          },
          content,
        ),
        access.facts,
      ),
    );
    return { comment, updated };
  });
  // Nothing to read: the poster is the viewer, and a comment this request just wrote has no attachments yet.
  return loadCommentView(cx.db, comment, updated, access.repo, { users: [viewer], justWritten: true });
}

/**
 * A comment by id (GET /repos/{o}/{r}/issues/comments/{id}); null when it exists but is not a plain comment
 * (Gitea answers 204). @throws NotFoundError
 */
export async function getComment(cx: ServiceContext, ref: RepoRef, id: number): Promise<CommentView | null> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const { comment, issue } = await findCommentInRepo(cx, access, id);
  if (comment.type !== 'COMMENT') return null;
  return loadCommentView(cx.db, comment, issue, access.repo);
}

/** Which route edits: Gitea's PATCH …/issues/comments/{id} checks archived first; the deprecated alias never does. */
export type EditRoute = 'current' | 'deprecated';

/**
 * Edits a comment's body (Gitea editIssueComment): only its poster or a writer (403, empty body in REST);
 * null for comment types without a body (Gitea answers 204, nothing changes); 403 when the viewer is blocked by
 * the issue's poster or the repository's owner. An unchanged body writes nothing; otherwise the content version
 * increments (a concurrent edit is a Conflict).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, ValidationError, PermissionDeniedError, ConflictError
 */
export async function editComment(
  cx: ServiceContext,
  ref: RepoRef,
  id: number,
  body: string | undefined,
  route: EditRoute = 'current',
): Promise<CommentView | null> {
  const access = await resolveForWrite(cx, ref, route === 'current' ? 'beforeAuth' : 'none');
  const viewer = requireViewer(cx);
  const content = requireBody(body);
  const { comment, issue } = await findCommentInRepo(cx, access, id);
  requirePosterOrWriter(cx, access, comment, issue);
  if (!hasContentSupport(comment.type)) return null;
  if (content === comment.content) return loadCommentView(cx.db, comment, issue, access.repo);
  await requireNotBlocked(cx, access, issue);
  const updated = await withTx(cx, async (tx, emit) => {
    const { count } = await tx.comment.updateMany({
      where: { id: comment.id, contentVersion: comment.contentVersion },
      data: { content, contentVersion: { increment: 1 } },
    });
    if (count === 0) throw new ConflictError('the comment is already changed', { commentId: comment.id });
    emit({
      type: 'comment.updated',
      ...commentEventFacts(comment.id, issue, viewer.id),
      oldContent: comment.content,
    });
    return tx.comment.findUniqueOrThrow({ where: { id: comment.id } });
  });
  return loadCommentView(cx.db, updated, issue, access.repo);
}

/**
 * Deletes a comment (Gitea deleteIssueComment; no archived check, as Gitea): only its poster or a writer (403,
 * empty body in REST); a comment type without a body is 400 (empty body). In one transaction: the row, its
 * reactions, the issue's comment counter (its update time kept), feed rows marked deleted, and references it
 * made neutered. Returns the issue, its counter updated.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, InvalidArgumentError
 */
export async function deleteComment(cx: ServiceContext, ref: RepoRef, id: number): Promise<Models.Issue> {
  const access = await resolveForWrite(cx, ref, 'none');
  const viewer = requireViewer(cx);
  const { comment, issue } = await findCommentInRepo(cx, access, id);
  requirePosterOrWriter(cx, access, comment, issue);
  if (!hasContentSupport(comment.type))
    throw new InvalidArgumentError('comment type has no content', { commentId: comment.id, reason: 'NO_CONTENT_SUPPORT' });
  return withTx(cx, async (tx, emit) => {
    await tx.action.updateMany({ where: { commentId: comment.id }, data: { isDeleted: true } });
    await tx.comment.updateMany({
      where: { refCommentId: comment.id, refAction: { in: ['NONE', 'CLOSES', 'REOPENS'] } },
      data: { refAction: 'NEUTERED' },
    });
    await tx.reaction.deleteMany({ where: { commentId: comment.id } });
    const { count } = await tx.comment.deleteMany({ where: { id: comment.id } });
    if (count === 0) throw new NotFoundError(`comment does not exist [id: ${comment.id}, issue_id: 0]`, { commentId: comment.id });
    let updated = await tx.issue.findUniqueOrThrow({ where: { id: issue.id } });
    if (countedInNumComments(comment.type)) {
      updated = await tx.issue.update({ where: { id: issue.id }, data: { numComments: { decrement: 1 }, updatedAt: updated.updatedAt } });
    }
    emit({
      type: 'comment.deleted',
      ...commentEventFacts(comment.id, issue, viewer.id),
      posterId: comment.posterId,
      content: comment.content,
    });
    return updated;
  });
}

/** The repository of a comment the viewer may see; a reference that answers NotFound otherwise. */
export async function locateComment(cx: ServiceContext, commentId: number): Promise<RepoRef> {
  const row = await cx.db.comment.findFirst({
    where: { id: commentId, issue: issueReadWhere(cx) },
    select: { issue: { select: { repo: { select: { ownerName: true, name: true } } } } },
  });
  return row ? { owner: row.issue.repo.ownerName, repo: row.issue.repo.name } : { owner: '', repo: '' };
}

/** What `viewerCanUpdate`/`viewerCanDelete` need to know about a comment. */
export interface CommentFacts {
  type: CommentType;
  posterId: number | null;
  issue: { repoId: number; isPull: boolean; repo: { isArchived: boolean } };
}

/**
 * Whether the viewer may edit or delete a comment, by the rules of editComment/deleteComment (poster or writer
 * of a readable unit, a type with a body; edits also need a repository that is not archived and a viewer the
 * owner has not blocked). Batched through the per-request permission loader.
 */
export async function viewerCanModifyComment(cx: ServiceContext, c: CommentFacts, action: 'update' | 'delete'): Promise<boolean> {
  const viewer = cx.viewer;
  if (!viewer || !hasContentSupport(c.type)) return false;
  if (cx.auth.method === 'token' && cx.auth.scope && !scopeAllows(cx.auth.scope, ['issue'], 'write')) return false;
  if (action === 'update' && c.issue.repo.isArchived) return false;
  const perm = await cx.loaders.repoPermission.load(c.issue.repoId);
  const unit = unitOf(c.issue);
  if (!canRead(perm, unit)) return false;
  if (action === 'update' && perm.blocked && !isRepoAdmin(perm)) return false;
  return viewer.id === c.posterId || canWrite(perm, unit);
}
