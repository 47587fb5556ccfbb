import { z } from 'zod';
import { User } from './user.ts';

/** Gitea `RepoCollaboratorPermission`: the access mode name twice (permission, role_name) and the user. */
export const RepoCollaboratorPermission = z.object({
  permission: z.string(),
  role_name: z.string(),
  user: User,
});
/** A Gitea RepoCollaboratorPermission as sent on the wire. */
export type RepoCollaboratorPermission = z.infer<typeof RepoCollaboratorPermission>;

/** Gitea `AddCollaboratorOption`: permission read, write or admin (write when absent). */
export const AddCollaboratorOption = z.object({
  permission: z.string().nullish(),
});
