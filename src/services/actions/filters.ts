// Event filters of `on:` (GitHub's filter patterns: `*`, `**`, `?`, `+`, and `!` negation in order).
import type { TriggerFilter } from './workflowFile.ts';

function patternRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*' && pattern[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?' || c === '+') re += c;
    else re += c.replace(/[.^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether `value` passes a positive/negated pattern list (the last matching pattern decides). */
function matchesList(patterns: readonly string[], value: string): boolean {
  let matched = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (patternRegex(p.slice(1)).test(value)) matched = false;
    } else if (patternRegex(p).test(value)) matched = true;
  }
  return matched;
}

/** include/ignore pair: no include list = everything, then the ignore list removes. */
function passes(include: string[] | undefined, ignore: string[] | undefined, value: string): boolean {
  if (include) return matchesList(include, value);
  if (ignore) return !matchesList(ignore, value);
  return true;
}

/** push: branch or tag filters, then paths (any changed file must pass; unknown changed files pass). */
export function pushMatches(filter: TriggerFilter, ref: string, changedFiles: readonly string[] | null): boolean {
  const hasRefFilter = filter.branches || filter.branchesIgnore || filter.tags || filter.tagsIgnore;
  if (ref.startsWith('refs/heads/')) {
    const branch = ref.slice('refs/heads/'.length);
    if ((filter.tags || filter.tagsIgnore) && !(filter.branches || filter.branchesIgnore)) return false;
    if (!passes(filter.branches, filter.branchesIgnore, branch)) return false;
  } else if (ref.startsWith('refs/tags/')) {
    const tag = ref.slice('refs/tags/'.length);
    if (hasRefFilter && !(filter.tags || filter.tagsIgnore)) return false;
    if (!passes(filter.tags, filter.tagsIgnore, tag)) return false;
  }
  return pathsMatch(filter, changedFiles);
}

/** Whether a filter looks at the changed files (paths / paths-ignore): only then are they read. */
export const filtersPaths = (filter: TriggerFilter): boolean => Boolean(filter.paths || filter.pathsIgnore);

/** paths / paths-ignore: some changed file passes. */
export function pathsMatch(filter: TriggerFilter, changedFiles: readonly string[] | null): boolean {
  if (!changedFiles || !filtersPaths(filter)) return true;
  return changedFiles.some((f) => passes(filter.paths, filter.pathsIgnore, f));
}

/** pull_request: `types` (default opened, synchronize, reopened), target branch filters, paths. */
export function pullRequestMatches(
  filter: TriggerFilter,
  action: string,
  baseBranch: string,
  changedFiles: readonly string[] | null,
): boolean {
  const types = filter.types ?? ['opened', 'synchronize', 'reopened'];
  if (!types.includes(action)) return false;
  return passes(filter.branches, filter.branchesIgnore, baseBranch) && pathsMatch(filter, changedFiles);
}

/** Events with only `types` (issues, release, …): the action must be listed when types are given. */
export const typesMatch = (filter: TriggerFilter, action: string): boolean => !filter.types || filter.types.includes(action);
