import { getOperationAST, Kind, type FieldNode, type GraphQLError, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LIMITS, limitError } from './limits.ts';

/**
 * Refuses a `nodes(ids:)` call with more ids than the limit (GitHub's 100), naming it, before any lookup.
 * @throws GraphQLError EXCESSIVE_PAGINATION
 */
export function assertNodeIdsWithinLimit(count: number, max: number = LIMITS.nodeIds): void {
  if (count > max) throw tooManyIds(count, max);
}

function tooManyIds(count: number, max: number): GraphQLError {
  return limitError(`Requesting ${count} nodes exceeds the \`ids\` limit of ${max} nodes.`, {
    code: 'EXCESSIVE_PAGINATION',
    limit: 'ids',
    value: count,
    max,
  });
}

/**
 * Yoga plugin: the same refusal for a root `nodes(ids:)`, made on the raw argument (a literal list or a variable)
 * before variables are coerced and thousands of global ids decoded. `nodes` spread from a named fragment is
 * refused a little later, by its cost function (see builder.ts).
 */
export function useNodeIdsLimit(max: number = LIMITS.nodeIds): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'query') return;
      for (const field of rootFields(operation.selectionSet)) {
        const ids = field.name.value === 'nodes' ? field.arguments?.find((a) => a.name.value === 'ids')?.value : undefined;
        const raw: unknown = ids?.kind === Kind.VARIABLE ? args.variableValues?.[ids.name.value] : undefined;
        const count = ids?.kind === Kind.LIST ? ids.values.length : Array.isArray(raw) ? raw.length : 0;
        if (count > max) return setResultAndStopExecution({ errors: [tooManyIds(count, max)] });
      }
    },
  };
}

/** The fields of a root selection set, inline fragments included. */
function rootFields(set: SelectionSetNode): FieldNode[] {
  return set.selections.flatMap((sel) =>
    sel.kind === Kind.FIELD ? [sel] : sel.kind === Kind.INLINE_FRAGMENT ? rootFields(sel.selectionSet) : [],
  );
}
