/**
 * Public entry of the migration runner (the rest of `src/db/migrate/` is internal): what the
 * server and the `forgegraph migrate` command call. Type-only and
 * re-exports; each concept is defined in its own file.
 */
export type { DbProvider } from './dbProvider.ts';
export { deployMigrations } from './deployMigrations.ts';
export { MigrationError } from './MigrationError.ts';
