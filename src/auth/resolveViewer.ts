import type { Db, Models } from '../db/client.ts';
import { isDomainError } from '../errors.ts';
import type { AuthInfo } from './authInfo.ts';
import { accountBlock, authenticate } from './authenticate.ts';
import type { Credentials } from './credentials.ts';

/** The viewer of a request, or why the request must be refused before routing. */
export type ViewerResolution =
  | { ok: true; user: Models.User | null; auth: AuthInfo }
  /** `bare`: Gitea sends these bodies without the `url` field. */
  | { ok: false; status: number; message: string; bare: boolean };

/**
 * Shared by every transport, in Gitea's order: authenticate (bad credentials → 401), account gates
 * (inactive, prohibited, must change password → 403), then Sudo (site admins only → 403; unknown user → 404).
 */
export async function resolveViewer(db: Db, rootUrl: string, creds: Credentials, sudo: string | undefined): Promise<ViewerResolution> {
  let outcome;
  try {
    outcome = await authenticate(db, creds);
  } catch (err) {
    if (isDomainError(err)) return { ok: false, status: 401, message: err.message, bare: false };
    throw err;
  }
  const auth = { ...outcome.auth };
  let user = outcome.user;
  if (user) {
    const blocked = accountBlock(user, rootUrl);
    if (blocked) return { ok: false, status: 403, message: blocked, bare: true };
  }
  if (sudo) {
    if (!user?.isAdmin) return { ok: false, status: 403, message: 'Only administrators allowed to sudo.', bare: true };
    const target = await db.user.findUnique({ where: { lowerName: sudo.toLowerCase() } });
    if (!target) return { ok: false, status: 404, message: 'not found', bare: false };
    auth.sudoerId = user.id;
    user = target;
  }
  return { ok: true, user, auth };
}
