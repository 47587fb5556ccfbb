import type { TokenScope } from './scope.ts';

/** What a running task's token grants (Gitea GetActionsUserRepoPermission): its repository, read-only for fork pulls. */
export interface ActionsTaskGrant {
  taskId: number;
  repoId: number;
  isForkPullRequest: boolean;
}

/**
 * The SSH key a git-over-SSH session signed in with (method `ssh`). A user's key acts as that user, with every
 * right a password gives; a deploy key (`deploy`) has no viewer: its grant on the repositories it was added to
 * is the permission model's (DeployKey rows, read-only or read-write).
 */
export interface SshKeyInfo {
  /** The PublicKey row. */
  id: number;
  name: string;
  deploy: boolean;
}

/** How the viewer authenticated. Token scopes apply only to `token`; `actions` is a running task's token. */
export interface AuthInfo {
  method: 'anonymous' | 'password' | 'token' | 'actions' | 'ssh' | 'system';
  scope: TokenScope | null;
  tokenId: number | null;
  /** The admin who used Sudo, when the viewer is impersonated. */
  sudoerId: number | null;
  /** The task whose token signed in the `gitea-actions` user (method `actions`). */
  actionsTask?: ActionsTaskGrant;
  /** The key of method `ssh`. */
  sshKey?: SshKeyInfo;
}
