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

/** A case-insensitive prefix filter on both providers (SQLite's LIKE is case-insensitive for ASCII, as above). */
export function startsWithInsensitive(provider: DbProvider, value: string): Models.Prisma.StringFilter {
  if (provider === 'postgresql') return { startsWith: value, mode: 'insensitive' } as Models.Prisma.StringFilter;
  return { startsWith: value };
}

/**
 * A filter that matches no row, for "this viewer may see none of these". Never write `{ OR: [] }` for it:
 * Prisma reads an empty OR as false only at the top of a query; nested in `AND` or a relation filter it is
 * dropped, and "nothing" silently becomes "everything".
 */
export const NO_ROWS = { id: { in: [] as number[] } };
