import { Prisma } from '../generated/sqlite/client.ts';

type Selection = true | { select?: Record<string, unknown>; include?: Record<string, unknown> } | Record<string, unknown>;

const USER_SCALARS: Record<string, true> = Object.fromEntries(Object.values(Prisma.UserScalarFieldEnum).map((f) => [f, true]));

/**
 * A nested User selection that always carries every scalar column. Interface fields (RepositoryOwner) and
 * computed fields declare no Prisma selection, so a `select` built only from the query could be empty
 * (Prisma rejects it) or miss columns the resolvers read.
 */
export function withUserScalars(selection: Selection): Selection {
  if (selection === true) return true;
  if ('select' in selection && selection.select && typeof selection.select === 'object') {
    return { select: { ...USER_SCALARS, ...selection.select } };
  }
  return selection;
}
