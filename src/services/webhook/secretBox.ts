// Webhook authorization headers at rest: AES-256-GCM under a key derived from SECRET_KEY.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

function keyOf(secretKey: string): Buffer {
  return createHash('sha256').update(`forgegraph webhook authorization header\0${secretKey}`).digest();
}

/** Encrypts `plain` ("" stays ""): `v1:<iv>:<tag>:<ciphertext>`, base64url parts. */
export function sealSecret(secretKey: string, plain: string): string {
  if (!plain) return '';
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

/** Decrypts a sealed value; throws when it was sealed under another key or altered. */
export function openSecret(secretKey: string, sealed: string): string {
  if (!sealed) return '';
  const [version, iv, tag, data] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secretKey), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
