import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sshFingerprint } from '../../src/auth/sshKey.ts';
import { readSshSignature, verifySshSignature } from '../../src/services/gpg/sshSignature.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'fg-sshsig-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A key made by the real ssh-keygen: its public line, fingerprint, and a signer (`ssh-keygen -Y sign`). */
function keygen(name: string, args: string[]) {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', ...args, '-N', '', '-C', name, '-f', file]);
  return {
    line: readFileSync(`${file}.pub`, 'utf8').trim(),
    fingerprint: execFileSync('ssh-keygen', ['-l', '-f', `${file}.pub`])
      .toString('utf8')
      .split(' ')[1],
    sign: (message: string, namespace: string) =>
      execFileSync('ssh-keygen', ['-Y', 'sign', '-n', namespace, '-f', file], {
        input: message,
        stdio: ['pipe', 'pipe', 'ignore'],
      }).toString('utf8'),
  };
}

const KEYS = {
  ed25519: keygen('ed25519', ['-t', 'ed25519']),
  rsa: keygen('rsa', ['-t', 'rsa', '-b', '3072']),
  'ecdsa p256': keygen('p256', ['-t', 'ecdsa', '-b', '256']),
  'ecdsa p384': keygen('p384', ['-t', 'ecdsa', '-b', '384']),
  'ecdsa p521': keygen('p521', ['-t', 'ecdsa', '-b', '521']),
};

const wire = (b: Buffer | string) => {
  const data = typeof b === 'string' ? Buffer.from(b) : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
};
const mpint = (b: Buffer) => wire(b[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
const sha = (alg: string, b: Buffer) => createHash(alg).update(b).digest();

/**
 * A FIDO (sk-) key's SSH signature as an authenticator makes it (PROTOCOL.u2f: it signs SHA-256 of the
 * application, flags, counter, SHA-256 of the data), made here with a software key: no authenticator is needed
 * to check one, and OpenSSH's ssh-keygen -Y verify says whether it is well made.
 */
function skSignature(kind: 'ed25519' | 'ecdsa', message: Buffer, namespace: string) {
  const application = 'ssh:';
  const pair = kind === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = pair.publicKey.export({ format: 'jwk' });
  const type = kind === 'ed25519' ? 'sk-ssh-ed25519@openssh.com' : 'sk-ecdsa-sha2-nistp256@openssh.com';
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const point = kind === 'ed25519' ? x : Buffer.concat([Buffer.from([4]), x, Buffer.from(jwk.y ?? '', 'base64url')]);
  const blob = Buffer.concat([wire(type), ...(kind === 'ecdsa' ? [wire('nistp256')] : []), wire(point), wire(application)]);
  const signedData = Buffer.concat([Buffer.from('SSHSIG'), wire(namespace), wire(''), wire('sha512'), wire(sha('sha512', message))]);
  const flagsCounter = Buffer.from([0x01, 0, 0, 0, 7]);
  const toSign = Buffer.concat([sha('sha256', Buffer.from(application)), flagsCounter, sha('sha256', signedData)]);
  let raw: Buffer;
  if (kind === 'ed25519') raw = sign(null, toSign, pair.privateKey);
  else {
    const rs = sign('sha256', toSign, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' });
    raw = Buffer.concat([mpint(rs.subarray(0, 32)), mpint(rs.subarray(32))]);
  }
  const sigBlob = Buffer.concat([wire(type), wire(raw), flagsCounter]);
  const body = Buffer.concat([
    Buffer.from('SSHSIG'),
    Buffer.from([0, 0, 0, 1]),
    wire(blob),
    wire(namespace),
    wire(''),
    wire('sha512'),
    wire(sigBlob),
  ]);
  const armored = [
    '-----BEGIN SSH SIGNATURE-----',
    ...(body.toString('base64').match(/.{1,70}/g) ?? []),
    '-----END SSH SIGNATURE-----',
    '',
  ].join('\n');
  return { line: `${type} ${blob.toString('base64')}`, armored };
}

/** Whether OpenSSH's ssh-keygen -Y verify accepts `armored` over `message` by `line`. */
function opensshAccepts(line: string, armored: string, message: Buffer, namespace: string): boolean {
  const signers = path.join(dir, 'allowed_signers');
  const sigFile = path.join(dir, 'message.sig');
  writeFileSync(signers, `signer@example.com ${line}\n`);
  writeFileSync(sigFile, armored);
  try {
    execFileSync('ssh-keygen', ['-Y', 'verify', '-f', signers, '-I', 'signer@example.com', '-n', namespace, '-s', sigFile], {
      input: message,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    return true;
  } catch {
    return false;
  }
}

/** SSHSIG envelopes (OpenSSH PROTOCOL.sshsig) made by the real ssh-keygen, checked as Gitea's 42wim/sshsig checks them. */
describe('SSH signatures', () => {
  it.each(Object.keys(KEYS) as (keyof typeof KEYS)[])(
    'verifies %s signatures, and only over the same message, key and namespace',
    (kind) => {
      const key = KEYS[kind];
      const other = kind === 'ed25519' ? KEYS.rsa : KEYS.ed25519;
      const sig = readSshSignature(key.sign('tree 1234\n\nmessage\n', 'git'));
      expect(sig).not.toBeNull();
      if (!sig) return;
      expect(sig.namespace).toBe('git');
      expect(sshFingerprint(sig.publicKey)).toBe(key.fingerprint);
      expect(verifySshSignature(sig, Buffer.from('tree 1234\n\nmessage\n'), key.line, 'git')).toBe(true);
      expect(verifySshSignature(sig, Buffer.from('tree 1234\n\nmessagE\n'), key.line, 'git')).toBe(false);
      expect(verifySshSignature(sig, Buffer.from('tree 1234\n\nmessage\n'), key.line, 'gitea')).toBe(false);
      expect(verifySshSignature(sig, Buffer.from('tree 1234\n\nmessage\n'), other.line, 'git')).toBe(false);
    },
  );

  it.each(['ed25519', 'ecdsa'] as const)('verifies FIDO sk-%s signatures OpenSSH accepts, and refuses tampered ones', (kind) => {
    const message = Buffer.from('object 1234\ntype commit\n');
    const { line, armored } = skSignature(kind, message, 'git');
    expect(opensshAccepts(line, armored, message, 'git')).toBe(true);
    const sig = readSshSignature(armored);
    expect(sig).not.toBeNull();
    if (!sig) return;
    expect(verifySshSignature(sig, message, line, 'git')).toBe(true);
    const other = Buffer.from('object 1235\ntype commit\n');
    expect(opensshAccepts(line, armored, other, 'git')).toBe(false);
    expect(verifySshSignature(sig, other, line, 'git')).toBe(false);
    const counterChanged = Buffer.from(sig.signature);
    counterChanged.writeUInt8(counterChanged.readUInt8(counterChanged.length - 1) ^ 1, counterChanged.length - 1);
    expect(verifySshSignature({ ...sig, signature: counterChanged }, message, line, 'git')).toBe(false);
  });

  it('reads nothing from malformed envelopes', () => {
    const good = KEYS.ed25519.sign('x', 'git');
    const body = good.split('\n').slice(1, -2).join('');
    const armor = (b64: string) => `-----BEGIN SSH SIGNATURE-----\n${b64}\n-----END SSH SIGNATURE-----\n`;
    const raw = Buffer.from(body, 'base64');
    expect(readSshSignature(good)).not.toBeNull();
    expect(readSshSignature('-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n')).toBeNull();
    expect(readSshSignature(armor('not base64 !'))).toBeNull();
    expect(readSshSignature(armor(raw.subarray(0, raw.length - 3).toString('base64')))).toBeNull();
    expect(readSshSignature(armor(Buffer.concat([raw, Buffer.from([0])]).toString('base64')))).toBeNull();
    const version2 = Buffer.from(raw);
    version2.writeUInt32BE(2, 6);
    expect(readSshSignature(armor(version2.toString('base64')))).toBeNull();
  });

  it('refuses a signature whose envelope names another key than the one it is checked with', () => {
    const sig = readSshSignature(KEYS.ed25519.sign('x', 'git'));
    expect(sig).not.toBeNull();
    if (!sig) return;
    const swapped = { ...sig, publicKey: Buffer.from(KEYS.rsa.line.split(' ')[1] ?? '', 'base64') };
    expect(verifySshSignature(swapped, Buffer.from('x'), KEYS.rsa.line, 'git')).toBe(false);
    expect(verifySshSignature(swapped, Buffer.from('x'), KEYS.ed25519.line, 'git')).toBe(false);
  });
});
