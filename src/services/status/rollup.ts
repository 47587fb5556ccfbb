import type { Models } from '../../db/client.ts';
import { compileGlob } from '../glob.ts';

/** Gitea's commit status states, best last (commitStatusPriorities: error, failure, warning, pending, success). */
export const COMMIT_STATUS_STATES = ['error', 'failure', 'warning', 'pending', 'success'] as const;
/** A commit status state. */
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

const rank = (s: string): number => {
  const i = COMMIT_STATUS_STATES.indexOf(s as CommitStatusState);
  return i < 0 ? COMMIT_STATUS_STATES.length : i;
};

/** Gitea CalcCommitStatus: the worst state of the latest statuses; '' when there are none. */
export function combinedState(latest: readonly Pick<Models.CommitStatus, 'state'>[]): string {
  let state = '';
  for (const s of latest) if (state === '' || rank(s.state) <= rank(state)) state = s.state;
  return state;
}

/** The latest status of each context (statuses ordered by index, any order of contexts). */
export function latestPerContext<T extends Pick<Models.CommitStatus, 'contextHash' | 'index'>>(statuses: readonly T[]): T[] {
  const latest = new Map<string, T>();
  for (const s of statuses) {
    const seen = latest.get(s.contextHash);
    if (!seen || seen.index < s.index) latest.set(s.contextHash, s);
  }
  return [...latest.values()].sort((a, b) => a.index - b.index);
}

/**
 * Gitea MergeRequiredContextsCommitStatus: with required context patterns, every pattern must match at least
 * one latest status and all matched must be successful; without patterns, the combined state must be success.
 * No status at all is pending.
 */
export function requiredChecksState(
  latest: readonly Pick<Models.CommitStatus, 'state' | 'context'>[],
  patterns: readonly string[],
): string {
  if (!latest.length) return 'pending';
  if (!patterns.length) return combinedState(latest);
  const matched: Pick<Models.CommitStatus, 'state'>[] = [];
  for (const pattern of patterns) {
    let match: (s: string) => boolean;
    try {
      match = compileGlob(pattern);
    } catch {
      continue;
    }
    const hits = latest.filter((s) => match(s.context));
    if (!hits.length) return 'pending';
    matched.push(...hits);
  }
  return matched.length ? combinedState(matched) : 'pending';
}

/** Whether a status context is required by any of the required context patterns (an invalid glob requires nothing). */
export function isRequiredContext(context: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    try {
      return compileGlob(pattern)(context);
    } catch {
      return false;
    }
  });
}
