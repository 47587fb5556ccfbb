/**
 * Offline migrations through the WebAssembly schema engine (the Prisma CLI's native engine cannot
 * be downloaded here).
 *
 *   tsx prisma/scripts/migrate.ts create <name> [--schema-dir DIR]   both providers; run `npm run generate` first
 *   tsx prisma/scripts/migrate.ts status [--migrations-dir DIR]      for DATABASE_URL
 *   tsx prisma/scripts/migrate.ts deploy [--migrations-dir DIR]      for DATABASE_URL
 *
 * DATABASE_URL defaults to file:<DATA_DIR or ./data>/forgegraph.db; a postgresql:// URL selects
 * PostgreSQL. `create` needs a PostgreSQL server with CREATEDB for the shadow database:
 * MIGRATE_PG_URL, default postgresql://postgres@127.0.0.1:5432/postgres.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createMigration } from '../../src/db/migrate/createMigration.ts';
import { providerOfUrl, type MigrationTarget } from '../../src/db/migrate/dbProvider.ts';
import { deployMigrations } from '../../src/db/migrate/deployMigrations.ts';
import { MigrationError } from '../../src/db/migrate/MigrationError.ts';
import { migrationStatus } from '../../src/db/migrate/migrationStatus.ts';

const USAGE = 'usage: migrate.ts create <name> [--schema-dir DIR] | status [--migrations-dir DIR] | deploy [--migrations-dir DIR]';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'schema-dir': { type: 'string' }, 'migrations-dir': { type: 'string' } },
  });
  const [command, name] = positionals;
  switch (command) {
    case 'create': {
      if (name === undefined) return usage();
      const pgUrl = process.env['MIGRATE_PG_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
      const schemaDir = values['schema-dir'];
      const created = await createMigration({ name, pgUrl, ...(schemaDir === undefined ? {} : { schemaDir: path.resolve(schemaDir) }) });
      console.log(created === null ? 'No schema changes: no migration created.' : `Created ${created} for sqlite and postgresql.`);
      return 0;
    }
    case 'status': {
      const target = targetFromEnv(values['migrations-dir']);
      const s = await migrationStatus(target);
      console.log(`${target.provider} ${redact(target.url)}`);
      for (const [label, names] of Object.entries(s))
        console.log(`  ${label.padEnd(8)} ${names.length}${names.length ? `: ${names.join(', ')}` : ''}`);
      return s.failed.length + s.edited.length + s.unknown.length > 0 ? 1 : 0;
    }
    case 'deploy': {
      const target = targetFromEnv(values['migrations-dir']);
      const started = performance.now();
      const applied = await deployMigrations(target);
      const ms = Math.round(performance.now() - started);
      console.log(applied.length === 0 ? `Database is up to date (${ms} ms).` : `Applied ${applied.join(', ')} (${ms} ms).`);
      return 0;
    }
    default:
      return usage();
  }
}

function targetFromEnv(migrationsDir: string | undefined): MigrationTarget {
  const dataDir = process.env['DATA_DIR'] ?? './data';
  const url = process.env['DATABASE_URL'] ?? `file:${path.resolve(dataDir, 'forgegraph.db')}`;
  const provider = providerOfUrl(url);
  return { provider, url, ...(migrationsDir === undefined ? {} : { migrationsDir: path.resolve(migrationsDir) }) };
}

function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

function usage(): number {
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof MigrationError) console.error(`error [${err.code}]: ${err.message}`);
    else if (err instanceof RangeError || err instanceof TypeError) console.error(`error: ${err.message}`);
    else console.error(err);
    process.exitCode = 1;
  },
);
