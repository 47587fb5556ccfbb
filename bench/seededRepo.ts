// What the benches that seed many rows in SQL share: a scratch database (SQLite or PostgreSQL) migrated, the app
// over it, the bench user and one repository of theirs; and a series of integers in each dialect's SQL.
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Models } from '../src/db/client.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { createBenchUser } from './benchUser.ts';
import { scratchDatabase, type Provider } from './scratchDb.ts';

export interface SeededRepo {
  app: App;
  owner: Models.User;
  repo: Models.Repository;
  /** `SELECT i` for i from `from` to `to` (inclusive), in the provider's SQL. */
  series(from: number, to: number): string;
  /** The current time as a column value, in the provider's SQL. */
  now: string;
}

/** Runs `fn` with the app on a fresh scratch database holding the bench user's repository `r`, then drops it all. */
export async function withSeededRepo(provider: Provider, label: string, fn: (s: SeededRepo) => Promise<void>): Promise<void> {
  const database = await scratchDatabase(provider, label);
  await deployMigrations({ provider, url: database.url });
  const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config, {});
  try {
    const owner = await createBenchUser(app);
    const repo = await app.deps.db.repository.create({ data: { ownerId: owner.id, ownerName: owner.name, name: 'r', lowerName: 'r' } });
    await fn({
      app,
      owner,
      repo,
      series: (from, to) =>
        provider === 'sqlite'
          ? `WITH RECURSIVE s(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM s WHERE i < ${to}) SELECT i FROM s`
          : `SELECT generate_series(${from}, ${to}) AS i`,
      now: provider === 'sqlite' ? 'CURRENT_TIMESTAMP' : 'now()',
    });
  } finally {
    await app.close();
    await database.drop();
  }
}
