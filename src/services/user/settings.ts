// The signed-in user's own settings (Gitea GET/PATCH /user/settings) and the token a request is made with
// (Gitea GET/DELETE /token).
import { userUpdatePlan } from './updatePlan.ts';
import type { Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireTokenScope, requireViewer, requireWriter } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { validateMaxSize, validateWebsite } from './validate.ts';

/** Gitea UserSettingsOptions: only given fields change. */
export interface UserSettingsInput {
  fullName?: string;
  website?: string;
  description?: string;
  location?: string;
  language?: string;
  theme?: string;
  diffViewStyle?: string;
  hideEmail?: boolean;
  hideActivity?: boolean;
}

/** The viewer, whose settings these are (Gitea reqToken under the user scope). @throws UnauthenticatedError, PermissionDeniedError */
export function getUserSettings(cx: ServiceContext): Models.User {
  requireTokenScope(cx, 'user', 'read');
  return requireViewer(cx);
}

/** PostgreSQL text cannot hold NUL: bad input. @throws ValidationError */
function requireNoNul(value: string | undefined, field: string): void {
  if (value?.includes('\u0000')) throw new ValidationError('Invalid', { field, rule: 'Invalid' });
}

/**
 * Changes the viewer's settings (PATCH /user/settings, Gitea UpdateUserSettings): Gitea's bindings (full name
 * ≤ 100, website an http(s) URL ≤ 255, description ≤ 255, location ≤ 50) and its column sizes as errors rather
 * than failed writes (language ≤ 5, theme ≤ 30, diff view style ≤ 255). `hide_email` and `hide_activity` are the
 * privacy switches every e-mail and activity read honours. Returns the updated user.
 * @throws UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function updateUserSettings(cx: ServiceContext, input: UserSettingsInput): Promise<Models.User> {
  const viewer = requireWriter(cx, 'write:user');
  const limits: Array<[keyof UserSettingsInput, string, number]> = [
    ['fullName', 'full_name', 100],
    ['website', 'website', 255],
    ['description', 'description', 255],
    ['location', 'location', 50],
    ['language', 'language', 5],
    ['theme', 'theme', 30],
    ['diffViewStyle', 'diff_view_style', 255],
  ];
  for (const [key, field, max] of limits) {
    const value = input[key] as string | undefined;
    requireNoNul(value, field);
    validateMaxSize(value, max, field);
  }
  validateWebsite(input.website);
  const { data, fields, set } = userUpdatePlan();
  set('fullName', input.fullName, 'full_name');
  set('website', input.website, 'website');
  set('description', input.description, 'description');
  set('location', input.location, 'location');
  set('language', input.language, 'language');
  set('theme', input.theme, 'theme');
  set('diffViewStyle', input.diffViewStyle, 'diff_view_style');
  set('keepEmailPrivate', input.hideEmail, 'hide_email');
  set('keepActivityPrivate', input.hideActivity, 'hide_activity');
  if (!fields.length) return viewer;
  return withTx(cx, async (tx, emit) => {
    const user = await tx.user.update({ where: { id: viewer.id }, data });
    emit({ type: 'user.updated', userId: user.id, actorId: viewer.id, fields });
    return user;
  });
}

/** The access token a request is made with, and its owner. */
export interface CurrentToken {
  token: Models.AccessToken;
  owner: Models.User;
}

/**
 * The token the request is signed in with (GET /token, Gitea GetCurrentToken): 404 `invalid personal token`
 * when the request carries no personal access token (anonymous, a password, an Actions task token), as Gitea.
 * Any scope may read it. @throws NotFoundError
 */
export async function getCurrentToken(cx: ServiceContext): Promise<CurrentToken> {
  const tokenId = cx.auth.method === 'token' ? cx.auth.tokenId : null;
  if (tokenId === null) throw new NotFoundError('invalid personal token');
  const token = await cx.db.accessToken.findUnique({ where: { id: tokenId }, include: { user: true } });
  if (!token) throw new NotFoundError('token not found', { tokenId });
  const { user: owner, ...row } = token;
  return { token: row, owner };
}

/**
 * Revokes the token the request is signed in with (DELETE /token, Gitea DeleteCurrentToken): the same 404s as
 * getCurrentToken; any scope may revoke itself. Later requests with it are refused at once (the token cache
 * forgets it with the row).
 * @throws NotFoundError
 */
export async function deleteCurrentToken(cx: ServiceContext): Promise<void> {
  const { token } = await getCurrentToken(cx);
  await withTx(cx, async (tx, emit) => {
    const { count } = await tx.accessToken.deleteMany({ where: { id: token.id } });
    if (!count) throw new NotFoundError('not found', { tokenId: token.id });
    emit({ type: 'accessToken.deleted', userId: token.userId, tokenId: token.id, actorId: cx.viewer?.id ?? null });
  });
}
