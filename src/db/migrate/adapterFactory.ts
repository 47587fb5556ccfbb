import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { DbProvider } from './dbProvider.ts';

/**
 * The migration-aware driver adapter factory for a provider and URL, with our engine fixes. Each provider's adapter
 * is imported when asked for: a SQLite process never loads @prisma/adapter-pg (test/db/lazyClients.test.ts).
 */
export async function createAdapterFactory(provider: DbProvider, url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  switch (provider) {
    case 'sqlite':
      return (await import('./sqliteAdapterFactory.ts')).sqliteAdapterFactory(url);
    case 'postgresql':
      return (await import('./pgAdapterFactory.ts')).pgAdapterFactory(url);
    default: {
      const never: never = provider;
      throw new RangeError(`unknown provider ${String(never)}`);
    }
  }
}
