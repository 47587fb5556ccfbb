// Actions secrets at rest: AES-256-GCM under a key derived from SECRET_KEY (Gitea encrypts them with its
// SECRET_KEY too); `iv.tag.ciphertext`, base64url parts.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const keyFor = (secretKey: string): Buffer => createHmac('sha256', secretKey).update('forgegraph actions secret').digest();

/** The stored form of a secret's value. */
export function encryptSecret(secretKey: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secretKey), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
}

/** The value of a stored secret; null when it cannot be read (another SECRET_KEY, or altered). */
export function decryptSecret(secretKey: string, stored: string): string | null {
  const [iv, tag, body] = stored.split('.');
  if (iv === undefined || tag === undefined || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secretKey), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
