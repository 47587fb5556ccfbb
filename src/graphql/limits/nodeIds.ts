import { LIMITS, limitError } from './limits.ts';

/**
 * Refuses a `nodes(ids:)` call with more ids than the limit (GitHub's 100), naming it, before any lookup.
 * @throws GraphQLError EXCESSIVE_PAGINATION
 */
export function assertNodeIdsWithinLimit(count: number, max: number = LIMITS.nodeIds): void {
  if (count <= max) return;
  throw limitError(`Requesting ${count} nodes exceeds the \`ids\` limit of ${max} nodes.`, {
    code: 'EXCESSIVE_PAGINATION',
    limit: 'ids',
    value: count,
    max,
  });
}
