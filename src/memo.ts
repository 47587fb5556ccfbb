import { LRUCache } from 'lru-cache';

/**
 * `compute` remembered for the `max` keys asked last (an LRU): for pure functions of small keys that the same answers
 * repeat (a time's rendering, a unit configuration's parse, an identicon's digest). What it returns is shared between
 * callers: they must not change it.
 */
export function memoized<K extends string | number, V extends string | object>(max: number, compute: (key: K) => V): (key: K) => V {
  const kept = new LRUCache<K, V>({ max });
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute(key);
      kept.set(key, value);
    }
    return value;
  };
}
