import type { SelectedFields } from './selectedFields.ts';

/** Per GraphQL field of a type, the columns of its model that the field's resolver reads. */
export type FieldColumns<Row> = Record<string, readonly (keyof Row & string)[]>;

/**
 * The columns a preloader loads for the rows of `type`: the `keys` (ids, and what relations and read scopes use)
 * and the columns of every field the operation selects on the type (selectedFields.ts), or undefined (every
 * column) when one of those fields is not listed in `fieldColumns`, being added later or reading more than a
 * column or two. test/graphql/preloadedRelations.test.ts holds every listed field to a whole row's answer.
 */
export function prunedColumns<Row>(
  selected: SelectedFields,
  type: string,
  fieldColumns: FieldColumns<Row>,
  keys: readonly (keyof Row & string)[],
): (keyof Row & string)[] | undefined {
  const columns = new Set(keys);
  for (const field of selected(type)) {
    const more = fieldColumns[field];
    if (!more) return undefined;
    for (const c of more) columns.add(c);
  }
  return [...columns];
}
