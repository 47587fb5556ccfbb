import path from 'node:path';
import { ROOT } from '../../paths.ts';

/** The two databases Forgegraph runs on. */
export type DbProvider = 'sqlite' | 'postgresql';

/** Both providers, in the order migrations are written. */
export const DB_PROVIDERS: readonly DbProvider[] = ['sqlite', 'postgresql'];

/** Which database a migration call targets. */
export interface MigrationTarget {
  provider: DbProvider;
  /** `file:/abs/path.db` for SQLite, `postgresql://…` for PostgreSQL. */
  url: string;
  /** Defaults to `<repo>/prisma/<provider>/migrations`. */
  migrationsDir?: string;
}

/** `<repo>/prisma`: holds `schema.prisma` and the derived `<provider>/` folders. */
export function defaultSchemaDir(): string {
  return `${path.join(ROOT, 'prisma')}${path.sep}`;
}

/** `<repo>/prisma/<provider>/migrations`, the committed migration history. */
export function defaultMigrationsDir(provider: DbProvider): string {
  return path.join(defaultSchemaDir(), provider, 'migrations');
}

/** The provider a `DATABASE_URL` selects: `postgres(ql)://` is PostgreSQL, anything else SQLite. */
export function providerOfUrl(url: string): DbProvider {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgresql' : 'sqlite';
}
