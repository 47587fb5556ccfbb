// What checking one commit signature costs before the per-commit cache (services/gpg/signatureCache.ts) holds
// it: an SSH signature made by the real ssh-keygen (ed25519, RSA 3072, ECDSA P-256) through the SSHSIG reader
// and node:crypto, and an OpenPGP ed25519 detached signature through OpenPGP.js, each verified `runs` times.
// Usage: npx tsx bench/signatures.ts [runs=2000]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as openpgp from 'openpgp';
import { readDetachedSignature, verifyDetached } from '../src/services/gpg/openpgpKey.ts';
import { readSshSignature, verifySshSignature } from '../src/services/gpg/sshSignature.ts';

const runs = Number(process.argv[2] ?? 2000);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-sig-'));
const payload = Buffer.from(`tree ${'a'.repeat(40)}\nauthor A <a@example.com> 1700000000 +0000\n\nmessage\n`);

async function time(label: string, verify: () => boolean | Promise<boolean>): Promise<void> {
  if (!(await verify())) throw new Error(`${label}: the signature does not verify`);
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) await verify();
  const us = Number(process.hrtime.bigint() - start) / 1000 / runs;
  console.log(`${label.padEnd(28)} ${us.toFixed(1).padStart(8)} µs per verification`);
}

async function main(): Promise<void> {
  console.log(`${runs} verifications each (uncached; the cache answers repeats of a commit and key)`);
  for (const [label, args] of [
    ['SSH ed25519', ['-t', 'ed25519']],
    ['SSH RSA 3072 (rsa-sha2-512)', ['-t', 'rsa', '-b', '3072']],
    ['SSH ECDSA P-256', ['-t', 'ecdsa', '-b', '256']],
  ] as const) {
    const file = path.join(tmp, label.replace(/\W+/g, '_'));
    execFileSync('ssh-keygen', ['-q', ...args, '-N', '', '-f', file]);
    const line = readFileSync(`${file}.pub`, 'utf8');
    const armored = execFileSync('ssh-keygen', ['-Y', 'sign', '-n', 'git', '-f', file], {
      input: payload,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const sig = readSshSignature(armored.toString('utf8'));
    if (!sig) throw new Error(`${label}: unreadable signature`);
    await time(label, () => verifySshSignature(sig, payload, line, 'git'));
  }
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'ed25519Legacy',
    userIDs: [{ email: 'a@example.com' }],
  });
  const message = await openpgp.createMessage({ binary: payload });
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: privateKey });
  const detached = await openpgp.sign({ message, signingKeys, detached: true });
  const sig = await readDetachedSignature(detached);
  const key = await openpgp.readKey({ armoredKey: publicKey });
  if (!sig) throw new Error('OpenPGP: unreadable signature');
  await time('OpenPGP ed25519 (OpenPGP.js)', async () => (await verifyDetached(key, payload, sig)) !== null);
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(tmp, { recursive: true, force: true }));
