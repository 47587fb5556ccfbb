import { InvalidArgumentError } from '../errors.ts';
import { isSafeRefName } from './resolveRef.ts';

/** A full object id (SHA-1 or SHA-256), lower case. */
export const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Rejects a revision that git could take for an option or that uses revision syntax (`main~2`, `a..b`):
 * accepted are hex object names (4–64 digits) and ref names (`main`, `refs/pull/3/head`).
 * @throws InvalidArgumentError
 */
export function assertRevision(rev: string): void {
  if (/^[0-9a-f]{4,64}$/i.test(rev)) return;
  if (isSafeRefName(rev) && !rev.startsWith('-')) return;
  throw new InvalidArgumentError(`invalid revision: ${JSON.stringify(rev)}`, { rev });
}

/** @throws InvalidArgumentError unless `sha` is a full lower-case object id */
export function assertSha(sha: string, what: string): void {
  if (!SHA.test(sha)) throw new InvalidArgumentError(`${what} must be a full lower-case object id`, { sha });
}

/** @throws InvalidArgumentError unless `ref` is a safe full ref name (under refs/) */
export function assertFullRef(ref: string): void {
  if (!ref.startsWith('refs/') || !isSafeRefName(ref)) throw new InvalidArgumentError(`invalid ref name: ${JSON.stringify(ref)}`, { ref });
}
