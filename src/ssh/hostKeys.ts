// The SSH server's host keys (ed25519 and RSA), in OpenSSH's formats under <DATA_DIR>/ssh: generated on the first
// start and read on every later one, so clients' known_hosts entries stay valid across restarts and instances.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ssh2 from 'ssh2';
import { sshFingerprint } from '../auth/sshKey.ts';

/** One host key. */
export interface HostKey {
  /** The private key file's content (OpenSSH format). */
  privateKey: string;
  /** `type base64`, as in known_hosts. */
  publicKey: string;
  /** `SHA256:…`, as ssh prints it. */
  fingerprint: string;
}

/** A key pair from ssh2's generator, off the event loop (RSA takes a while). */
function generateOnce(type: 'ed25519' | 'rsa'): Promise<{ private: string }> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, pair: { private: string }) => (err ? reject(err) : resolve(pair));
    if (type === 'rsa') ssh2.utils.generateKeyPair('rsa', { bits: 3072 }, done);
    else ssh2.utils.generateKeyPair('ed25519', done);
  });
}

/** How many times a key unreadable by ssh2 is generated again (one in 256 of its ed25519 keys is). */
const GENERATE_ATTEMPTS = 8;

/**
 * A new private key (OpenSSH format) that ssh2 reads back. ssh2's ed25519 generator strips the leading zero bytes
 * of the public key, so about one key in 256 (those whose public key starts with 0x00) is written malformed and
 * cannot be parsed, by ssh2 or OpenSSH (mscdex/ssh2#1390, #1513): the server would not start on that data
 * directory. Such a key is generated again.
 */
export async function generateHostKey(type: 'ed25519' | 'rsa'): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const pair = await generateOnce(type);
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error) || attempt === GENERATE_ATTEMPTS) return pair.private;
  }
}

const KEYS = [
  { file: 'ssh_host_ed25519_key', type: 'ed25519' },
  { file: 'ssh_host_rsa_key', type: 'rsa' },
] as const;

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The private key in `file`, generating it when missing: the new key is written whole under a temporary name
 * and linked into place, so of several instances starting at once on one data directory, all use the key that
 * was linked first.
 */
async function privateKeyFile(file: string, type: 'ed25519' | 'rsa'): Promise<string> {
  const existing = await readIfExists(file);
  if (existing !== null) return existing;
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, await generateHostKey(type), { mode: 0o600 });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await rm(tmp, { force: true });
  }
  return readFile(file, 'utf8');
}

/** Reads (or first generates) the host keys in `dir`, and writes each public key beside its private key (`.pub`). */
export async function loadHostKeys(dir: string): Promise<HostKey[]> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const keys: HostKey[] = [];
  for (const { file, type } of KEYS) {
    const full = path.join(dir, file);
    const privateKey = await privateKeyFile(full, type);
    const parsed = ssh2.utils.parseKey(privateKey);
    if (parsed instanceof Error) {
      throw new Error(
        `SSH host key ${full} cannot be read: ${parsed.message} (remove it and its .pub file, and a new key is generated at the next start)`,
      );
    }
    const blob = parsed.getPublicSSH();
    const publicKey = `${parsed.type} ${blob.toString('base64')}`;
    if ((await readIfExists(`${full}.pub`))?.trim() !== publicKey) {
      const tmp = `${full}.pub.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, `${publicKey}\n`, { mode: 0o644 });
      await rename(tmp, `${full}.pub`);
    }
    keys.push({ privateKey, publicKey, fingerprint: sshFingerprint(blob) });
  }
  return keys;
}
