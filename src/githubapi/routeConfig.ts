import type { ScopeCategory, ScopeLevel } from '../auth/scope.ts';

/** What a route needs of a token: a Gitea scope category and level, and GitHub's words for it (`X-Accepted-OAuth-Scopes`). */
export interface GithubRouteConfig {
  scope: { category: ScopeCategory; level: ScopeLevel; accepted: string } | null;
}

export const READ_REPO: GithubRouteConfig = { scope: { category: 'repository', level: 'read', accepted: 'repo' } };
export const WRITE_REPO: GithubRouteConfig = { scope: { category: 'repository', level: 'write', accepted: 'repo' } };
/** Labels, issues and pull requests: Gitea's `issue` category; GitHub's `repo`. */
export const WRITE_ISSUE: GithubRouteConfig = { scope: { category: 'issue', level: 'write', accepted: 'repo' } };
/** Reading issues and pull requests (searching them): Gitea's `issue` category; GitHub's `repo`. */
export const READ_ISSUE: GithubRouteConfig = { scope: { category: 'issue', level: 'read', accepted: 'repo' } };
