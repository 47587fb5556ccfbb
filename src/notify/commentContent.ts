import type { Db } from '../db/client.ts';
import { readRows } from '../db/readPath.ts';

/** A comment's text, read by the subscribers that follow it (feed excerpt, mentions); null when it is gone. */
export async function commentContent(db: Db, commentId: number): Promise<string | null> {
  const [row] = await readRows<'Comment', { content: string }>(db, 'Comment', 'SELECT "content" FROM "Comment" WHERE "id" = ?', [
    commentId,
  ]);
  return row ? row.content : null;
}
