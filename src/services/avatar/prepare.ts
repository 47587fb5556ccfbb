// Turns an uploaded avatar (base64 text) into the PNG that is stored: Gitea's limits first, from the base64
// length and the image header alone, then decoding, cropping and scaling in a worker thread.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AvatarSettings } from '../../config.ts';
import { InvalidArgumentError, ValidationError } from '../../errors.ts';
import { ROOT } from '../../paths.ts';
import { readImageHeader } from './imageHeader.ts';

const WORKER_SCRIPT = path.join(ROOT, 'src/services/avatar/resizeWorker.js');
/** A worker that has not answered by then is stopped (a pathological image must not hold a thread forever). */
const WORKER_TIMEOUT_MS = 120_000;
const BASE64 = /^[A-Za-z0-9+/]*$/;

/** A processed avatar: the PNG bytes and their edge in pixels. */
export interface PreparedAvatar {
  png: Buffer;
  size: number;
}

/**
 * Decodes standard base64 as Go's base64.StdEncoding does (padding required, line breaks ignored), with the
 * size limit checked on the length before anything is decoded.
 * @throws InvalidArgumentError for malformed base64 (Gitea: 400); ValidationError over the size limit
 */
export function decodeBase64Image(text: string, settings: AvatarSettings): Buffer {
  const clean = text.replace(/[\r\n]/g, '');
  const body = clean.replace(/={1,2}$/, '');
  if (!BASE64.test(body) || clean.length % 4 !== 0) {
    const bad = [...body].findIndex((c) => !/[A-Za-z0-9+/]/.test(c));
    throw new InvalidArgumentError(`illegal base64 data at input byte ${bad >= 0 ? bad : body.length}`);
  }
  const bytes = Math.floor((body.length * 3) / 4);
  if (bytes > settings.maxFileSize) {
    throw new ValidationError(
      `The uploaded file size (${Math.ceil(bytes / 1024)} KiB) exceeds the maximum size (${Math.floor(settings.maxFileSize / 1024)} KiB).`,
      { size: bytes, limit: settings.maxFileSize },
    );
  }
  return Buffer.from(body, 'base64');
}

/**
 * Checks an image against Gitea's avatar rules (known type, dimensions within AVATAR_MAX_WIDTH/HEIGHT) from its
 * header, then decodes it, crops it to a centred square and scales it down to the rendered size, as a PNG.
 * WebP passes Gitea's type check but jimp cannot decode it, so it is refused as an unsupported type.
 * @throws ValidationError (Gitea's messages) for anything that is not an acceptable image
 */
export async function prepareAvatar(data: Buffer, settings: AvatarSettings): Promise<PreparedAvatar> {
  const header = readImageHeader(data);
  if (!header) throw new ValidationError('image.DecodeConfig: image: unknown format');
  if (header.type === 'webp') throw new ValidationError('unsupported avatar image type', { type: header.type });
  if (header.width > settings.maxWidth) throw new ValidationError(`image width is too large: ${header.width} > ${settings.maxWidth}`);
  if (header.height > settings.maxHeight) throw new ValidationError(`image height is too large: ${header.height} > ${settings.maxHeight}`);
  if (header.width === 0 || header.height === 0) throw new ValidationError('image.Decode: image has no pixels');
  return runWorker(data, settings.renderedSize);
}

type WorkerAnswer = { ok: true; png: Uint8Array; width: number } | { ok: false; message: string };

/** Images are processed one at a time: each decode may hold up to 64 MiB of pixels. */
let queue: Promise<unknown> = Promise.resolve();

function runWorker(data: Buffer, size: number): Promise<PreparedAvatar> {
  const run = queue.then(() => processInWorker(data, size));
  queue = run.catch(() => undefined);
  return run;
}

function processInWorker(data: Buffer, size: number): Promise<PreparedAvatar> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SCRIPT, { workerData: { data, size } });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new ValidationError('image.Decode: the image took too long to decode'))),
      WORKER_TIMEOUT_MS,
    );
    worker.once('message', (answer: WorkerAnswer) =>
      finish(() =>
        answer.ok
          ? resolve({ png: Buffer.from(answer.png), size: answer.width })
          : reject(new ValidationError(`image.Decode: ${answer.message}`)),
      ),
    );
    worker.once('error', (err) => finish(() => reject(err)));
    worker.once('exit', (code) => finish(() => reject(new Error(`the avatar worker exited with code ${code} before answering`))));
  });
}
