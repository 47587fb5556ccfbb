// Push mirrors (Gitea services/mirror/mirror_push.go, routers/api/v1/repo/mirror.go): `git push --mirror` to a
// remote after pushes (sync_on_commit) and on an interval, with sealed credentials.
import { readRows } from '../../db/readPath.ts';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { DbTx, Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, ValidationError } from '../../errors.ts';
import { pushMirror } from '../../git/remoteMirror.ts';
import { repoPath } from '../../git/repoPath.ts';
import { GitCommandError } from '../../git/run.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import { repoPermission, requireAdminRepo, type RepoRef } from '../access/repoAccess.ts';
import { isRepoAdmin } from '../../permissions/repoPermission.ts';
import { createSystemContext, withTx, type AppDeps, type ServiceContext } from '../context.ts';
import type { PushFollowUp } from '../repo/pushJob.ts';
import { checkCloneAddress } from './address.ts';
import { gitAuthorization, NO_CREDENTIALS, openCredentials, redact, sealCredentials } from './credentials.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { parseGoDuration } from '../goDuration.ts';
import { MIN_MIRROR_INTERVAL } from '../repo/edit.ts';

const PushMirrorPayload = z.object({ pushMirrorId: z.number().int() });

/** One `git push --mirror` of a push mirror. */
export const PUSH_MIRROR_JOB = jobKind('repo.push-mirror', PushMirrorPayload, { maxAttempts: 3 });

const PUSH_TIMEOUT_MS = 300_000;

/** A push mirror with its repository's name (for the API's repo_name). */
export type PushMirrorView = Models.PushMirror & { repoName: string };

/** Gitea's CreatePushMirrorOption. */
export interface CreatePushMirrorInput {
  remoteAddress: string;
  remoteUsername?: string;
  remotePassword?: string;
  interval?: string;
  syncOnCommit?: boolean;
}

async function adminRepo(cx: ServiceContext, ref: RepoRef): Promise<Models.Repository> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  return repo;
}

/** GET /repos/{o}/{r}/push_mirrors (repository admins). */
export async function listPushMirrors(cx: ServiceContext, ref: RepoRef, page: ListOptions): Promise<Page<PushMirrorView>> {
  const repo = await adminRepo(cx, ref);
  const where = { repoId: repo.id };
  const [rows, total] = await Promise.all([
    cx.db.pushMirror.findMany({ where, orderBy: { id: 'asc' }, ...skipTake(page) }),
    cx.db.pushMirror.count({ where }),
  ]);
  return { items: rows.map((r) => ({ ...r, repoName: repo.name })), total };
}

/** A repository's push mirrors for its admins (GraphQL Repository.pushMirrors); others see none. */
export async function pushMirrorsForAdmins(cx: ServiceContext, repo: Models.Repository): Promise<PushMirrorView[]> {
  if (!cx.viewer || !isRepoAdmin(await repoPermission(cx, repo.id))) return [];
  const rows = await cx.db.pushMirror.findMany({ where: { repoId: repo.id }, orderBy: { id: 'asc' } });
  return rows.map((r) => ({ ...r, repoName: repo.name }));
}

/** GET /repos/{o}/{r}/push_mirrors/{name}. @throws NotFoundError */
export async function getPushMirror(cx: ServiceContext, ref: RepoRef, name: string): Promise<PushMirrorView> {
  const repo = await adminRepo(cx, ref);
  const row = await cx.db.pushMirror.findUnique({ where: { repoId_remoteName: { repoId: repo.id, remoteName: name } } });
  if (!row) throw new NotFoundError('push mirror does not exist', { name });
  return { ...row, repoName: repo.name };
}

/**
 * POST /repos/{o}/{r}/push_mirrors (Gitea CreatePushMirror): the interval (Go duration, 0 or at least the
 * minimum), the address through the migration policy, credentials sealed; the remote gets a generated name.
 * @throws ValidationError, InvalidArgumentError, PermissionDeniedError, NotFoundError
 */
export async function createPushMirror(cx: ServiceContext, ref: RepoRef, input: CreatePushMirrorInput): Promise<PushMirrorView> {
  const repo = await adminRepo(cx, ref);
  const interval = input.interval ? parseGoDuration(input.interval) : 0;
  if (interval < 0 || (interval > 0 && interval < MIN_MIRROR_INTERVAL))
    throw new InvalidArgumentError('invalid push mirror interval', { interval });
  const viewer = cx.viewer as Models.User;
  const address = await checkCloneAddress(cx.config.migrations, viewer, input.remoteAddress);
  if (address.kind !== 'remote') throw new ValidationError('The provided URL is invalid.', { reason: 'URL_ERROR' });
  const sealed = sealCredentials(cx.config.secretKey, {
    ...NO_CREDENTIALS,
    username: input.remoteUsername ?? '',
    password: input.remotePassword ?? '',
  });
  const row = await cx.db.pushMirror.create({
    data: {
      repoId: repo.id,
      remoteName: `remote_mirror_${randomBytes(5).toString('hex')}`,
      remoteAddress: address.url.toString(),
      credentialsEncrypted: sealed,
      syncOnCommit: input.syncOnCommit ?? false,
      interval,
    },
  });
  return { ...row, repoName: repo.name };
}

/** DELETE /repos/{o}/{r}/push_mirrors/{name}. @throws NotFoundError */
export async function deletePushMirror(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const repo = await adminRepo(cx, ref);
  const { count } = await cx.db.pushMirror.deleteMany({ where: { repoId: repo.id, remoteName: name } });
  if (!count) throw new NotFoundError('push mirror does not exist', { name });
}

/** POST /repos/{o}/{r}/push_mirrors-sync: queues a push of every push mirror. @throws InvalidArgumentError when there is none */
export async function syncPushMirrors(cx: ServiceContext, ref: RepoRef): Promise<void> {
  const repo = await adminRepo(cx, ref);
  const mirrors = await cx.db.pushMirror.findMany({ where: { repoId: repo.id }, select: { id: true } });
  await withTx(cx, async (tx) => {
    for (const m of mirrors) await enqueue(tx, PUSH_MIRROR_JOB, { pushMirrorId: m.id });
  });
}

/** The push mirrors whose interval has passed since their last push, queued (cron update_mirrors). */
export async function queueDuePushMirrors(cx: ServiceContext, now: Date, limit: number): Promise<number> {
  const rows = await cx.db.pushMirror.findMany({ where: { interval: { gt: 0 } }, orderBy: { lastUpdateAt: 'asc' }, take: limit * 4 });
  const due = rows.filter((m) => !m.lastUpdateAt || m.lastUpdateAt.getTime() + m.interval * 1000 <= now.getTime()).slice(0, limit);
  let queued = 0;
  for (const m of due) {
    const claimed = await withTx(cx, async (tx: DbTx) => {
      const { count } = await tx.pushMirror.updateMany({ where: { id: m.id, lastUpdateAt: m.lastUpdateAt }, data: { lastUpdateAt: now } });
      if (count) await enqueue(tx, PUSH_MIRROR_JOB, { pushMirrorId: m.id });
      return count === 1;
    });
    if (claimed) queued++;
  }
  return queued;
}

/** After a push: the repository's sync_on_commit push mirrors get a push job. */
export const pushMirrorFollowUp: PushFollowUp = async (cx, push) => {
  const mirrors = await readRows<'PushMirror', { id: number }>(
    cx.db,
    'PushMirror',
    'SELECT "id" FROM "PushMirror" WHERE "repoId" = ? AND "syncOnCommit" = ? ORDER BY "id"',
    [push.repoId, true],
  );
  if (!mirrors.length) return;
  await withTx(cx, async (tx) => {
    for (const m of mirrors) await enqueue(tx, PUSH_MIRROR_JOB, { pushMirrorId: m.id });
  });
};

/** The push mirror job's handler: pushes, records the time and the last error (credentials redacted). */
export function pushMirrorHandler(deps: AppDeps): JobHandler<z.infer<typeof PushMirrorPayload>> {
  return defineHandler(PUSH_MIRROR_JOB, async ({ pushMirrorId }) => {
    const cx = createSystemContext(deps);
    const m = await deps.db.pushMirror.findUnique({ where: { id: pushMirrorId }, include: { repo: true } });
    if (!m) return;
    const credentials = openCredentials(deps.config.secretKey, m.credentialsEncrypted);
    let lastError = '';
    try {
      await checkCloneAddress(deps.config.migrations, { isAdmin: false, allowImportLocal: false }, m.remoteAddress);
      await pushMirror(repoPath(deps.config.repositoriesDir, m.repo.ownerName, m.repo.name), m.remoteAddress, {
        authorization: gitAuthorization(credentials),
        timeoutMs: PUSH_TIMEOUT_MS,
      });
    } catch (err) {
      const text = err instanceof GitCommandError ? err.stderr.trim() : err instanceof Error ? err.message : String(err);
      lastError = redact(text, credentials);
    }
    await cx.db.pushMirror.update({ where: { id: m.id }, data: { lastUpdateAt: new Date(), lastError } });
  });
}
