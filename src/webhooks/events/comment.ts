// issue_comment / pull_request_comment: created, edited (with the old body), deleted (Gitea
// services/webhook/notifier.go CreateIssueComment, UpdateComment, DeleteComment).
import type { Models } from '../../db/client.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { toApiComment } from '../../rest/convert/comment.ts';
import { toApiIssue } from '../../rest/convert/issue.ts';
import { toApiPullRequest } from '../../rest/convert/pull.ts';
import { loadCommentViews, type CommentView } from '../../services/issue/comment.ts';
import * as issueService from '../../services/issue/issue.ts';
import * as pullService from '../../services/pull/pull.ts';
import type { PayloadContext } from '../payloadContext.ts';
import type { OutgoingEvent } from './outgoing.ts';

type Ev = Extract<DomainEvent, { type: 'comment.created' | 'comment.updated' | 'comment.deleted' }>;

const ACTIONS = { 'comment.created': 'created', 'comment.updated': 'edited', 'comment.deleted': 'deleted' } as const;

/** The comment as it was: a deleted comment's row is gone, the event carries its body and poster. */
async function commentView(pc: PayloadContext, e: Ev, issue: Models.Issue): Promise<CommentView | null> {
  if (e.type !== 'comment.deleted') {
    const row = await pc.cx.db.comment.findUnique({ where: { id: e.commentId } });
    return row ? ((await loadCommentViews(pc.cx.db, [row], { issues: [issue] }))[0] ?? null) : null;
  }
  const repo = await pc.repoRow(issue.repoId);
  if (!repo) return null;
  const now = new Date();
  const comment = {
    id: e.commentId,
    type: 'COMMENT',
    posterId: e.posterId,
    issueId: issue.id,
    content: e.content,
    originalAuthor: '',
    originalAuthorId: 0,
    createdAt: now,
    updatedAt: now,
  } as unknown as Models.Comment;
  return { comment, issue, repo, poster: await pc.userRow(e.posterId), attachments: [] };
}

/** comment.created / updated / deleted on an issue or a pull request. */
export async function commentEvent(pc: PayloadContext, e: Ev): Promise<OutgoingEvent[]> {
  const issue = await pc.cx.db.issue.findUnique({ where: { id: e.issueId } });
  if (!issue) return [];
  const [repository, view] = await Promise.all([pc.repo(issue.repoId), commentView(pc, e, issue)]);
  if (!repository || !view) return [];
  const issueView = await issueService.loadIssueView(pc.cx.db, issue);
  const pull = issue.isPull ? toApiPullRequest(await pullService.loadPullView(pc.cx, issue), null, pc.opts) : undefined;
  return [
    {
      eventType: issue.isPull ? 'pull_request_comment' : 'issue_comment',
      repoId: issue.repoId,
      payload: {
        action: ACTIONS[e.type],
        issue: toApiIssue(issueView, null, pc.opts),
        ...(pull ? { pull_request: pull } : {}),
        comment: toApiComment(view, pc.opts),
        ...(e.type === 'comment.updated' ? { changes: { body: { from: e.oldContent } } } : {}),
        repository,
        sender: await pc.user(e.actorId),
        is_pull: issue.isPull,
      },
    },
  ];
}
