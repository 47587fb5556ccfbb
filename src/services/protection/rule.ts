import { readRows } from '../../db/readPath.ts';
import DataLoader from 'dataloader';
import type { DbLike, Models } from '../../db/client.ts';
import { compileGlob } from '../glob.ts';

/** A protected branch rule row with its JSON lists parsed. */
export interface ProtectionRule {
  row: Models.ProtectedBranch;
  pushUserIds: number[];
  pushTeamIds: number[];
  forcePushUserIds: number[];
  forcePushTeamIds: number[];
  mergeUserIds: number[];
  mergeTeamIds: number[];
  approvalsUserIds: number[];
  approvalsTeamIds: number[];
  statusCheckContexts: string[];
}

/** A JSON array column ("[1,5]") as numbers; anything else is empty. */
export function parseIds(text: string): number[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((n): n is number => Number.isSafeInteger(n)) : [];
  } catch {
    return [];
  }
}

/** A JSON array column of strings. */
export function parseStrings(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** Parses a rule row. */
export function toRule(row: Models.ProtectedBranch): ProtectionRule {
  return {
    row,
    pushUserIds: parseIds(row.whitelistUserIds),
    pushTeamIds: parseIds(row.whitelistTeamIds),
    forcePushUserIds: parseIds(row.forcePushAllowlistUserIds),
    forcePushTeamIds: parseIds(row.forcePushAllowlistTeamIds),
    mergeUserIds: parseIds(row.mergeWhitelistUserIds),
    mergeTeamIds: parseIds(row.mergeWhitelistTeamIds),
    approvalsUserIds: parseIds(row.approvalsWhitelistUserIds),
    approvalsTeamIds: parseIds(row.approvalsWhitelistTeamIds),
    statusCheckContexts: parseStrings(row.statusCheckContexts),
  };
}

/** Gitea IsRuleNameSpecial: the rule name holds a glob character, so it is a pattern rather than a branch name. */
export function isRuleNameSpecial(name: string): boolean {
  return /[*?[\]{}\\]/.test(name);
}

/** Gitea ProtectedBranch.Match: a plain name matches case-insensitively, a pattern as a glob with `/` separators. */
export function ruleMatches(ruleName: string, branch: string): boolean {
  if (!isRuleNameSpecial(ruleName)) return ruleName.toLowerCase() === branch.toLowerCase();
  try {
    return compileGlob(ruleName, { separators: '/' })(branch);
  } catch {
    // Gitea falls back to the quoted pattern: only the literal name matches.
    return ruleName === branch;
  }
}

/** The rule rows of these repositories, on the read path (every push and merge asks). */
function ruleRows(db: DbLike, repoIds: readonly number[]): Promise<Models.ProtectedBranch[]> {
  return readRows(db, 'ProtectedBranch', 'SELECT * FROM "ProtectedBranch" WHERE "repoId" IN (?)', [repoIds]);
}

/**
 * A repository's rules in Gitea's order (ProtectedBranchRules.sort): plain branch names before patterns, then
 * by priority, then by creation.
 */
export async function loadRules(db: DbLike, repoId: number): Promise<ProtectionRule[]> {
  return sortRules(await ruleRows(db, [repoId]));
}

/** Rule rows of one repository in Gitea's order (see loadRules), parsed. */
export function sortRules(rows: readonly Models.ProtectedBranch[]): ProtectionRule[] {
  const sorted = [...rows].sort((a, b) => a.priority - b.priority || a.id - b.id);
  const plain = sorted.filter((r) => !isRuleNameSpecial(r.ruleName));
  const patterns = sorted.filter((r) => isRuleNameSpecial(r.ruleName));
  return [...plain, ...patterns].map(toRule);
}

/** The first rule of `rules` that matches `branch` (Gitea GetFirstMatched). */
export function firstMatchingRule(rules: readonly ProtectionRule[], branch: string): ProtectionRule | null {
  return rules.find((r) => ruleMatches(r.row.ruleName, branch)) ?? null;
}

/**
 * Per request: every rule of many repositories in Gitea's order, one query for all the repositories asked in the
 * same tick. No permission check: callers decide what of a rule the viewer may learn.
 */
export function repoRulesLoader(db: DbLike): DataLoader<number, ProtectionRule[]> {
  return new DataLoader(async (repoIds: readonly number[]) => {
    const rows = await ruleRows(db, repoIds);
    return repoIds.map((id) => sortRules(rows.filter((r) => r.repoId === id)));
  });
}

/** The rule protecting `branch` of a repository, or null (Gitea GetFirstMatchProtectedBranchRule). */
export async function findBranchRule(db: DbLike, repoId: number, branch: string): Promise<ProtectionRule | null> {
  return firstMatchingRule(await loadRules(db, repoId), branch);
}

/** Gitea getFilePatterns: semicolon-separated globs, lower-cased, with `.` and `/` separators. */
export function filePatterns(text: string): ((path: string) => boolean)[] {
  const out: ((path: string) => boolean)[] = [];
  for (const expr of text.toLowerCase().split(';')) {
    const p = expr.trim();
    if (!p) continue;
    try {
      out.push(compileGlob(p, { separators: './' }));
    } catch {
      // Gitea skips an invalid expression.
    }
  }
  return out;
}

/** Whether `path` matches one of the patterns (compared lower-cased and trimmed, as Gitea). */
export function matchesAnyFile(patterns: readonly ((path: string) => boolean)[], path: string): boolean {
  const p = path.trim().toLowerCase();
  return patterns.some((m) => m(p));
}
