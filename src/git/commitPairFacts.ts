import { LRUCache } from 'lru-cache';
import { SHA } from './revision.ts';

/** Kept answers, by kind, repository and the two ids. */
const kept = new LRUCache<string, Promise<unknown>>({ max: 512, ttl: 60_000 });

/**
 * Facts about two commits that follow from their ids alone (their merge base, their trial merge), kept for a
 * minute: checking a pull request's mergeability and then merging it ask git the same questions within
 * milliseconds, and each answer costs a git process. Only full object ids are remembered (a branch name moves);
 * a computation in flight is shared, and a failed one is not kept. `stillValid` is asked before a kept answer is
 * reused (an answer naming an object the repository may no longer hold).
 */
export async function commitPairFact<T>(
  kind: string,
  gitDir: string,
  a: string,
  b: string,
  compute: () => Promise<T>,
  stillValid: (fact: T) => boolean = () => true,
): Promise<T> {
  if (!SHA.test(a) || !SHA.test(b)) return compute();
  const key = `${kind}\0${gitDir}\0${a}\0${b}`;
  const known = kept.get(key) as Promise<T> | undefined;
  if (known) {
    const fact = await known.catch(() => undefined);
    if (fact !== undefined && stillValid(fact)) return fact;
  }
  const computing = compute();
  kept.set(key, computing);
  computing.catch(() => kept.delete(key));
  return computing;
}
