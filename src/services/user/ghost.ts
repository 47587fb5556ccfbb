import type { Models } from '../../db/client.ts';
import { systemUserRow } from '../../db/systemUser.ts';

/** The id of Gitea's Ghost user (user.NewGhostUser), which stands in for a deleted account. */
export const GHOST_USER_ID = -1;

/**
 * Gitea's Ghost user as a user row (id -1, login "Ghost"): what the API answers for an account that was deleted
 * where a user must be named. It has no row, so lookups by its id find nothing.
 */
export function ghostUser(): Models.User {
  return systemUserRow({ id: GHOST_USER_ID, type: 'INDIVIDUAL', name: 'Ghost' });
}
