// The artifact file store under <DATA_DIR>/actions_artifacts: uploaded blocks of a pending artifact in
// tmp/<artifactId>/, the finalized zip at <runId>/<artifactId>.zip (Gitea storage.ActionsArtifacts).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NotFoundError, InvalidArgumentError } from '../../errors.ts';

const root = (dataDir: string) => path.join(dataDir, 'actions_artifacts');
const tmpDir = (dataDir: string, artifactId: number) => path.join(root(dataDir), 'tmp', String(artifactId));
/** A block id becomes a file name: hex of its bytes (any string a client sends stays one path segment). */
const blockFile = (dataDir: string, artifactId: number, blockId: string) =>
  path.join(tmpDir(dataDir, artifactId), `block-${Buffer.from(blockId).toString('hex')}`);
const appendFile = (dataDir: string, artifactId: number) => path.join(tmpDir(dataDir, artifactId), 'append');
const blockListFile = (dataDir: string, artifactId: number) => path.join(tmpDir(dataDir, artifactId), 'blocklist');

/** The finalized zip's path relative to the store (kept in ActionArtifact.storagePath). */
export const storagePathOf = (runId: number, artifactId: number) => `${runId}/${artifactId}.zip`;

/** Drops what an earlier upload of this artifact left (a re-created artifact starts empty). */
export async function resetUpload(dataDir: string, artifactId: number): Promise<void> {
  await rm(tmpDir(dataDir, artifactId), { recursive: true, force: true });
}

/** Streams one block (`comp=block` with a block id) into its own file; returns its size. */
export async function writeBlock(dataDir: string, artifactId: number, blockId: string, body: Readable): Promise<number> {
  await mkdir(tmpDir(dataDir, artifactId), { recursive: true });
  const file = blockFile(dataDir, artifactId, blockId);
  await pipeline(body, createWriteStream(file, { mode: 0o600 }));
  return (await stat(file)).size;
}

/** Appends a chunk (`comp=block`/`appendBlock` without a block id) to the artifact's single upload file. */
export async function appendChunk(dataDir: string, artifactId: number, body: Readable): Promise<number> {
  await mkdir(tmpDir(dataDir, artifactId), { recursive: true });
  const file = appendFile(dataDir, artifactId);
  const before = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  await pipeline(body, createWriteStream(file, { flags: 'a', mode: 0o600 }));
  return (await stat(file)).size - before;
}

/** The ids of an Azure `<BlockList><Latest>…</Latest></BlockList>` document, in order. */
export function parseBlockList(xml: string): string[] {
  if (!/<BlockList[\s>]/.test(xml)) throw new InvalidArgumentError('Error decode block list');
  const ids: string[] = [];
  for (const m of xml.matchAll(/<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>/g)) ids.push(m[2]!.trim());
  return ids;
}

/** Keeps the block list (`comp=blocklist`) until FinalizeArtifact assembles the blocks in its order. */
export async function writeBlockList(dataDir: string, artifactId: number, body: Readable, maxBytes = 4 * 1024 * 1024): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new InvalidArgumentError('block list is too large');
    chunks.push(chunk);
  }
  const ids = parseBlockList(Buffer.concat(chunks).toString('utf8'));
  await mkdir(tmpDir(dataDir, artifactId), { recursive: true });
  await writeFile(blockListFile(dataDir, artifactId), JSON.stringify(ids));
}

/**
 * Assembles the upload into the artifact's zip: the blocks in block-list order when a list was sent, else the
 * appended chunks. Checks the size and (when given) the `sha256:<hex>` hash the client declares; returns the size.
 * @throws NotFoundError when nothing was uploaded, InvalidArgumentError on a size or hash mismatch
 */
export async function assembleArtifact(
  dataDir: string,
  artifactId: number,
  storagePath: string,
  expect: { size: number | null; hash: string | null },
): Promise<number> {
  const ids = await readFile(blockListFile(dataDir, artifactId), 'utf8').then(
    (s) => JSON.parse(s) as string[],
    () => null,
  );
  const parts = ids ? ids.map((id) => blockFile(dataDir, artifactId, id)) : [appendFile(dataDir, artifactId)];
  for (const part of parts) {
    if (!(await stat(part).catch(() => null))) throw new NotFoundError('Error merge chunks: an uploaded block is missing');
  }
  const target = path.join(root(dataDir), storagePath);
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const hash = createHash('sha256');
  let size = 0;
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    for (const part of parts) {
      for await (const chunk of createReadStream(part) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (expect.size !== null && expect.size !== size) {
      throw new InvalidArgumentError(`Error merge chunks: size is ${size}, the client declared ${expect.size}`);
    }
    const declared = expect.hash?.replace(/^sha256:/, '').toLowerCase();
    if (declared && declared !== hash.digest('hex')) throw new InvalidArgumentError('Error merge chunks: sha256 hash does not match');
    await rename(partial, target);
  } catch (err) {
    out.destroy();
    await rm(partial, { force: true });
    throw err;
  }
  await resetUpload(dataDir, artifactId);
  return size;
}

/** Opens a finalized zip. @throws NotFoundError when the file is gone */
export async function openArtifactFile(dataDir: string, storagePath: string): Promise<{ stream: ReadStream; size: number }> {
  const file = path.join(root(dataDir), storagePath);
  const s = await stat(file).catch(() => null);
  if (!s || !storagePath) throw new NotFoundError('artifact file does not exist');
  return { stream: createReadStream(file), size: s.size };
}

/** Removes an artifact's zip and any upload leftovers. */
export async function removeArtifactFiles(dataDir: string, artifactId: number, storagePath: string): Promise<void> {
  await resetUpload(dataDir, artifactId);
  if (storagePath) await rm(path.join(root(dataDir), storagePath), { force: true });
}

/** HMAC-SHA256 (key derived from SECRET_KEY) over the NUL-joined fields of a signed artifact URL. */
function signature(secretKey: string, fields: readonly (string | number)[]): Buffer {
  const key = createHmac('sha256', secretKey).update('forgegraph actions artifact url').digest();
  return createHmac('sha256', key).update(fields.join('\0')).digest();
}

/** The `sig` of a signed URL (base64url, no padding). */
export function signArtifactUrl(secretKey: string, fields: readonly (string | number)[]): string {
  return signature(secretKey, fields).toString('base64url');
}

/** Whether `sig` signs `fields`, in constant time. */
export function verifyArtifactUrl(secretKey: string, sig: string, fields: readonly (string | number)[]): boolean {
  const presented = Buffer.from(sig, 'base64url');
  const expected = signature(secretKey, fields);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** What the store holds: the run ids with finalized zips and the artifact ids with upload leftovers. */
export async function storedArtifactIds(dataDir: string): Promise<{ runIds: number[]; uploadIds: number[] }> {
  const numeric = async (dir: string) =>
    (await readdir(dir, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isDirectory() && /^\d+$/.test(e.name))
      .map((e) => Number(e.name));
  const [runIds, uploadIds] = await Promise.all([numeric(root(dataDir)), numeric(path.join(root(dataDir), 'tmp'))]);
  return { runIds, uploadIds };
}

/** Removes the finalized zips of a run. */
export async function removeRunFiles(dataDir: string, runId: number): Promise<void> {
  await rm(path.join(root(dataDir), String(runId)), { recursive: true, force: true });
}
