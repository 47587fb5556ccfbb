// Rows read for many parents at once (one statement per relation, whatever the number of parents) are handed out to
// their parents by a key column. Node 20 has no Map.groupBy.

/**
 * The items in lists by `keyOf`, each list in the items' order; `valueOf` maps what a list holds (the item itself
 * when omitted). Items whose key is `undefined` are left out.
 */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K | undefined): Map<K, T[]>;
export function groupBy<T, K, V>(items: Iterable<T>, keyOf: (item: T) => K | undefined, valueOf: (item: T) => V): Map<K, V[]>;
export function groupBy<T, K, V>(
  items: Iterable<T>,
  keyOf: (item: T) => K | undefined,
  valueOf: (item: T) => V | T = (item) => item,
): Map<K, (V | T)[]> {
  const groups = new Map<K, (V | T)[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const value = valueOf(item);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
