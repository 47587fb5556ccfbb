import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLError, type SelectionSetNode } from 'graphql';
import { limitError } from './limits.ts';

/** Fields under a selection set (fragments expanded), and how often each response name occurs at its own level. */
interface Shape {
  breadth: number;
  names: Map<string, number>;
}

const EMPTY: Shape = { breadth: 0, names: new Map() };

class Exceeded {
  constructor(readonly error: GraphQLError) {}
}

/**
 * The first selection limit a parsed document exceeds, or null. Runs before validation, in one pass over the
 * syntax tree with each fragment counted once (memoized), because graphql-js's OverlappingFieldsCanBeMerged rule
 * compares every pair of fields that share a response name in one selection set (inline fragments and spreads
 * merged): a few hundred copies of `viewer { login }` cost it half a second. Two limits bound that work:
 * - breadth: fields the operation selects, fragments expanded (plugin-complexity's count, which also applies
 *   after validation; this one also counts the fields under introspection fields, so it is the stricter);
 * - duplicates: fields sharing one response name in one selection set.
 * Unknown or cyclic fragments count as empty: validation reports them.
 */
export function checkSelections(document: DocumentNode, limits: { breadth: number; duplicates: number }): GraphQLError | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const memo = new Map<string, Shape>();
  const active = new Set<string>();

  const fragmentShape = (name: string): Shape => {
    const known = memo.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment || active.has(name)) return EMPTY;
    active.add(name);
    const shape = shapeOf(fragment.selectionSet);
    active.delete(name);
    memo.set(name, shape);
    return shape;
  };

  const shapeOf = (set: SelectionSetNode): Shape => {
    const names = new Map<string, number>();
    let breadth = 0;
    const count = (name: string, n: number) => {
      const total = (names.get(name) ?? 0) + n;
      if (total > limits.duplicates) {
        throw new Exceeded(
          limitError(
            `Query exceeds the duplicates limit: \`${name}\` is selected more than the maximum of ${limits.duplicates} times in one selection set`,
            {
              code: 'QUERY_TOO_COMPLEX',
              limit: 'duplicates',
              max: limits.duplicates,
            },
          ),
        );
      }
      names.set(name, total);
    };
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        count((sel.alias ?? sel.name).value, 1);
        breadth += 1 + (sel.selectionSet ? shapeOf(sel.selectionSet).breadth : 0);
      } else {
        const inner = sel.kind === Kind.INLINE_FRAGMENT ? shapeOf(sel.selectionSet) : fragmentShape(sel.name.value);
        for (const [name, n] of inner.names) count(name, n);
        breadth += inner.breadth;
      }
      if (breadth > limits.breadth) {
        throw new Exceeded(
          limitError(`Query exceeds the breadth limit: more than the maximum of ${limits.breadth} fields`, {
            code: 'QUERY_TOO_COMPLEX',
            limit: 'breadth',
            max: limits.breadth,
          }),
        );
      }
    }
    return { breadth, names };
  };

  try {
    for (const def of document.definitions) if (def.kind === Kind.OPERATION_DEFINITION) shapeOf(def.selectionSet);
  } catch (e) {
    if (e instanceof Exceeded) return e.error;
    throw e;
  }
  return null;
}
