// Files whose attachment rows are gone (their repository, issue, comment or release was deleted) are removed.
import type { Db } from '../../db/client.ts';
import type { AttachmentSettings } from '../../config.ts';
import type { Subscriber } from '../../notify/notifier.ts';
import { listAttachmentFiles, removeAttachmentFiles } from './store.ts';

/** Files younger than this are left alone: an upload renames its file into place just before its row commits. */
const GRACE_MS = 60_000;

/**
 * Removes the files of the store that no attachment row names (older than a minute); returns how many. Rows go
 * with their repository, issue or comment through the database's cascades; their files go here.
 */
export async function sweepOrphanAttachmentFiles(db: Db, settings: AttachmentSettings, now = new Date()): Promise<number> {
  const files = (await listAttachmentFiles(settings)).filter((f) => now.getTime() - f.mtime.getTime() >= GRACE_MS);
  if (!files.length) return 0;
  const orphans: string[] = [];
  for (let i = 0; i < files.length; i += 500) {
    const batch = files.slice(i, i + 500).map((f) => f.uuid);
    const known = new Set((await db.attachment.findMany({ where: { uuid: { in: batch } }, select: { uuid: true } })).map((a) => a.uuid));
    orphans.push(...batch.filter((u) => !known.has(u)));
  }
  await removeAttachmentFiles(settings, orphans);
  return orphans.length;
}

/**
 * After a repository, an issue, a comment, a user or an organization is deleted (their attachment rows cascade), the orphaned
 * files are swept.
 */
export function attachmentSweepSubscriber(db: Db, settings: AttachmentSettings): Subscriber {
  return {
    name: 'attachment-sweep',
    async handle(event) {
      if (
        event.type === 'repo.deleted' ||
        event.type === 'comment.deleted' ||
        event.type === 'issue.deleted' ||
        event.type === 'user.deleted' ||
        event.type === 'org.deleted'
      ) {
        await sweepOrphanAttachmentFiles(db, settings);
      }
    },
  };
}
