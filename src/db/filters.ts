import type { Models } from './client.ts';
import type { DbProvider } from './migrate/engine.ts';

/**
 * A case-insensitive substring filter on both providers: SQLite's LIKE is already
 * case-insensitive for ASCII; PostgreSQL needs `mode: 'insensitive'` (absent from the SQLite client's types).
 */
export function containsInsensitive(provider: DbProvider, value: string): Models.Prisma.StringFilter {
  if (provider === 'postgresql') return { contains: value, mode: 'insensitive' } as Models.Prisma.StringFilter;
  return { contains: value };
}
