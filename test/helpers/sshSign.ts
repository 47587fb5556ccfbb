// An ed25519 SSH key pair made in-process and SSH signatures (OpenSSH PROTOCOL.sshsig) made with it, for tests
// that need a signature without running ssh-keygen (the signing tests themselves use the real ssh-keygen).
import { createHash, generateKeyPairSync, sign } from 'node:crypto';

const wire = (b: Buffer | string) => {
  const data = typeof b === 'string' ? Buffer.from(b) : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
};

/** A fresh key: its OpenSSH public key line and a signer of messages in a namespace (armored SSHSIG). */
export function sshKeyPair(comment: string): { line: string; sign: (message: string, namespace: string) => string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const blob = Buffer.concat([wire('ssh-ed25519'), wire(der.subarray(der.length - 32))]);
  return {
    line: `ssh-ed25519 ${blob.toString('base64')} ${comment}`,
    sign: (message, namespace) => {
      const digest = createHash('sha512').update(message).digest();
      const signed = Buffer.concat([Buffer.from('SSHSIG'), wire(namespace), wire(''), wire('sha512'), wire(digest)]);
      const sig = Buffer.concat([wire('ssh-ed25519'), wire(sign(null, signed, privateKey))]);
      const version = Buffer.from([0, 0, 0, 1]);
      const body = Buffer.concat([Buffer.from('SSHSIG'), version, wire(blob), wire(namespace), wire(''), wire('sha512'), wire(sig)]);
      const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
      return ['-----BEGIN SSH SIGNATURE-----', ...lines, '-----END SSH SIGNATURE-----', ''].join('\n');
    },
  };
}
