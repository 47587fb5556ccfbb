import type { ScopeCategory } from '../../../auth/scope.ts';
import type { HookScope } from '../../../services/webhook/hookScope.ts';
import { repoRef } from '../../params.ts';
import type { Gate } from '../../route.ts';

/** One place webhooks live, as the REST API addresses it. */
export interface HookPlace {
  /** Path prefix of the hook collection. */
  base: string;
  /** operationId prefix (Gitea's: repo, org, user, admin). */
  op: 'repo' | 'org' | 'user' | 'admin';
  tag: string;
  scopes: ScopeCategory[];
  gate: Gate;
  scope: (params: Record<string, string>) => HookScope;
}

/** Repository, organization, user and site (system and default) hooks, with Gitea's route gates. */
export const HOOK_PLACES: readonly HookPlace[] = [
  {
    base: '/repos/{owner}/{repo}/hooks',
    op: 'repo',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    scope: (p) => ({ kind: 'repo', repo: repoRef(p) }),
  },
  {
    base: '/orgs/{org}/hooks',
    op: 'org',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    scope: (p) => ({ kind: 'org', org: p.org ?? '' }),
  },
  { base: '/user/hooks', op: 'user', tag: 'user', scopes: ['user'], gate: 'token', scope: () => ({ kind: 'user' }) },
  { base: '/admin/hooks', op: 'admin', tag: 'admin', scopes: ['admin'], gate: 'admin', scope: () => ({ kind: 'admin' }) },
];
