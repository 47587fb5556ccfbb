import type { TokenScope } from './scope.ts';

/** What a running task's token grants (Gitea GetActionsUserRepoPermission): its repository, read-only for fork pulls. */
export interface ActionsTaskGrant {
  taskId: number;
  repoId: number;
  isForkPullRequest: boolean;
}

/** How the viewer authenticated. Token scopes apply only to `token`; `actions` is a running task's token. */
export interface AuthInfo {
  method: 'anonymous' | 'password' | 'token' | 'actions' | 'system';
  scope: TokenScope | null;
  tokenId: number | null;
  /** The admin who used Sudo, when the viewer is impersonated. */
  sudoerId: number | null;
  /** The task whose token signed in the `gitea-actions` user (method `actions`). */
  actionsTask?: ActionsTaskGrant;
}
