import { Prisma } from '../generated/sqlite/client.ts';

type Selection = true | { select?: Record<string, unknown>; include?: Record<string, unknown> } | Record<string, unknown>;

const scalars = (fields: Record<string, string>): Record<string, true> => Object.fromEntries(Object.values(fields).map((f) => [f, true]));
const USER_SCALARS = scalars(Prisma.UserScalarFieldEnum);
const LABEL_SCALARS = scalars(Prisma.LabelScalarFieldEnum);

function withScalars(selection: Selection, all: Record<string, true>): Selection {
  if (selection === true) return true;
  if ('select' in selection && selection.select && typeof selection.select === 'object') {
    return { select: { ...all, ...selection.select } };
  }
  return selection;
}

/**
 * A nested User selection that always carries every scalar column. Interface fields (RepositoryOwner) and
 * computed fields declare no Prisma selection, so a `select` built only from the query could be empty
 * (Prisma rejects it) or miss columns the resolvers read.
 */
export function withUserScalars(selection: Selection): Selection {
  return withScalars(selection, USER_SCALARS);
}

/** The same for a nested Label selection. */
export function withLabelScalars(selection: Selection): Selection {
  return withScalars(selection, LABEL_SCALARS);
}
