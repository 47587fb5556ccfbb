import type { Models } from '../db/client.ts';
import { canSeeOwner } from './ownerVisibility.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin' | 'isRestricted'> | null;
type Target = Pick<Models.User, 'id' | 'visibility'>;

/**
 * Whether `viewer` may see the account `target` (Gitea individualPermsChecker / HasOrgOrUserVisible):
 * public to everyone, limited to signed-in users, private to itself and site admins.
 * Organization membership widens this for organizations (applied by the org service).
 */
export function canSeeUser(viewer: Viewer, target: Target, opts: { system?: boolean; isMember?: boolean } = {}): boolean {
  return opts.system === true || canSeeOwner(viewer, target, opts.isMember ?? false);
}

/** The visibilities a viewer may list (for list queries). */
export function visibleVisibilities(viewer: Viewer): Models.Visibility[] {
  if (viewer?.isAdmin) return ['PUBLIC', 'LIMITED', 'PRIVATE'];
  if (viewer && !viewer.isRestricted) return ['PUBLIC', 'LIMITED'];
  return ['PUBLIC'];
}

type Account = Pick<Models.User, 'id' | 'email' | 'keepEmailPrivate'>;

/** Private account fields (admin flag, login name, last login, active, prohibit-login) are for the user itself and site admins. */
export function canSeePrivateUserFields(viewer: Pick<Models.User, 'id' | 'isAdmin'> | null, user: Pick<Models.User, 'id'>): boolean {
  return viewer !== null && (viewer.isAdmin || viewer.id === user.id);
}

/** The e-mail address the viewer may see: none for anonymous viewers, none when kept private (except for self and admins). */
export function visibleEmail(viewer: Pick<Models.User, 'id' | 'isAdmin'> | null, user: Account): string | null {
  if (!viewer) return null;
  return !user.keepEmailPrivate || canSeePrivateUserFields(viewer, user) ? user.email : null;
}
