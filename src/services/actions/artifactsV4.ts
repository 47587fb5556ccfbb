// The v4 artifact protocol a running job speaks (actions/upload-artifact@v4, download-artifact@v4; Gitea
// routers/api/actions/artifactsv4.go): Twirp JSON calls authenticated by the task's token, and uploads and
// downloads through URLs signed with SECRET_KEY that carry the task and artifact and expire after an hour.
import type { Readable } from 'node:stream';
import { findRunningTask } from '../../auth/actionsUser.ts';
import type { Models } from '../../db/client.ts';
import { NotFoundError, UnauthenticatedError, InvalidArgumentError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';
import * as store from './artifactStore.ts';
import { runtimeTokenTask } from './runtimeToken.ts';

export const ARTIFACT_V4_BASE = 'twirp/github.actions.results.api.v1.ArtifactService';
/** Gitea [actions] ARTIFACT_RETENTION_DAYS default. */
const RETENTION_DAYS = 90;
const URL_LIFETIME_SECONDS = 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The running task a call comes from, with the run of its job. */
export interface ArtifactTask {
  taskId: number;
  runId: number;
  jobId: number;
  repoId: number;
  ownerId: number;
  commitSha: string;
}

/** The task of a `Bearer <runtime token JWT | task token>` header. @throws UnauthenticatedError */
export async function artifactTaskOf(cx: ServiceContext, authorization: string | undefined): Promise<ArtifactTask> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
  // The runtime token (a JWT, what the toolkit sends) or, from runners that pass no runtime token, the task token.
  const taskId = token.includes('.') ? await runtimeTokenTask(cx.config.secretKey, token) : (await findRunningTask(cx.db, token))?.taskId;
  if (!taskId) throw new UnauthenticatedError('Bad authorization header');
  return taskById(cx, taskId);
}

async function taskById(cx: ServiceContext, taskId: number): Promise<ArtifactTask> {
  const task = await cx.db.actionTask.findUnique({ where: { id: taskId }, include: { job: { select: { runId: true } } } });
  if (!task || task.status !== 'RUNNING') throw new UnauthenticatedError('Error runner api getting task: task is not running');
  return {
    taskId: task.id,
    runId: task.job.runId,
    jobId: task.jobId,
    repoId: task.repoId,
    ownerId: task.ownerId,
    commitSha: task.commitSha,
  };
}

/** The `workflow_run_backend_id` of a call must be the task's run (Gitea validateRunIDV4). @throws InvalidArgumentError */
function checkRun(task: ArtifactTask, backendRunId: string): void {
  if (backendRunId !== String(task.runId)) throw new InvalidArgumentError('run-id does not match');
}

async function artifactByName(cx: ServiceContext, runId: number, name: string): Promise<Models.ActionArtifact> {
  const art = await cx.db.actionArtifact.findUnique({ where: { runId_name: { runId, name } } });
  if (!art) throw new NotFoundError('Error artifact not found');
  return art;
}

type Endpoint = 'UploadArtifact' | 'DownloadArtifact';

function signedUrl(cx: ServiceContext, endpoint: Endpoint, name: string, taskId: number, artifactId: number): string {
  const expires = Math.floor(Date.now() / 1000) + URL_LIFETIME_SECONDS;
  const sig = store.signArtifactUrl(cx.config.secretKey, [endpoint, expires, name, taskId, artifactId]);
  const q = new URLSearchParams({
    sig,
    expires: String(expires),
    artifactName: name,
    taskID: String(taskId),
    artifactID: String(artifactId),
  });
  return `${cx.config.rootUrl}${ARTIFACT_V4_BASE}/${endpoint}?${q.toString()}`;
}

/** The task and artifact of a signed URL. @throws UnauthenticatedError (bad or expired signature), NotFoundError */
async function verifySigned(
  cx: ServiceContext,
  endpoint: Endpoint,
  q: URLSearchParams,
): Promise<{ task: ArtifactTask; art: Models.ActionArtifact }> {
  const expires = Number(q.get('expires'));
  const name = q.get('artifactName') ?? '';
  const taskId = Number(q.get('taskID'));
  const artifactId = Number(q.get('artifactID'));
  if (!store.verifyArtifactUrl(cx.config.secretKey, q.get('sig') ?? '', [endpoint, q.get('expires') ?? '', name, taskId, artifactId])) {
    throw new UnauthenticatedError('Error unauthorized');
  }
  if (!Number.isSafeInteger(expires) || expires * 1000 < Date.now()) throw new UnauthenticatedError('Error link expired');
  const task = await taskById(cx, taskId);
  const art = await artifactByName(cx, task.runId, name);
  if (art.id !== artifactId) throw new NotFoundError('Error artifact not found');
  return { task, art };
}

/** CreateArtifact: a new (or reset) pending artifact of the run; answers the signed upload URL. */
export async function createArtifact(
  cx: ServiceContext,
  task: ArtifactTask,
  input: { backendRunId: string; name: string; expiresAt: Date | null },
): Promise<string> {
  checkRun(task, input.backendRunId);
  if (!input.name || /[\\/":<>|*?\r\n]/.test(input.name)) throw new InvalidArgumentError('Error invalid artifact name');
  const expiresAt = input.expiresAt ?? new Date(Date.now() + RETENTION_DAYS * DAY_MS);
  const data = {
    taskId: task.taskId,
    commitSha: task.commitSha,
    path: `${input.name}.zip`,
    size: 0n,
    compressedSize: 0n,
    status: 'UPLOAD_PENDING' as const,
    expiresAt,
  };
  const art = await cx.db.actionArtifact.upsert({
    where: { runId_name: { runId: task.runId, name: input.name } },
    create: { ...data, runId: task.runId, repoId: task.repoId, ownerId: task.ownerId, name: input.name },
    update: data,
  });
  await store.resetUpload(cx.config.dataDir, art.id);
  return signedUrl(cx, 'UploadArtifact', art.name, task.taskId, art.id);
}

/**
 * PUT on the signed upload URL, Azure-blob style: `comp=block` / `comp=appendBlock` (a block with `blockid`,
 * else the next chunk of one stream) and `comp=blocklist` (the order of the blocks). Answers Gitea's JSON string.
 */
export async function uploadArtifact(cx: ServiceContext, q: URLSearchParams, body: Readable): Promise<'appended' | 'created'> {
  const { art } = await verifySigned(cx, 'UploadArtifact', q);
  if (art.status !== 'UPLOAD_PENDING') throw new InvalidArgumentError('Error artifact is already finalized');
  const comp = q.get('comp');
  if (comp === 'block' || comp === 'appendBlock') {
    const blockId = q.get('blockid');
    if (blockId) await store.writeBlock(cx.config.dataDir, art.id, blockId, body);
    else await store.appendChunk(cx.config.dataDir, art.id, body);
    return 'appended';
  }
  if (comp === 'blocklist' || comp === 'blockList') {
    await store.writeBlockList(cx.config.dataDir, art.id, body);
    return 'created';
  }
  throw new InvalidArgumentError('Error unknown comp');
}

/** FinalizeArtifact: assembles the upload, checks size and hash, confirms the artifact; answers its id. */
export async function finalizeArtifact(
  cx: ServiceContext,
  task: ArtifactTask,
  input: { backendRunId: string; name: string; size: number | null; hash: string | null },
): Promise<number> {
  checkRun(task, input.backendRunId);
  const art = await artifactByName(cx, task.runId, input.name);
  if (art.status !== 'UPLOAD_PENDING') throw new InvalidArgumentError('Error artifact is already finalized');
  const storagePath = store.storagePathOf(task.runId, art.id);
  const size = await store.assembleArtifact(cx.config.dataDir, art.id, storagePath, { size: input.size, hash: input.hash });
  await cx.db.actionArtifact.update({
    where: { id: art.id },
    data: { status: 'UPLOAD_CONFIRMED', storagePath, size: BigInt(size), compressedSize: BigInt(size) },
  });
  return art.id;
}

/** ListArtifacts: the run's confirmed artifacts, optionally one name or id. */
export async function listRunArtifacts(
  cx: ServiceContext,
  task: ArtifactTask,
  input: { backendRunId: string; nameFilter: string | null; idFilter: number | null },
): Promise<Models.ActionArtifact[]> {
  checkRun(task, input.backendRunId);
  return cx.db.actionArtifact.findMany({
    where: {
      runId: task.runId,
      status: 'UPLOAD_CONFIRMED',
      ...(input.nameFilter === null ? {} : { name: input.nameFilter }),
      ...(input.idFilter === null ? {} : { id: input.idFilter }),
    },
    orderBy: { id: 'asc' },
  });
}

/** GetSignedArtifactURL: the signed download URL of a confirmed artifact of the run. */
export async function signedDownloadUrl(
  cx: ServiceContext,
  task: ArtifactTask,
  input: { backendRunId: string; name: string },
): Promise<string> {
  checkRun(task, input.backendRunId);
  const art = await artifactByName(cx, task.runId, input.name);
  if (art.status !== 'UPLOAD_CONFIRMED') throw new NotFoundError('Error artifact not found');
  return signedUrl(cx, 'DownloadArtifact', art.name, task.taskId, art.id);
}

/** GET on the signed download URL: the zip. */
export async function downloadArtifact(cx: ServiceContext, q: URLSearchParams): Promise<{ stream: Readable; size: number }> {
  const { art } = await verifySigned(cx, 'DownloadArtifact', q);
  if (art.status !== 'UPLOAD_CONFIRMED') throw new NotFoundError('Error artifact not found');
  return store.openArtifactFile(cx.config.dataDir, art.storagePath);
}

/** DeleteArtifact: removes the run's artifact of that name (row and files); answers its id. */
export async function deleteRunArtifact(
  cx: ServiceContext,
  task: ArtifactTask,
  input: { backendRunId: string; name: string },
): Promise<number> {
  checkRun(task, input.backendRunId);
  const art = await artifactByName(cx, task.runId, input.name);
  await removeArtifact(cx, art);
  return art.id;
}

/** Deletes an artifact's row, then its files. */
export async function removeArtifact(cx: ServiceContext, art: Pick<Models.ActionArtifact, 'id' | 'storagePath'>): Promise<void> {
  await cx.db.actionArtifact.deleteMany({ where: { id: art.id } });
  await store.removeArtifactFiles(cx.config.dataDir, art.id, art.storagePath);
}

/**
 * Gitea CleanupArtifacts (part of cleanup_actions): artifacts past their expiry lose their files and show as
 * expired; returns how many. Pending uploads past expiry go the same way.
 */
export async function expireArtifacts(cx: ServiceContext, now: Date, signal: AbortSignal): Promise<number> {
  let expired = 0;
  while (!signal.aborted) {
    const due = await cx.db.actionArtifact.findMany({
      where: { status: { in: ['UPLOAD_PENDING', 'UPLOAD_CONFIRMED'] }, expiresAt: { lt: now } },
      select: { id: true, storagePath: true },
      orderBy: { id: 'asc' },
      take: 100,
    });
    if (!due.length) break;
    await Promise.all(due.map((a) => store.removeArtifactFiles(cx.config.dataDir, a.id, a.storagePath)));
    await cx.db.actionArtifact.updateMany({ where: { id: { in: due.map((a) => a.id) } }, data: { status: 'EXPIRED', storagePath: '' } });
    expired += due.length;
  }
  return expired;
}
