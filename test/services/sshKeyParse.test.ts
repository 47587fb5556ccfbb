import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePublicKey } from '../../src/services/user/sshKey.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'fg-sshkey-parse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wire = (b: Buffer | string) => {
  const data = typeof b === 'string' ? Buffer.from(b) : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
};

/** The fields of a FIDO (sk-) public key blob, made from a software key (no authenticator is needed to read one). */
function skFields(kind: 'ed25519' | 'ecdsa'): Buffer[] {
  const pair = kind === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = pair.publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  if (kind === 'ed25519') return [wire('sk-ssh-ed25519@openssh.com'), wire(x), wire('ssh:')];
  const point = Buffer.concat([Buffer.from([4]), x, Buffer.from(jwk.y ?? '', 'base64url')]);
  return [wire('sk-ecdsa-sha2-nistp256@openssh.com'), wire('nistp256'), wire(point), wire('ssh:')];
}

const line = (blob: Buffer, type = blob.subarray(4, 4 + blob.readUInt32BE(0)).toString()) => `${type} ${blob.toString('base64')} me@host`;

describe('parsePublicKey: FIDO security keys, read field by field', () => {
  it.each(['ed25519', 'ecdsa'] as const)('accepts an sk-%s key with the fingerprint ssh-keygen prints', (kind) => {
    const text = line(Buffer.concat(skFields(kind)));
    const file = path.join(dir, `${kind}.pub`);
    writeFileSync(file, `${text}\n`);
    const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', file]).toString('utf8').split(' ')[1];
    const key = parsePublicKey(text);
    expect(key.algorithm).toBe(`${kind}-sk`);
    expect(key.fingerprint).toBe(fingerprint);
    expect(key.content).toBe(text);
  });

  it('refuses a truncated key with Go ssh\'s "short read"', () => {
    const blob = Buffer.concat(skFields('ecdsa'));
    expect(() => parsePublicKey(line(blob.subarray(0, blob.length - 2), 'sk-ecdsa-sha2-nistp256@openssh.com'))).toThrow(
      'Invalid key content: invalid ssh public key: ssh: short read',
    );
  });

  it('refuses trailing bytes, a wrong application and a short ed25519 point', () => {
    const [type, point, app] = skFields('ed25519') as [Buffer, Buffer, Buffer];
    expect(() => parsePublicKey(line(Buffer.concat([type, point, app, Buffer.from([0])])))).toThrow(/trailing junk in public key/);
    expect(() => parsePublicKey(line(Buffer.concat([type, point, wire('web:')])))).toThrow(/trailing junk in public key/);
    expect(() => parsePublicKey(line(Buffer.concat([type, wire(point.subarray(5)), app])))).toThrow(/invalid size for Ed25519 key/);
  });

  it('refuses a blob whose embedded type is cut short, and one whose type differs from the label', () => {
    const blob = Buffer.concat(skFields('ed25519'));
    const cut = Buffer.concat([Buffer.from([0, 0, 0, 200]), Buffer.from('sk-ssh')]);
    expect(() => parsePublicKey(`sk-ssh-ed25519@openssh.com ${cut.toString('base64')}`)).toThrow(/ssh: short read/);
    expect(() => parsePublicKey(line(blob, 'ssh-ed25519'))).toThrow(/key type and content does not match/);
  });
});
