import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { editRepo, type EditedRepo, type EditRepoInput } from '../repo/edit.ts';

import { openCredentials, sealCredentials } from './credentials.ts';

/** PATCH's mirror credentials (Gitea EditRepoOption mirror_username, mirror_password, mirror_token). */
export interface MirrorCredentialsEdit {
  username?: string;
  password?: string;
  token?: string;
}

/**
 * PATCH /repos/{o}/{r}: the repository edit, then, on a pull mirror, its credentials re-sealed as Gitea
 * changes them: a token replaces user and password (the user name is cleared); a password alone keeps the user
 * name. Ignored on repositories that are not mirrors.
 * @throws what editRepo throws
 */
export async function editRepoWithMirror(
  cx: ServiceContext,
  ref: RepoRef,
  input: EditRepoInput,
  credentials: MirrorCredentialsEdit,
): Promise<EditedRepo> {
  const result = await editRepo(cx, ref, input);
  const { username, password, token } = credentials;
  if (!result.repo.isMirror || (username === undefined && password === undefined && token === undefined)) return result;
  const mirror = await cx.db.mirror.findUnique({ where: { repoId: result.repo.id } });
  if (!mirror) return result;
  const current = openCredentials(cx.config.secretKey, mirror.credentialsEncrypted);
  const next =
    token !== undefined && token !== ''
      ? { username: '', password: '', token }
      : { username: username ?? current.username, password: password ?? current.password, token: '' };
  await cx.db.mirror.update({ where: { id: mirror.id }, data: { credentialsEncrypted: sealCredentials(cx.config.secretKey, next) } });
  return result;
}
