// Reads of the rows an event names, for the subscribers that follow committed events (src/notify/notifier.ts). Every
// subscriber receives the same event object, so a read made for one of them is kept with the event (a WeakMap: it
// goes with the event) and the others share it: the feed and the mentions read a new comment or issue once. The
// service that wrote a new comment or issue keeps what it wrote with the event instead, and then nobody reads it.
import type { Db, Models } from '../db/client.ts';
import { readRows } from '../db/readPath.ts';
import type { RepoFacts } from '../loaders/permissionLoaders.ts';

/** A comment's text (the notification fan-out's mentions); null when it is gone. */
export async function commentContent(db: Db, commentId: number): Promise<string | null> {
  const [row] = await readRows<'Comment', { content: string }>(db, 'Comment', 'SELECT "content" FROM "Comment" WHERE "id" = ?', [
    commentId,
  ]);
  return row ? row.content : null;
}

/** What the subscribers read of an issue an event names. */
export type EventIssue = Pick<Models.Issue, 'index' | 'title' | 'isPull' | 'content'>;

const comments = new WeakMap<object, Promise<string | null>>();
const issues = new WeakMap<object, Promise<EventIssue | null>>();
const repos = new WeakMap<object, RepoFacts>();

/** The read `read` of `event`, made by the first subscriber to ask and shared with the rest. */
function once<T>(reads: WeakMap<object, Promise<T>>, event: object, read: () => Promise<T>): Promise<T> {
  let pending = reads.get(event);
  if (!pending) {
    pending = read();
    reads.set(event, pending);
  }
  return pending;
}

/** `event`, with the text of the comment it names as its writer wrote it: the subscribers read no other. */
export function withCommentContent<const E extends { commentId: number }>(event: E, content: string): E {
  comments.set(event, Promise.resolve(content));
  return event;
}

/** `event`, with the issue it names as its writer wrote it: the subscribers read no other. */
export function withEventIssue<const E extends { issueId: number }>(event: E, issue: EventIssue): E {
  issues.set(event, Promise.resolve({ index: issue.index, title: issue.title, isPull: issue.isPull, content: issue.content }));
  return event;
}

/**
 * `event`, with the facts of its repository (visibility, owner, units) as its writer read them to authorize the
 * write: for writes that change none of them (issues, comments), so the feed reads them no more.
 */
export function withEventRepo<const E extends { repoId: number }>(event: E, facts: RepoFacts | undefined): E {
  if (facts && facts.id === event.repoId) repos.set(event, facts);
  return event;
}

/** The repository facts the writer of `event` kept with it (withEventRepo); undefined when it kept none. */
export function eventRepoFacts(event: object): RepoFacts | undefined {
  return repos.get(event);
}

/** The issue the writer of `event` kept with it (withEventIssue), without reading; undefined when it kept none. */
export function keptEventIssue(event: object): Promise<EventIssue | null> | undefined {
  return issues.get(event);
}

/** The comment text the writer of `event` kept with it (withCommentContent), without reading; undefined when it kept none. */
export function keptCommentContent(event: object): Promise<string | null> | undefined {
  return comments.get(event);
}

/** The text of the comment an event names (the feed's excerpt, the mentions); null when it is gone. */
export function eventCommentContent(db: Db, event: { commentId: number }): Promise<string | null> {
  return once(comments, event, () => commentContent(db, event.commentId));
}

/** The number, title, kind and text of the issue an event names (the feed's entries, the mentions); null when it is gone. */
export function eventIssue(db: Db, event: { issueId: number }): Promise<EventIssue | null> {
  return once(issues, event, async () => {
    const [row] = await readRows<'Issue', EventIssue>(
      db,
      'Issue',
      'SELECT "index", "title", "isPull", "content" FROM "Issue" WHERE "id" = ?',
      [event.issueId],
    );
    return row ?? null;
  });
}
