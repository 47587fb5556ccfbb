// Tag protection (Gitea models/git/protected_tag.go) and its part of the ref-moving gate (Gitea preReceiveTag).
import type { DbLike, Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import type { RefUpdate } from '../../notify/events.ts';
import type { ServiceContext } from '../context.ts';
import { compileGlob } from '../glob.ts';
import { parseIds } from './rule.ts';

const TAGS = 'refs/tags/';

/** A tag protection row with its allowlists parsed. */
export interface TagRule {
  row: Models.ProtectedTag;
  userIds: number[];
  teamIds: number[];
}

/**
 * Gitea EnsureCompiledPattern: `/…/` is a regular expression (unanchored), anything else a glob without
 * separators (gobwas/glob). Throws an Error when the pattern does not compile.
 */
export function compileTagPattern(pattern: string): (name: string) => boolean {
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    const re = new RegExp(pattern.slice(1, -1));
    return (name) => re.test(name);
  }
  return compileGlob(pattern);
}

/** Whether a name pattern compiles (validated on create and edit, so the gate never meets a broken one). */
export function isValidTagPattern(pattern: string): boolean {
  try {
    compileTagPattern(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pattern` covers `tag`; a pattern that does not compile covers only its literal text. */
function tagMatches(pattern: string, tag: string): boolean {
  try {
    return compileTagPattern(pattern)(tag);
  } catch {
    return pattern === tag;
  }
}

/** Parses a row. */
export function toTagRule(row: Models.ProtectedTag): TagRule {
  return { row, userIds: parseIds(row.allowlistUserIds), teamIds: parseIds(row.allowlistTeamIds) };
}

/** A repository's tag protections in creation order (Gitea GetProtectedTags). */
export async function loadTagRules(db: DbLike, repoId: number): Promise<TagRule[]> {
  return (await db.protectedTag.findMany({ where: { repoId }, orderBy: { id: 'asc' } })).map(toTagRule);
}

/** Gitea IsUserAllowedModifyTag: on the rule's user allowlist, or a member of one of its teams. */
async function userAllowedBy(db: DbLike, rule: TagRule, userId: number): Promise<boolean> {
  if (rule.userIds.includes(userId)) return true;
  if (!rule.teamIds.length) return false;
  return (await db.teamUser.count({ where: { userId, teamId: { in: rule.teamIds } } })) > 0;
}

/**
 * Gitea IsUserAllowedToControlTag: a tag no rule covers is free; otherwise one of the rules covering it must
 * allow the user. Site and repository admins are not exempt.
 */
export async function isUserAllowedToControlTag(db: DbLike, rules: readonly TagRule[], tag: string, userId: number): Promise<boolean> {
  let allowed = true;
  for (const rule of rules) {
    if (!tagMatches(rule.row.namePattern, tag)) continue;
    allowed = await userAllowedBy(db, rule, userId);
    if (allowed) break;
  }
  return allowed;
}

/**
 * The tag part of the ref-moving gate (Gitea preReceiveTag): creating, moving or deleting a tag a rule covers
 * needs a pusher the rule allows — the viewer, or for a deploy key the repository's owner (as the push is
 * recorded). The system (no viewer, no key) passes. Refused with Gitea's text `Tag <name> is protected`;
 * the API doors translate it (isProtectedTagRefusal).
 * @throws PermissionDeniedError
 */
export async function requireTagUpdatesAllowed(cx: ServiceContext, repo: Models.Repository, updates: readonly RefUpdate[]): Promise<void> {
  const tags = updates.filter((u) => u.ref.startsWith(TAGS)).map((u) => u.ref.slice(TAGS.length));
  if (!tags.length) return;
  const pusherId = cx.auth.sshKey?.deploy ? repo.ownerId : cx.viewer?.id;
  if (pusherId === undefined) return;
  const rules = await loadTagRules(cx.db, repo.id);
  if (!rules.length) return;
  for (const tag of tags) {
    if (!(await isUserAllowedToControlTag(cx.db, rules, tag, pusherId)))
      throw new PermissionDeniedError(`Tag ${tag} is protected`, { protectedTag: tag });
  }
}

/** Whether `err` is the gate's refusal of a protected tag (which API doors answer with their own text). */
export function isProtectedTagRefusal(err: unknown): err is PermissionDeniedError {
  return err instanceof PermissionDeniedError && typeof err.data.protectedTag === 'string';
}
