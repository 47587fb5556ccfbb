import { spawnService } from './spawnService.ts';

const cache = new Map<string, Promise<Buffer>>();

/**
 * The protocol-v2 capability advertisement of upload-pack (GET info/refs with `Git-Protocol: version=2`).
 * It lists no refs, only capabilities that depend on the git binary, the object format and the settings we
 * pass on the command line, so it is computed once per object format: a clone then spawns git twice, not
 * three times (each spawn forks the whole server process).
 */
export function uploadPackV2Capabilities(gitDir: string, objectFormat: string, hooksDir: string): Promise<Buffer> {
  let found = cache.get(objectFormat);
  if (!found) {
    found = new Promise<Buffer>((resolve, reject) => {
      const child = spawnService('upload-pack', gitDir, { mode: 'advertise', gitProtocol: 'version=2', hooksDir });
      const out: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`upload-pack --advertise-refs exited ${code}`)),
      );
      child.stdin.end();
    });
    found.catch(() => cache.delete(objectFormat));
    cache.set(objectFormat, found);
  }
  return found;
}
