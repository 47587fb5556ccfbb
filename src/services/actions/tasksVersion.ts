// Gitea's tasks_version: a counter runners compare against to skip looking for work when nothing changed.
import type { Db, DbTx } from '../../db/client.ts';

const INSTANCE = { ownerId_repoId: { ownerId: 0, repoId: 0 } };

/** Jobs became waiting (or runners changed): every runner should look again. */
export async function bumpTasksVersion(db: Db | DbTx): Promise<void> {
  await db.actionTasksVersion.upsert({
    where: INSTANCE,
    create: { ownerId: 0, repoId: 0, version: 1 },
    update: { version: { increment: 1 } },
  });
}

/** The current version; never 0 (a runner sends 0 before its first fetch), so a first read creates version 1. */
export async function currentTasksVersion(db: Db): Promise<number> {
  const row = await db.actionTasksVersion.findUnique({ where: INSTANCE });
  if (row && row.version > 0) return row.version;
  await bumpTasksVersion(db);
  return (await db.actionTasksVersion.findUnique({ where: INSTANCE }))?.version ?? 1;
}
