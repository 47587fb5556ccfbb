import type { GraphQLResolveInfo, OperationDefinitionNode } from 'graphql';
import { selectedFields, type SelectedFields } from './selectedFields.ts';

/** The connections of a ReactionGroup that list its users (`reactors`, and GitHub's deprecated `users`). */
const REACTOR_CONNECTIONS = ['ReactorConnection', 'ReactingUserConnection'] as const;
const COUNT_ONLY = new Set(['totalCount', '__typename']);

/**
 * Whether an operation reads no reactor of any reaction group: of `reactors` and `users` it selects at most
 * `totalCount`, anywhere in it. Its reaction groups can then be counted in SQL (loadReactionCounts) instead of
 * built from every reaction and its user: what GitHub's clients ask (`reactionGroups { content users { totalCount } }`).
 */
export function reactorsCountedOnly(selected: SelectedFields): boolean {
  return REACTOR_CONNECTIONS.every((type) => [...selected(type)].every((field) => COUNT_ONLY.has(field)));
}

const byOperation = new WeakMap<OperationDefinitionNode, boolean>();

/** reactorsCountedOnly for the operation a resolver runs in (decided once per parsed operation). */
export function reactorsCountedOnlyIn(info: GraphQLResolveInfo): boolean {
  let counted = byOperation.get(info.operation);
  if (counted === undefined) byOperation.set(info.operation, (counted = reactorsCountedOnly(selectedFields(info))));
  return counted;
}
