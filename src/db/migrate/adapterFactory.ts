import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { DbProvider } from './dbProvider.ts';
import { pgAdapterFactory } from './pgAdapterFactory.ts';
import { sqliteAdapterFactory } from './sqliteAdapterFactory.ts';

/** The migration-aware driver adapter factory for a provider and URL, with our engine fixes. */
export function createAdapterFactory(provider: DbProvider, url: string): SqlMigrationAwareDriverAdapterFactory {
  switch (provider) {
    case 'sqlite':
      return sqliteAdapterFactory(url);
    case 'postgresql':
      return pgAdapterFactory(url);
    default: {
      const never: never = provider;
      throw new RangeError(`unknown provider ${String(never)}`);
    }
  }
}
