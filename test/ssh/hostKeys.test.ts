// Host key generation: ssh2's ed25519 generator writes about one key in 256 malformed (it strips the leading zero
// bytes of the public key), and a server whose first start drew such a key could not start again on its data
// directory. Seen in the suite as "SSH host key … cannot be read: Malformed OpenSSH private key".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import { generateHostKey, loadHostKeys } from '../../src/ssh/hostKeys.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fg-hostkeys-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An ed25519 private key from ssh2's own generator that ssh2 cannot read back (found within a few hundred tries). */
function malformedKey(): string {
  for (let i = 0; i < 10_000; i++) {
    const { private: key } = ssh2.utils.generateKeyPairSync('ed25519');
    if (ssh2.utils.parseKey(key) instanceof Error) return key;
  }
  throw new Error('ssh2 generated 10,000 readable ed25519 keys: its generator was fixed, and generateHostKey can say so');
}

describe('SSH host key generation', () => {
  it('ssh2 alone writes unreadable ed25519 keys, which OpenSSH refuses too', () => {
    const key = malformedKey();
    expect(String(ssh2.utils.parseKey(key))).toMatch(/Malformed OpenSSH/);
    const file = path.join(tempDir(), 'key');
    writeFileSync(file, key, { mode: 0o600 });
    expect(() => execFileSync('ssh-keygen', ['-y', '-f', file], { stdio: 'pipe' })).toThrow();
  });

  it('generateHostKey gives only keys that ssh2 and OpenSSH read (2,000 ed25519 keys)', async () => {
    const keys = await Promise.all(Array.from({ length: 2_000 }, () => generateHostKey('ed25519')));
    expect(keys.filter((k) => ssh2.utils.parseKey(k) instanceof Error)).toEqual([]);
    const file = path.join(tempDir(), 'key');
    writeFileSync(file, keys[0]!, { mode: 0o600 });
    expect(execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' })).toMatch(/^ssh-ed25519 /);
  });

  it('a host key file that cannot be read stops the start with its path and what to do', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'ssh_host_ed25519_key'), malformedKey(), { mode: 0o600 });
    await expect(loadHostKeys(dir)).rejects.toThrow(
      `SSH host key ${path.join(dir, 'ssh_host_ed25519_key')} cannot be read: Malformed OpenSSH private key (remove it and its .pub file, and a new key is generated at the next start)`,
    );
  });
});
