// The avatar image worker (prepare.ts starts one per image): decodes the image with jimp, crops it to a centred
// square, scales it down to at most `size` pixels and answers the PNG. Plain JavaScript, no loader, so the same
// file runs under tsx, vitest and the bundled server; a worker thread, because jimp decodes in pure JavaScript and
// a large JPEG takes seconds that the server's event loop must not spend.
import { parentPort, workerData } from 'node:worker_threads';
import { Jimp } from 'jimp';

/** @type {{ data: Uint8Array, size: number }} */
const { data, size } = workerData;

try {
  const image = await Jimp.fromBuffer(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const side = Math.min(image.width, image.height);
  if (image.width !== image.height) {
    image.crop({ x: Math.floor((image.width - side) / 2), y: Math.floor((image.height - side) / 2), w: side, h: side });
  }
  if (side > size) image.resize({ w: size, h: size });
  const png = await image.getBuffer('image/png');
  parentPort?.postMessage({ ok: true, png, width: image.width, height: image.height });
} catch (err) {
  parentPort?.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
}
