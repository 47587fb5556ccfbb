// Files of Actions whose rows are gone: a deleted repository's runs, tasks and artifacts go with it through the
// database's cascades (a deleted user or organization takes its repositories along); their task logs and artifact
// files are swept here (Gitea DeleteRepository removes them too).
import type { Db } from '../../db/client.ts';
import type { Subscriber } from '../../notify/notifier.ts';
import { removeRunFiles, resetUpload, storedArtifactIds } from './artifactStore.ts';
import { loggedRepoIds, removeRepoLogs } from './taskLogs.ts';

/** The ids of `stored` that `existing` (one batch of ids at a time, as the attachment sweep reads them) lacks. */
async function missing(stored: readonly number[], existing: (ids: number[]) => Promise<{ id: number }[]>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < stored.length; i += 500) {
    const batch = stored.slice(i, i + 500);
    const known = new Set((await existing(batch)).map((r) => r.id));
    out.push(...batch.filter((id) => !known.has(id)));
  }
  return out;
}

/**
 * Removes the log directories of repositories, the zips of runs and the upload leftovers of artifacts that no row
 * names any more; returns how many directories went. A row is written before its files, so live work is never swept.
 */
export async function sweepOrphanActionsFiles(db: Db, dataDir: string): Promise<number> {
  const [repoIds, { runIds, uploadIds }] = await Promise.all([loggedRepoIds(dataDir), storedArtifactIds(dataDir)]);
  const select = { id: true } as const;
  const [repos, runs, uploads] = await Promise.all([
    missing(repoIds, (ids) => db.repository.findMany({ where: { id: { in: ids } }, select })),
    missing(runIds, (ids) => db.actionRun.findMany({ where: { id: { in: ids } }, select })),
    missing(uploadIds, (ids) => db.actionArtifact.findMany({ where: { id: { in: ids } }, select })),
  ]);
  const gone = [
    ...repos.map((id) => removeRepoLogs(dataDir, id)),
    ...runs.map((id) => removeRunFiles(dataDir, id)),
    ...uploads.map((id) => resetUpload(dataDir, id)),
  ];
  await Promise.all(gone);
  return gone.length;
}

/** Sweeps the orphaned Actions files after a repository, a user or an organization is deleted. */
export function actionsFilesSweepSubscriber(db: Db, dataDir: string): Subscriber {
  return {
    name: 'actions-files-sweep',
    async handle(event) {
      if (event.type === 'repo.deleted' || event.type === 'user.deleted' || event.type === 'org.deleted') {
        await sweepOrphanActionsFiles(db, dataDir);
      }
    },
  };
}
