// GitHub's OAuth scope words for a Gitea token scope: what `X-OAuth-Scopes` reports, so GitHub clients (`gh auth
// status`) see what the token may do. A GitHub scope is listed only when the Gitea scope grants all it stands for
// here; Gitea scopes with no GitHub word (e.g. write:issue alone, read:repository alone) add none.
import { SCOPE_CATEGORIES, type ScopeCategory, type ScopeLevel, type TokenScope } from '../auth/scope.ts';

/** The GitHub scopes each Gitea category grants, by level (write lists what read lists too). */
const GITHUB_SCOPES: Record<ScopeCategory, Partial<Record<ScopeLevel, readonly string[]>>> = {
  activitypub: {},
  admin: { write: ['site_admin'] },
  misc: {},
  notification: { write: ['notifications'] },
  organization: { read: ['read:org'], write: ['admin:org', 'write:org', 'read:org', 'admin:org_hook'] },
  package: { read: ['read:packages'], write: ['write:packages', 'delete:packages', 'read:packages'] },
  issue: {},
  repository: { write: ['repo', 'delete_repo', 'admin:repo_hook', 'admin:public_key', 'workflow'] },
  user: { read: ['read:user', 'user:email'], write: ['user', 'read:user', 'user:email', 'user:follow', 'admin:gpg_key'] },
};

/** GitHub's scope words for `scope` (null: not a token, every scope), sorted and without repeats. */
export function githubScopes(scope: TokenScope | null): string[] {
  const out = new Set<string>();
  for (const category of SCOPE_CATEGORIES) {
    const level: ScopeLevel | undefined = !scope || scope.all ? 'write' : scope.levels[category];
    for (const s of (level && GITHUB_SCOPES[category][level]) ?? []) out.add(s);
  }
  return [...out].sort();
}
