// Packages that only some configurations use (PostgreSQL's driver, Redis' client) or only a few requests (the SPDX
// license texts) are loaded at their first use, not with the modules that name them: `forgegraph serve` on SQLite
// without Redis spent ~0.25 s of its start importing them, and kept the 5 MB of license texts resident
// (bench/coldStart.ts). Synchronous (require), so what constructors build stays synchronous (CommonJS packages, JSON).
import { createRequire } from 'node:module';
import type pg from 'pg';
import type IORedis from 'ioredis';
import type SpdxFull from 'spdx-license-list/full.js';

const require = createRequire(import.meta.url);

/** A getter of the package `name`, which loads it at the first call. */
function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}

/** PostgreSQL's driver: a SQLite server never loads it. */
export const pgModule = lazyPackage<typeof pg>('pg');

/** Redis' client: loaded only when REDIS_URL is set. */
export const ioredisModule = lazyPackage<typeof IORedis>('ioredis');

/** The SPDX licenses with their texts (5 MB of JSON): loaded by the requests that need them. */
export const spdxLicenses = lazyPackage<typeof SpdxFull>('spdx-license-list/full.js');
