// GitHub's order inputs (`<Thing>Order { field: <Thing>OrderField, direction: OrderDirection }`), one helper for
// every connection that takes `orderBy`.
import { builder } from '../builder.ts';

/** GitHub's OrderDirection. */
export const OrderDirectionEnum = builder.enumType('OrderDirection', {
  description: 'Possible directions in which to order a list of items.',
  values: { ASC: { value: 'ASC' }, DESC: { value: 'DESC' } } as const,
});

/** Prisma's direction of GitHub's OrderDirection. */
export const directionOf = (o: { direction?: 'ASC' | 'DESC' | null }): 'asc' | 'desc' => (o.direction === 'DESC' ? 'desc' : 'asc');

/** GitHub's input `name` (with the enum `<name>Field` of `values`) ordering `what`: both fields required. */
export function orderInput<const V extends readonly string[]>(name: string, values: V, what: string) {
  return makeOrderInput(name, values, what, true);
}

/** The same with both fields optional, as GitHub's few package order inputs have them. */
export function optionalOrderInput<const V extends readonly string[]>(name: string, values: V, what: string) {
  return makeOrderInput(name, values, what, false);
}

function makeOrderInput<const V extends readonly string[], const R extends boolean>(name: string, values: V, what: string, required: R) {
  const field = builder.enumType(`${name}Field`, { description: `Properties by which ${what} can be ordered.`, values });
  return builder.inputType(name, {
    description: `Ordering options for ${what}.`,
    fields: (t) => ({
      field: t.field({ type: field, required }),
      direction: t.field({ type: OrderDirectionEnum, required }),
    }),
  });
}
