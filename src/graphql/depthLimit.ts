import { GraphQLError, Kind, type FragmentDefinitionNode, type SelectionSetNode, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Depth of a selection set: each field adds a level, fragments do not. Unlike the complexity plugin's
 * count, introspection fields are included (`__type { fields { type { fields … } } }` nests without bound).
 */
function selectionDepth(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  memo: Map<string, number>,
  active: Set<string>,
): number {
  let max = 0;
  for (const sel of set?.selections ?? []) {
    let depth = 0;
    if (sel.kind === Kind.FIELD) depth = sel.selectionSet ? 1 + selectionDepth(sel.selectionSet, fragments, memo, active) : 1;
    else if (sel.kind === Kind.INLINE_FRAGMENT) depth = selectionDepth(sel.selectionSet, fragments, memo, active);
    else {
      const name = sel.name.value;
      const fragment = fragments.get(name);
      // Cycles are reported by the standard NoFragmentCycles rule; here they only must not recurse forever.
      if (fragment && !active.has(name)) {
        if (!memo.has(name)) {
          active.add(name);
          memo.set(name, selectionDepth(fragment.selectionSet, fragments, memo, active));
          active.delete(name);
        }
        depth = memo.get(name) ?? 0;
      }
    }
    max = Math.max(max, depth);
  }
  return max;
}

/** A validation rule reporting operations nested deeper than `max`, with an error that names the limit. */
export function depthLimitRule(max: number): ValidationRule {
  return (context) => ({
    OperationDefinition(node) {
      const fragments = new Map<string, FragmentDefinitionNode>();
      for (const def of context.getDocument().definitions) {
        if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
      }
      const depth = selectionDepth(node.selectionSet, fragments, new Map(), new Set());
      if (depth > max) {
        context.reportError(
          new GraphQLError(`Query exceeds the depth limit: depth ${depth} is more than the maximum of ${max}`, {
            nodes: [node],
            extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'depth', value: depth, max },
          }),
        );
      }
    },
  });
}

/** Yoga plugin: enforce the depth limit during validation, before anything executes. */
export function useDepthLimit(max: number): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(depthLimitRule(max));
    },
  };
}
