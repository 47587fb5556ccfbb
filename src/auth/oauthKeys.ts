import { createHmac } from 'node:crypto';
import {
  calculateJwkThumbprint,
  compactDecrypt,
  CompactEncrypt,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { Db, Models } from '../db/client.ts';
import { isUniqueViolation } from '../db/prismaErrors.ts';

/** Gitea's default `[oauth2] JWT_SIGNING_ALGORITHM`. */
export const SIGNING_ALGORITHM = 'RS256';

/** The key OAuth2 tokens and OpenID Connect ID tokens are signed with. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public key as /login/oauth/keys publishes it (`kid`, `alg`, `use` included). */
  publicJwk: JWK;
}

const ROW_ID = 1;

/**
 * The installation's signing key, kept in the database (table OAuth2SigningKey) so that every instance signs and
 * verifies with the same one: the first instance that needs it makes it (RSA 2048) and stores it, the private
 * half sealed with a key derived from SECRET_KEY; a concurrent maker loses the insert and reads the winner's.
 * Loaded once per process.
 */
export class OAuthKeys {
  #key: Promise<SigningKey> | null = null;

  constructor(
    private readonly db: Db,
    private readonly secretKey: string,
  ) {}

  /** The signing key (read or made on first use; a failed load is retried by the next call). */
  signingKey(): Promise<SigningKey> {
    this.#key ??= this.#remember(async () => this.#open((await this.#read()) ?? (await this.#create())));
    return this.#key;
  }

  /** The key to verify with, or null while none was made (then nothing was signed): verifying never makes one. */
  async verificationKey(): Promise<SigningKey | null> {
    if (this.#key) return this.#key;
    const row = await this.#read();
    if (!row) return null;
    this.#key ??= this.#remember(() => this.#open(row));
    return this.#key;
  }

  #remember(load: () => Promise<SigningKey>): Promise<SigningKey> {
    return load().catch((err: unknown) => {
      this.#key = null;
      throw err;
    });
  }

  #read(): Promise<Models.OAuth2SigningKey | null> {
    return this.db.oAuth2SigningKey.findUnique({ where: { id: ROW_ID } });
  }

  async #open(row: Models.OAuth2SigningKey): Promise<SigningKey> {
    const publicJwk = JSON.parse(row.publicJwk) as JWK;
    let pem: string;
    try {
      pem = new TextDecoder().decode((await compactDecrypt(row.privateKey, this.#sealingKey())).plaintext);
    } catch {
      throw new Error('the OAuth2 signing key cannot be opened with this SECRET_KEY (it was sealed under another one)');
    }
    return {
      kid: row.kid,
      privateKey: await importPKCS8(pem, SIGNING_ALGORITHM),
      publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey,
      publicJwk,
    };
  }

  async #create(): Promise<Models.OAuth2SigningKey> {
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const sealed = await new CompactEncrypt(new TextEncoder().encode(await exportPKCS8(privateKey)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(this.#sealingKey());
    const data = {
      id: ROW_ID,
      kid,
      algorithm: SIGNING_ALGORITHM,
      privateKey: sealed,
      publicJwk: JSON.stringify({ ...jwk, kid, alg: SIGNING_ALGORITHM, use: 'sig' }),
    };
    try {
      return await this.db.oAuth2SigningKey.create({ data });
    } catch (err) {
      if (isUniqueViolation(err)) return this.db.oAuth2SigningKey.findUniqueOrThrow({ where: { id: ROW_ID } });
      throw err;
    }
  }

  #sealingKey(): Uint8Array {
    return createHmac('sha256', this.secretKey).update('forgegraph oauth2 signing key').digest();
  }
}
