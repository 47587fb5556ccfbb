import type { Config } from '../config.ts';
import type { Db, DbLike, Models } from '../db/client.ts';
import { listPushCommits } from '../git/listPushCommits.ts';
import { repoPath } from '../git/repoPath.ts';
import { feedExcerpt } from './ellipsis.ts';
import type { DomainEvent, RefUpdate } from './events.ts';
import type { Subscriber } from './notifier.ts';

type ActionType = Models.ActionType;

interface Entry {
  opType: ActionType;
  refName?: string;
  content?: string;
  commentId?: number;
}

const ZERO = /^0+$/;
/** Gitea's `[ui] FEED_MAX_COMMIT_NUM`. */
const FEED_MAX_COMMITS = 5;

/** Action rows for one event: one per feed owner — the actor, the repository's owner, and its watchers. */
async function feedRows(
  db: DbLike,
  repoId: number,
  actorId: number,
  entries: Entry[],
  createdAt: Date,
): Promise<Models.Prisma.ActionCreateManyInput[]> {
  if (!entries.length) return [];
  const repo = await db.repository.findUnique({
    where: { id: repoId },
    select: { id: true, ownerId: true, isPrivate: true, watches: { select: { userId: true } } },
  });
  if (!repo) return [];
  const owners = new Set([actorId, repo.ownerId, ...repo.watches.map((w) => w.userId)]);
  return [...owners].flatMap((userId) =>
    entries.map((e) => ({
      userId,
      opType: e.opType,
      actUserId: actorId,
      repoId,
      commentId: e.commentId ?? null,
      refName: e.refName ?? '',
      content: e.content ?? '',
      isPrivate: repo.isPrivate,
      createdAt,
    })),
  );
}

async function pushEntries(db: DbLike, config: Config, repoId: number, updates: readonly RefUpdate[]): Promise<Entry[]> {
  const repo = await db.repository.findUnique({ where: { id: repoId }, select: { ownerName: true, name: true } });
  if (!repo) return [];
  const gitDir = repoPath(config.repositoriesDir, repo.ownerName, repo.name);
  const entries: Entry[] = [];
  for (const u of updates) {
    const isTag = u.ref.startsWith('refs/tags/');
    const deleted = ZERO.test(u.newSha);
    if (isTag) {
      entries.push({ opType: deleted ? 'DELETE_TAG' : 'PUSH_TAG', refName: u.ref });
    } else if (u.ref.startsWith('refs/heads/')) {
      if (deleted) {
        entries.push({ opType: 'DELETE_BRANCH', refName: u.ref });
        continue;
      }
      const { commits, total } = await listPushCommits(gitDir, u.ref, u.oldSha, u.newSha, FEED_MAX_COMMITS).catch(() => ({
        commits: [],
        total: 0,
      }));
      const compare = ZERO.test(u.oldSha) ? '' : `${repo.ownerName}/${repo.name}/compare/${u.oldSha}...${u.newSha}`;
      entries.push({
        opType: 'COMMIT_REPO',
        refName: u.ref,
        content: JSON.stringify({ Commits: commits, HeadCommit: commits[0] ?? null, CompareURL: compare, Len: total }),
      });
    }
  }
  return entries;
}

/**
 * The feed rows of a push (commit_repo with the pushed commits, push_tag, delete_branch, delete_tag), for the
 * push's bookkeeping to write in its own transaction (services/repo/push.ts), so they are written exactly once.
 */
export async function pushFeedRows(
  db: DbLike,
  config: Config,
  repoId: number,
  pusherId: number,
  updates: readonly RefUpdate[],
): Promise<Models.Prisma.ActionCreateManyInput[]> {
  return feedRows(db, repoId, pusherId, await pushEntries(db, config, repoId, updates), new Date());
}

/**
 * The activity feed (Gitea's feed notifier): turns repository events into Action rows, one per feed
 * owner — the actor, the repository's owner, and its watchers — marked private for private repositories.
 * Pushes are not here: their rows are part of the push's durable bookkeeping (pushFeedRows).
 */
export function activitySubscriber(db: Db): Subscriber {
  async function record(repoId: number, actorId: number, entries: Entry[]): Promise<void> {
    const data = await feedRows(db, repoId, actorId, entries, new Date());
    if (data.length) await db.action.createMany({ data });
  }

  // Gitea's feed content for issues is "<index>|<title>" on creation and "<index>|" on state changes.
  async function issueEntries(issueId: number, type: 'issue.created' | 'issue.closed' | 'issue.reopened'): Promise<Entry[]> {
    const issue = await db.issue.findUnique({ where: { id: issueId }, select: { index: true, title: true, isPull: true } });
    if (!issue) return [];
    const ops: Record<typeof type, [ActionType, ActionType]> = {
      'issue.created': ['CREATE_ISSUE', 'CREATE_PULL_REQUEST'],
      'issue.closed': ['CLOSE_ISSUE', 'CLOSE_PULL_REQUEST'],
      'issue.reopened': ['REOPEN_ISSUE', 'REOPEN_PULL_REQUEST'],
    };
    const opType = ops[type][issue.isPull ? 1 : 0];
    return [{ opType, content: type === 'issue.created' ? `${issue.index}|${issue.title}` : `${issue.index}|` }];
  }

  // Gitea's feed of a submitted review: comment_pull per code comment, then approve_pull_request /
  // reject_pull_request / comment_pull for the review itself (a COMMENT review only when it has a body).
  async function reviewEntries(event: Extract<DomainEvent, { type: 'pull.reviewed' }>): Promise<Entry[]> {
    const [review, codes] = await Promise.all([
      db.comment.findUnique({ where: { id: event.commentId }, select: { content: true } }),
      db.comment.findMany({
        where: { reviewId: event.reviewId, type: 'CODE' },
        select: { id: true, content: true },
        orderBy: { id: 'asc' },
      }),
    ]);
    const entries: Entry[] = codes.map((c) => ({
      opType: 'COMMENT_PULL',
      commentId: c.id,
      content: `${event.index}|${feedExcerpt(c.content)}`,
    }));
    if (review && (event.state !== 'COMMENT' || review.content.trim() !== '')) {
      const opType: ActionType =
        event.state === 'APPROVE' ? 'APPROVE_PULL_REQUEST' : event.state === 'REJECT' ? 'REJECT_PULL_REQUEST' : 'COMMENT_PULL';
      entries.push({ opType, commentId: event.commentId, content: `${event.index}|${feedExcerpt(review.content)}` });
    }
    return entries;
  }

  // Gitea's pull_review_dismissed: content "<index>|<reviewer>|<dismissal message>".
  async function dismissEntries(event: Extract<DomainEvent, { type: 'pull.reviewDismissed' }>): Promise<Entry[]> {
    if (!event.dismissed || event.commentId === null) return [];
    const [review, comment] = await Promise.all([
      db.review.findUnique({ where: { id: event.reviewId }, select: { originalAuthor: true, reviewer: { select: { name: true } } } }),
      db.comment.findUnique({ where: { id: event.commentId }, select: { content: true } }),
    ]);
    if (!review || !comment) return [];
    const reviewer = review.originalAuthor || (review.reviewer?.name ?? 'Ghost');
    return [{ opType: 'PULL_REVIEW_DISMISSED', commentId: event.commentId, content: `${event.index}|${reviewer}|${comment.content}` }];
  }

  return {
    name: 'activity',
    async handle(event: DomainEvent) {
      switch (event.type) {
        // Gitea's feed records a fork as create_repo of the fork.
        case 'repo.created':
        case 'repo.forked':
          return record(event.repoId, event.actorId, [{ opType: 'CREATE_REPO' }]);
        case 'repo.renamed':
          if (event.actorId !== null) return record(event.repoId, event.actorId, [{ opType: 'RENAME_REPO', content: event.oldName }]);
          return undefined;
        case 'repo.transferred': {
          // Gitea's transfer_repo: content is the old full name.
          const repo = await db.repository.findUnique({ where: { id: event.repoId }, select: { name: true } });
          if (!repo) return undefined;
          return record(event.repoId, event.actorId, [{ opType: 'TRANSFER_REPO', content: `${event.oldOwnerName}/${repo.name}` }]);
        }
        case 'issue.created':
        case 'issue.closed':
        case 'issue.reopened':
          return record(event.repoId, event.actorId, await issueEntries(event.issueId, event.type));
        case 'comment.created': {
          // Gitea's feed: comment_issue / comment_pull, content "<index>|<excerpt of the body>".
          const comment = await db.comment.findUnique({ where: { id: event.commentId }, select: { content: true } });
          if (!comment) return undefined;
          const entry: Entry = {
            opType: event.isPull ? 'COMMENT_PULL' : 'COMMENT_ISSUE',
            commentId: event.commentId,
            content: `${event.index}|${feedExcerpt(comment.content)}`,
          };
          return record(event.repoId, event.actorId, [entry]);
        }
        case 'pull.reviewed':
          return record(event.repoId, event.actorId, await reviewEntries(event));
        case 'pull.reviewDismissed':
          return record(event.repoId, event.actorId, await dismissEntries(event));
        case 'pull.merged': {
          // Gitea's merge_pull_request: content "<index>|<title>".
          const issue = await db.issue.findUnique({ where: { id: event.issueId }, select: { title: true } });
          if (!issue) return undefined;
          return record(event.repoId, event.actorId, [{ opType: 'MERGE_PULL_REQUEST', content: `${event.index}|${issue.title}` }]);
        }
        default:
          return undefined;
      }
    },
  };
}
