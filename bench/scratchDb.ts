// A throw-away database for a bench run: a SQLite file in a temporary directory, or a PostgreSQL database
// created on BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres) and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type Provider = 'sqlite' | 'postgresql';

const PROVIDERS: readonly Provider[] = ['sqlite', 'postgresql'];

/**
 * The databases a bench's argument names: `sqlite`, `postgresql`, `both`, or a comma-separated list; `fallback`
 * when it is absent. Anything else ends the bench with a message naming what is accepted.
 */
export function providersArg(value: string | undefined, fallback: string): Provider[] {
  const names = (value ?? fallback) === 'both' ? [...PROVIDERS] : (value ?? fallback).split(',');
  for (const name of names) {
    if (!PROVIDERS.includes(name as Provider)) {
      console.error(`unknown database "${name}": give sqlite, postgresql, both, or a comma-separated list`);
      process.exit(2);
    }
  }
  return names as Provider[];
}

/** The one database a bench's argument names (`sqlite` or `postgresql`); `fallback` when it is absent. */
export function providerArg(value: string | undefined, fallback: Provider): Provider {
  const [provider, ...more] = providersArg(value, fallback);
  if (more.length) {
    console.error('this bench runs on one database at a time: give sqlite or postgresql');
    process.exit(2);
  }
  return provider as Provider;
}

export const PG_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

export async function scratchDatabase(provider: Provider, label = 'hot'): Promise<ScratchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `fg-bench-${label}-${provider}-`));
  if (provider === 'sqlite') {
    return {
      url: `file:${path.join(dataDir, 'forgegraph.db')}`,
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `fg_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
