/**
 * Public entry of the migration runner (the rest of `src/db/migrate/` is internal): what the
 * server, the `forgegraph migrate` command and the migration scripts call. Type-only and
 * re-exports; each concept is defined in its own file.
 */
export type { DbProvider, MigrationTarget } from './dbProvider.ts';
export { deployMigrations } from './deployMigrations.ts';
export { migrationStatus, type MigrationStatus } from './migrationStatus.ts';
export { createMigration, type CreateMigrationOptions } from './createMigration.ts';
export { MigrationError, type MigrationErrorCode } from './MigrationError.ts';
