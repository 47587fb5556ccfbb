import { modeName } from '../../permissions/accessMode.ts';
import type { CollaboratorPermission } from '../../services/repo/collaborator.ts';
import type { RepoCollaboratorPermission } from '../structs/collaborator.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

/** Gitea convert.ToUserAndPermission: the user is rendered for the repository owner (Gitea's ContextUser). */
export function toApiRepoCollaboratorPermission(cp: CollaboratorPermission, opts: ConvertOptions): RepoCollaboratorPermission {
  const name = modeName(cp.mode);
  return { permission: name, role_name: name, user: toApiUser(cp.user, cp.repoOwner, opts) };
}
