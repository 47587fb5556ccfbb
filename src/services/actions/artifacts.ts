// A repository's artifacts on the REST API (Gitea routers/api/v1/repo/action.go GetArtifacts…DownloadArtifactRaw):
// read with the Actions unit, delete with write access to it; the zip through a signed, expiring raw URL.
import type { Readable } from 'node:stream';
import type { Models } from '../../db/client.ts';
import { NotFoundError, UnauthenticatedError } from '../../errors.ts';
import { findRepoByName, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { openArtifactFile, signArtifactUrl, verifyArtifactUrl } from './artifactStore.ts';
import { removeArtifact } from './artifactsV4.ts';
import { requireActionsRead, requireActionsWrite } from './repoActions.ts';

/** What the API shows: finalized artifacts, expired ones included (Gitea FinalizedArtifactsV4). */
const FINALIZED = { status: { in: ['UPLOAD_CONFIRMED', 'EXPIRED'] as Models.ActionArtifactStatus[] } };
const RAW_URL_LIFETIME_SECONDS = 60 * 60;

export async function listArtifacts(
  cx: ServiceContext,
  ref: RepoRef,
  filter: { runId: number | null; name: string },
  page: ListOptions,
): Promise<Page<Models.ActionArtifact> & { repo: Models.Repository }> {
  const { repo } = await requireActionsRead(cx, ref);
  const where = {
    repoId: repo.id,
    ...FINALIZED,
    ...(filter.runId === null ? {} : { runId: filter.runId }),
    ...(filter.name ? { name: filter.name } : {}),
  };
  const [items, total] = await Promise.all([
    cx.db.actionArtifact.findMany({ where, orderBy: { id: 'asc' }, ...skipTake(page) }),
    cx.db.actionArtifact.count({ where }),
  ]);
  return { items, total, repo };
}

async function finalizedArtifact(cx: ServiceContext, repoId: number, id: number): Promise<Models.ActionArtifact> {
  const art = await cx.db.actionArtifact.findFirst({ where: { id, repoId, ...FINALIZED } });
  if (!art) throw new NotFoundError('artifact not found');
  return art;
}

export async function getArtifact(
  cx: ServiceContext,
  ref: RepoRef,
  id: number,
): Promise<{ art: Models.ActionArtifact; repo: Models.Repository }> {
  const { repo } = await requireActionsRead(cx, ref);
  return { art: await finalizedArtifact(cx, repo.id, id), repo };
}

export async function deleteArtifact(cx: ServiceContext, ref: RepoRef, id: number): Promise<void> {
  const { repo } = await requireActionsWrite(cx, ref);
  await removeArtifact(cx, await finalizedArtifact(cx, repo.id, id));
}

const rawEndpoint = (owner: string, name: string, id: number) =>
  `api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/actions/artifacts/${id}/zip/raw`;

/** GET …/artifacts/{id}/zip: the signed raw URL Gitea redirects to (302). @throws NotFoundError when expired */
export async function artifactDownloadUrl(cx: ServiceContext, ref: RepoRef, id: number): Promise<string> {
  const { art, repo } = await getArtifact(cx, ref, id);
  if (art.status === 'EXPIRED') throw new NotFoundError('Artifact has expired');
  const endpoint = rawEndpoint(repo.ownerName, repo.name, art.id);
  const expires = Math.floor(Date.now() / 1000) + RAW_URL_LIFETIME_SECONDS;
  const sig = signArtifactUrl(cx.config.secretKey, ['api', endpoint, expires, art.id]);
  return `${cx.config.rootUrl}${endpoint}?sig=${sig}&expires=${expires}`;
}

/**
 * GET …/artifacts/{id}/zip/raw: the zip for whoever holds a valid signed URL (no other credential; a wrong
 * signature is 404 as in Gitea, an expired one 401).
 */
export async function downloadArtifactRaw(
  cx: ServiceContext,
  ref: RepoRef,
  id: number,
  q: { sig: string; expires: string },
): Promise<{ stream: Readable; size: number; name: string }> {
  const endpoint = rawEndpoint(ref.owner, ref.repo, id);
  if (!verifyArtifactUrl(cx.config.secretKey, q.sig, ['api', endpoint, q.expires, id])) throw new NotFoundError('artifact not found');
  if (!/^\d+$/.test(q.expires) || Number(q.expires) * 1000 < Date.now()) throw new UnauthenticatedError('Error link expired');
  const repo = await findRepoByName(cx.db, ref.owner, ref.repo);
  if (!repo) throw new NotFoundError('repository does not exist');
  const art = await finalizedArtifact(cx, repo.id, id);
  if (art.status === 'EXPIRED') throw new NotFoundError('Artifact has expired');
  return { ...(await openArtifactFile(cx.config.dataDir, art.storagePath)), name: art.name };
}
