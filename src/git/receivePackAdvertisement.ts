import { existsSync } from 'node:fs';
import path from 'node:path';
import { pktLine } from './pktLine.ts';
import { readAllRefs } from './readRefs.ts';
import { spawnService } from './spawnService.ts';

/** Repositories with more loose refs than this are advertised by git itself. */
const MAX_LOOSE_REFS = 256;

/** receive-pack's capability list by object format, learned from git's own advertisement. */
const learned = new Map<string, Promise<string | null>>();

/** The capabilities after the NUL of the first line of receive-pack's advertisement of `gitDir`, or null. */
function capabilitiesOf(gitDir: string, hooksDir: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawnService('receive-pack', gitDir, { mode: 'advertise', hooksDir });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      const text = Buffer.concat(out).toString('utf8');
      const nul = text.indexOf('\0');
      const end = text.indexOf('\n', nul);
      resolve(code === 0 && nul > 0 && end > nul ? text.slice(nul + 1, end) : null);
    });
    child.stdin.end();
  });
}

/**
 * receive-pack's ref advertisement (smart HTTP's GET info/refs?service=git-receive-pack, after its service
 * announcement, pktLine.ts) built in process, as upload-pack v2's capabilities are (v2Capabilities.ts): a push then starts one git
 * process fewer. The capability list depends only on the git binary, the object format and the settings the
 * server passes, so it is learned once from git's own advertisement; the refs are read from the files backend,
 * sorted by name. Null where git's advertisement could differ, for git to make: a nonce in the capabilities
 * (push certificates), alternates (git adds `.have` lines), or refs readAllRefs cannot read.
 */
export async function receivePackAdvertisement(gitDir: string, objectFormat: string, hooksDir: string): Promise<Buffer | null> {
  let caps = learned.get(objectFormat);
  if (!caps) {
    caps = capabilitiesOf(gitDir, hooksDir).then((c) => (c !== null && !/\bpush-cert=/.test(c) ? c : null));
    learned.set(objectFormat, caps);
  }
  const capabilities = await caps;
  if (capabilities === null) return null;
  if (existsSync(path.join(gitDir, 'objects', 'info', 'alternates'))) return null;
  const refs = await readAllRefs(gitDir, MAX_LOOSE_REFS);
  if (!refs) return null;
  const zero = '0'.repeat(objectFormat === 'sha256' ? 64 : 40);
  const lines = refs.length
    ? refs.map((r, i) => pktLine(i === 0 ? `${r.sha} ${r.ref}\0${capabilities}\n` : `${r.sha} ${r.ref}\n`))
    : [pktLine(`${zero} capabilities^{}\0${capabilities}\n`)];
  return Buffer.concat([...lines, Buffer.from('0000')]);
}
