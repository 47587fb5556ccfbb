// Pull mirrors (Gitea services/mirror/mirror_pull.go): `git fetch --tags [--prune]`, then the changed refs go
// through the push bookkeeping (feed rows mirror_sync_*, push/create/delete webhooks, release and pull refresh).
import { z } from 'zod';
import type { DbTx, Models } from '../../db/client.ts';
import { InvalidArgumentError } from '../../errors.ts';
import { diffRefs, hasMirrorRemote, readBranchAndTagRefs } from '../../git/remoteMirror.ts';
import { repoPath, wikiPath } from '../../git/repoPath.ts';
import { GitCommandError } from '../../git/run.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { defineHandler, jobKind, PermanentJobError, type JobHandler } from '../../jobs/jobKind.ts';
import { requireUnitWrite, requireRepo, type RepoRef } from '../access/repoAccess.ts';
import { createSystemContext, withTx, type AppDeps, type ServiceContext } from '../context.ts';
import { withRepoRow } from '../repo/heldRepo.ts';
import { fetchMirrorRefs } from '../repo/moveRefs.ts';
import { PUSH_JOB } from '../repo/pushJobKind.ts';
import { checkCloneAddress } from './address.ts';
import { gitAuthorization, openCredentials, redact } from './credentials.ts';
import { nextSync } from './interval.ts';

const MirrorSyncPayload = z.object({
  repoId: z.number().int(),
  /** Checkpoint: the branches and tags before the fetch, so a replay after a crash reports the same changes. */
  before: z.record(z.string(), z.string()).optional(),
  /** Checkpoint: the sync's rows and its push job are committed. */
  done: z.boolean().optional(),
});
type MirrorSyncPayload = z.infer<typeof MirrorSyncPayload>;

/** One sync of a pull mirror. */
export const MIRROR_SYNC_JOB = jobKind('repo.mirror-sync', MirrorSyncPayload, { maxAttempts: 3 });

/** Gitea `[git.timeout] MIRROR` (300 s). */
const MIRROR_TIMEOUT_MS = 300_000;

/** Queues a sync of the mirror of `repoId` in `tx`. */
export function enqueueMirrorSync(tx: DbTx, repoId: number): Promise<void> {
  return enqueue(tx, MIRROR_SYNC_JOB, { repoId });
}

/**
 * POST /repos/{o}/{r}/mirror-sync (Gitea MirrorSync): write on the code, not archived, a pull mirror → a sync
 * is queued.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, InvalidArgumentError
 */
export async function requestMirrorSync(cx: ServiceContext, ref: RepoRef): Promise<Models.Repository> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitWrite(cx, access, 'CODE', 'write:repository');
  if (!access.repo.isMirror) throw new InvalidArgumentError('Repository is not a mirror');
  await withTx(cx, (tx) => enqueueMirrorSync(tx, access.repo.id));
  return access.repo;
}

/**
 * The due pull mirrors (next sync at or before `now`, periodic ones only), oldest update first, at most `limit`:
 * each is claimed by moving its next sync (a compare-and-set, so two processes never both take one) and gets a
 * sync job in the same transaction. Returns how many were queued.
 */
export async function queueDueMirrors(cx: ServiceContext, now: Date, limit: number): Promise<number> {
  const due = await cx.db.mirror.findMany({
    where: { interval: { gt: 0 }, nextUpdateAt: { lte: now }, repo: { status: 'READY' } },
    orderBy: { updatedAt: 'asc' },
    take: limit,
    select: { id: true, repoId: true, interval: true, nextUpdateAt: true },
  });
  let queued = 0;
  for (const m of due) {
    const claimed = await withTx(cx, async (tx) => {
      const { count } = await tx.mirror.updateMany({
        where: { id: m.id, nextUpdateAt: m.nextUpdateAt },
        data: { nextUpdateAt: nextSync(m.interval, now) },
      });
      if (count) await enqueueMirrorSync(tx, m.repoId);
      return count === 1;
    });
    if (claimed) queued++;
  }
  return queued;
}

async function sync(
  cx: ServiceContext,
  repo: Models.Repository,
  mirror: Models.Mirror,
  before: Record<string, string>,
  inTx: (tx: DbTx) => Promise<void>,
): Promise<void> {
  const owner = await cx.db.user.findUnique({ where: { id: repo.ownerId } });
  if (!owner) return;
  const credentials = openCredentials(cx.config.secretKey, mirror.credentialsEncrypted);
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  try {
    // The address is checked again at every sync (the policy may have changed); local sources were allowed at creation.
    if (!mirror.remoteAddress.startsWith('/'))
      await checkCloneAddress(cx.config.migrations, { isAdmin: false, allowImportLocal: false }, mirror.remoteAddress);
    const remote = { authorization: gitAuthorization(credentials), timeoutMs: MIRROR_TIMEOUT_MS };
    await fetchMirrorRefs(cx, repo, 'code', mirror.enablePrune, remote);
    // The wiki follows its source's too (Gitea runSync: `git remote update --prune` in the wiki).
    if (await hasMirrorRemote(wikiPath(cx.config.repositoriesDir, repo.ownerName, repo.name))) {
      await fetchMirrorRefs(cx, repo, 'wiki', true, remote);
    }
  } catch (err) {
    // Gitea: a failed sync touches only updated_unix; the next scheduled run retries.
    await cx.db.mirror.update({ where: { id: mirror.id }, data: { updatedAt: new Date() } });
    const text = err instanceof GitCommandError ? err.stderr.trim() : err instanceof Error ? err.message : String(err);
    throw new PermanentJobError(`Failed to update mirror repository (${repo.ownerName}/${repo.name}): ${redact(text, credentials)}`);
  }
  const changes = diffRefs(before, await readBranchAndTagRefs(gitDir));
  await withTx(cx, async (tx) => {
    const now = new Date();
    await tx.mirror.update({
      where: { id: mirror.id },
      data: { updatedAt: now, lastSyncAt: now, ...(mirror.interval > 0 ? { nextUpdateAt: nextSync(mirror.interval, now) } : {}) },
    });
    // The owner is the pusher and sender, as Gitea's SyncPushCommits.
    if (changes.length)
      await enqueue(tx, PUSH_JOB, { repoId: repo.id, pusherId: repo.ownerId, updates: changes, applied: changes, mirror: true });
    await inTx(tx);
  });
}

/** The mirror sync job's handler: records the refs before the fetch (checkpoint), fetches, hands the changes to the push job. */
export function mirrorSyncHandler(deps: AppDeps): JobHandler<MirrorSyncPayload> {
  return defineHandler(MIRROR_SYNC_JOB, async (payload, run) => {
    if (payload.done) return;
    const cx = createSystemContext(deps);
    // The repository's write lock from the snapshot to the recorded changes: two syncs (or instances) never fetch
    // into one mirror at once, and a second sync's snapshot is taken after the first one's changes were recorded.
    // The row is read once it is held (withRepoRow): a rename or transfer this waited behind moved the directory.
    await withRepoRow(cx, payload.repoId, async (repo) => {
      if (!repo?.isMirror || repo.status !== 'READY') return;
      const mirror = await deps.db.mirror.findUnique({ where: { repoId: repo.id } });
      if (!mirror) return;
      let before = payload.before;
      if (!before) {
        const snapshot = await readBranchAndTagRefs(repoPath(deps.config.repositoriesDir, repo.ownerName, repo.name));
        await withTx(cx, (tx) => run.checkpoint(tx, { ...payload, before: snapshot }));
        before = snapshot;
      }
      const snapshot = before;
      await sync(cx, repo, mirror, before, (tx) => run.checkpoint(tx, { ...payload, before: snapshot, done: true }));
    });
  });
}
