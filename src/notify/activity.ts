import type { Config } from '../config.ts';
import type { Db, Models } from '../db/client.ts';
import { listPushCommits } from '../git/listPushCommits.ts';
import { usersRepoPermissions } from '../loaders/usersRepoPermission.ts';
import { loadRepoFacts, type RepoFacts } from '../loaders/permissionLoaders.ts';
import { readRows } from '../db/readPath.ts';
import { eventCommentContent, eventIssue, eventRepoFacts } from './eventReads.ts';
import { canRead } from '../permissions/repoPermission.ts';
import type { UnitType } from '../permissions/units.ts';
import { repoPath } from '../git/repoPath.ts';
import { feedExcerpt } from './ellipsis.ts';
import type { DomainEvent, RefUpdate } from './events.ts';
import type { Subscriber } from './notifier.ts';
import { insertRows } from '../db/insertRows.ts';

type ActionType = Models.ActionType;

interface Entry {
  opType: ActionType;
  refName?: string;
  content?: string;
  commentId?: number;
}

const ZERO = /^0+$/;
/** The first line of a comment (Gitea's review feed rows: strings.Split(content, "\n")[0]). */
const firstLine = (content: string): string => content.split('\n', 1)[0] ?? '';
/** Gitea's `[ui] FEED_MAX_COMMIT_NUM`. */
const FEED_MAX_COMMITS = 5;

/** The unit a watcher must be able to read to get a row of this type (Gitea notifyWatchers); null: none. */
function unitOf(op: ActionType): UnitType | null {
  switch (op) {
    case 'COMMIT_REPO':
    case 'PUSH_TAG':
    case 'DELETE_TAG':
    case 'PUBLISH_RELEASE':
    case 'DELETE_BRANCH':
    case 'MIRROR_SYNC_PUSH':
    case 'MIRROR_SYNC_CREATE':
    case 'MIRROR_SYNC_DELETE':
      return 'CODE';
    case 'CREATE_ISSUE':
    case 'COMMENT_ISSUE':
    case 'CLOSE_ISSUE':
    case 'REOPEN_ISSUE':
      return 'ISSUES';
    case 'CREATE_PULL_REQUEST':
    case 'COMMENT_PULL':
    case 'MERGE_PULL_REQUEST':
    case 'CLOSE_PULL_REQUEST':
    case 'REOPEN_PULL_REQUEST':
    case 'AUTO_MERGE_PULL_REQUEST':
    case 'PULL_REQUEST_READY_FOR_REVIEW':
      return 'PULL_REQUESTS';
    default:
      return null;
  }
}

/**
 * Action rows for one event, materialized per feed owner as Gitea's NotifyWatchers does: one for the actor
 * (the repository feed's "original" row, user_id = act_user_id), one for the owning organization when it is not
 * the actor, and one for each other watcher (mode normal or auto) who can read the unit the row is about.
 * A user-owned repository's owner gets rows as a watcher (creating a repository watches it, as Gitea's
 * AUTO_WATCH_NEW_REPOS).
 */
async function feedRows(
  db: Db,
  repoId: number,
  actorId: number,
  entries: Entry[],
  createdAt: Date,
  known?: RepoFacts,
): Promise<Models.Prisma.ActionCreateManyInput[]> {
  if (!entries.length) return [];
  const [[repo], watchers] = await Promise.all([
    known ? [known] : loadRepoFacts(db, [repoId]),
    readRows<'User', Pick<Models.User, 'id' | 'isRestricted'>>(
      db,
      'User',
      `SELECT u."id", u."isRestricted" FROM "Watch" w JOIN "User" u ON u."id" = w."userId"
        WHERE w."repoId" = ? AND w."mode" IN ('NORMAL', 'AUTO') AND w."userId" <> ? ORDER BY w."id"`,
      [repoId, actorId],
    ),
  ]);
  if (!repo) return [];
  const row = (userId: number, e: Entry): Models.Prisma.ActionCreateManyInput => ({
    userId,
    opType: e.opType,
    actUserId: actorId,
    repoId,
    commentId: e.commentId ?? null,
    refName: e.refName ?? '',
    content: e.content ?? '',
    isPrivate: repo.isPrivate,
    createdAt,
  });
  const rows = entries.map((e) => row(actorId, e));
  if (repo.owner.type === 'ORGANIZATION' && repo.owner.id !== actorId) rows.push(...entries.map((e) => row(repo.owner.id, e)));
  // Every unrestricted user reads the enabled units of a public repository of a public owner: no lookup needed.
  const openToAll = !repo.isPrivate && repo.owner.visibility === 'PUBLIC';
  const enabled = new Set(repo.units.map((u) => u.type));
  // Watchers the public rule does not cover get the access model, batched (a fixed number of queries for any number).
  const looked = watchers.filter((user) => !openToAll || user.isRestricted).map((user) => user.id);
  const perms = await usersRepoPermissions(db, repo, looked);
  for (const user of watchers) {
    const perm = openToAll && !user.isRestricted ? null : perms.get(user.id);
    if (perm === undefined) continue;
    for (const e of entries) {
      const unit = unitOf(e.opType);
      const readable = unit === null || (perm ? canRead(perm, unit) : enabled.has(unit));
      if (readable) rows.push(row(user.id, e));
    }
  }
  return rows;
}

/**
 * A push entry as a pull mirror's sync reports it (Gitea mirror_pull.go): a new ref is mirror_sync_push without
 * commits plus mirror_sync_create, a moved one mirror_sync_push with its commits, a deleted one mirror_sync_delete.
 */
function mirrorEntries(e: Entry, updates: readonly RefUpdate[]): Entry[] {
  const u = updates.find((x) => x.ref === e.refName);
  if (!u) return [];
  const ref = { refName: u.ref };
  if (ZERO.test(u.newSha)) return [{ opType: 'MIRROR_SYNC_DELETE', ...ref }];
  if (ZERO.test(u.oldSha)) {
    const none = JSON.stringify({ Commits: [], HeadCommit: null, CompareURL: '', Len: 0 });
    return [
      { opType: 'MIRROR_SYNC_PUSH', ...ref, content: none },
      { opType: 'MIRROR_SYNC_CREATE', ...ref },
    ];
  }
  return [{ opType: 'MIRROR_SYNC_PUSH', ...ref, content: e.content ?? '' }];
}

/** The pushed repository as the feed rows of a push name it. */
type PushedRepo = Pick<Models.Repository, 'id' | 'ownerName' | 'name'>;

async function pushEntries(config: Config, repo: PushedRepo, updates: readonly RefUpdate[]): Promise<Entry[]> {
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
 * `facts`: the repository's access facts when the caller read them with its row.
 */
export async function pushFeedRows(
  db: Db,
  config: Config,
  repo: PushedRepo,
  pusherId: number,
  updates: readonly RefUpdate[],
  opts: { mirror?: boolean | undefined; facts?: RepoFacts | undefined } = {},
): Promise<Models.Prisma.ActionCreateManyInput[]> {
  const entries = await pushEntries(config, repo, updates);
  const rows = opts.mirror ? entries.flatMap((e) => mirrorEntries(e, updates)) : entries;
  return feedRows(db, repo.id, pusherId, rows, new Date(), opts.facts);
}

/**
 * The activity feed (Gitea's feed notifier): turns repository events into Action rows, one per feed
 * owner — the actor, the owning organization, and the watchers (feedRows) — marked private for private repositories.
 * Pushes are not here: their rows are part of the push's durable bookkeeping (pushFeedRows).
 */
export function activitySubscriber(db: Db): Subscriber {
  /** Writes the rows of `entries`; `event`'s repository facts when its writer kept them (withEventRepo). */
  async function record(repoId: number, actorId: number, entries: Entry[], event?: DomainEvent): Promise<void> {
    const data = await feedRows(db, repoId, actorId, entries, new Date(), event && eventRepoFacts(event));
    if (data.length) await insertRows(db, 'Action', data);
  }

  // Gitea's feed content for issues is "<index>|<title>" on creation and "<index>|" on state changes, which
  // also carry the CLOSE/REOPEN timeline comment (Gitea IssueChangeStatus: comment_id and comment).
  async function issueEntries(
    event: Extract<DomainEvent, { type: 'issue.created' | 'issue.closed' | 'issue.reopened' }>,
  ): Promise<Entry[]> {
    const { issueId, type, actorId } = event;
    const issue = await eventIssue(db, event);
    if (!issue) return [];
    if (type !== 'issue.created') {
      const comment = await db.comment.findFirst({
        where: { issueId, type: type === 'issue.closed' ? 'CLOSE' : 'REOPEN', posterId: actorId },
        orderBy: { id: 'desc' },
        select: { id: true },
      });
      const opType: ActionType =
        type === 'issue.closed'
          ? issue.isPull
            ? 'CLOSE_PULL_REQUEST'
            : 'CLOSE_ISSUE'
          : issue.isPull
            ? 'REOPEN_PULL_REQUEST'
            : 'REOPEN_ISSUE';
      return [{ opType, content: `${issue.index}|`, ...(comment ? { commentId: comment.id } : {}) }];
    }
    return [{ opType: issue.isPull ? 'CREATE_PULL_REQUEST' : 'CREATE_ISSUE', content: `${issue.index}|${issue.title}` }];
  }

  // Gitea's feed of a submitted review (content: the first line of each comment): comment_pull per code comment, then approve_pull_request /
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
      content: `${event.index}|${firstLine(c.content)}`,
    }));
    if (review && (event.state !== 'COMMENT' || review.content.trim() !== '')) {
      const opType: ActionType =
        event.state === 'APPROVE' ? 'APPROVE_PULL_REQUEST' : event.state === 'REJECT' ? 'REJECT_PULL_REQUEST' : 'COMMENT_PULL';
      entries.push({ opType, commentId: event.commentId, content: `${event.index}|${firstLine(review.content)}` });
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
        case 'repo.starred':
          return event.starred ? record(event.repoId, event.actorId, [{ opType: 'STAR_REPO' }]) : undefined;
        case 'repo.watched':
          return event.watching ? record(event.repoId, event.actorId, [{ opType: 'WATCH_REPO' }]) : undefined;
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
          return record(event.repoId, event.actorId, await issueEntries(event), event);
        case 'comment.created': {
          // Gitea's feed: comment_issue / comment_pull, content "<index>|<excerpt of the body>".
          const content = await eventCommentContent(db, event);
          if (content === null) return undefined;
          const entry: Entry = {
            opType: event.isPull ? 'COMMENT_PULL' : 'COMMENT_ISSUE',
            commentId: event.commentId,
            content: `${event.index}|${feedExcerpt(content)}`,
          };
          return record(event.repoId, event.actorId, [entry], event);
        }
        case 'pull.reviewed':
          return record(event.repoId, event.actorId, await reviewEntries(event));
        case 'pull.reviewDismissed':
          return record(event.repoId, event.actorId, await dismissEntries(event));
        case 'pull.merged': {
          // Gitea's merge_pull_request: content "<index>|<title>".
          const issue = await eventIssue(db, event);
          if (!issue) return undefined;
          const opType = event.auto ? 'AUTO_MERGE_PULL_REQUEST' : 'MERGE_PULL_REQUEST';
          return record(event.repoId, event.actorId, [{ opType, content: `${event.index}|${issue.title}` }], event);
        }
        case 'pull.readyForReview': {
          // pull_request_ready_for_review, content "<index>|<title>" as merge rows (Gitea mails this moment; the spec feeds it).
          const issue = await eventIssue(db, event);
          if (!issue) return undefined;
          return record(event.repoId, event.actorId, [
            { opType: 'PULL_REQUEST_READY_FOR_REVIEW', content: `${event.index}|${issue.title}` },
          ]);
        }
        case 'release.published': {
          // Gitea's publish_release: content is the release title, ref_name its tag name.
          const release = await db.release.findUnique({ where: { id: event.releaseId }, select: { title: true, tagName: true } });
          if (!release) return undefined;
          return record(event.repoId, event.actorId, [{ opType: 'PUBLISH_RELEASE', content: release.title, refName: release.tagName }]);
        }
        default:
          return undefined;
      }
    },
  };
}
