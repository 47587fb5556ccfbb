/**
 * Gitea's access-token scopes (models/auth/access_token_scope.go): `all`, `public-only`, and
 * `read:<category>` / `write:<category>`; write implies read. Stored as a normalized comma list.
 */
export const SCOPE_CATEGORIES = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
] as const;
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];
export type ScopeLevel = 'read' | 'write';

/** A parsed token scope. */
export interface TokenScope {
  all: boolean;
  publicOnly: boolean;
  /** Highest level granted per category. */
  levels: Partial<Record<ScopeCategory, ScopeLevel>>;
}

/** Thrown by parseScope for an unknown scope name (message as Gitea's). */
export class InvalidScopeError extends Error {}

function isCategory(value: string): value is ScopeCategory {
  return (SCOPE_CATEGORIES as readonly string[]).includes(value);
}

/** Parses a comma-separated scope string; throws InvalidScopeError for unknown entries. */
export function parseScope(raw: string): TokenScope {
  const scope: TokenScope = { all: false, publicOnly: false, levels: {} };
  for (const part of raw.split(',')) {
    const s = part.trim();
    if (!s) continue;
    if (s === 'all') scope.all = true;
    else if (s === 'public-only') scope.publicOnly = true;
    else {
      const [level, category] = s.split(':');
      if ((level !== 'read' && level !== 'write') || category === undefined || !isCategory(category)) {
        throw new InvalidScopeError(`invalid access token scope: ${s}`);
      }
      if (level === 'write' || scope.levels[category] !== 'write') scope.levels[category] = level;
    }
  }
  return scope;
}

/** Canonical string form, in Gitea's order (public-only first, then write before read per category). */
export function formatScope(scope: TokenScope): string {
  const parts: string[] = [];
  if (scope.publicOnly) parts.push('public-only');
  // Gitea also collapses write on every category into `all`.
  if (scope.all || SCOPE_CATEGORIES.every((c) => scope.levels[c] === 'write')) {
    parts.push('all');
    return parts.join(',');
  }
  for (const c of SCOPE_CATEGORIES) {
    const level = scope.levels[c];
    if (level) parts.push(`${level}:${c}`);
  }
  return parts.join(',');
}

/** True when the scope grants at least one permission (not only `public-only`). */
export function hasPermissionScope(scope: TokenScope): boolean {
  return scope.all || Object.keys(scope.levels).length > 0;
}

/** True when the scope grants `level` on every listed category. */
export function scopeAllows(scope: TokenScope, categories: readonly ScopeCategory[], level: ScopeLevel): boolean {
  if (scope.all) return true;
  return categories.every((c) => {
    const granted = scope.levels[c];
    return granted === 'write' || (granted === 'read' && level === 'read');
  });
}
