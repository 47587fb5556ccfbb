// Actions secrets (Gitea services/secrets, routers/api/v1/{repo,org,user}/action.go): set, list (names only)
// and delete at repository, organization or user level; values are encrypted at rest and only runners see them.
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { decryptSecret, encryptSecret } from './secretCipher.ts';
import { normalizeLineBreaks, settingName } from './settingsNames.ts';
import { requireSettingsScope, type SettingsRef, type SettingsScope } from './settingsScope.ts';

/** Gitea SecretDataMaxLength and SecretDescriptionMaxLength. */
const MAX_DATA = 65536;
const MAX_DESCRIPTION = 4096;

/** A secret as the API shows it: never its value. */
export type SecretView = Pick<Models.ActionSecret, 'name' | 'description' | 'createdAt'>;

const scopeWhere = (scope: SettingsScope) => ({ ownerId: scope.ownerId, repoId: scope.repoId });

/** The scope's secrets by name. */
export async function listSecrets(cx: ServiceContext, ref: SettingsRef, page: ListOptions): Promise<Page<SecretView>> {
  const where = scopeWhere(await requireSettingsScope(cx, ref, 'read'));
  const [items, total] = await Promise.all([
    cx.db.actionSecret.findMany({
      where,
      orderBy: { name: 'asc' },
      ...skipTake(page),
      select: { name: true, description: true, createdAt: true },
    }),
    cx.db.actionSecret.count({ where }),
  ]);
  return { items, total };
}

/**
 * PUT: creates the secret or replaces its value and description; `created` tells which (201 or 204).
 * @throws InvalidArgumentError (name, too long)
 */
export async function setSecret(
  cx: ServiceContext,
  ref: SettingsRef,
  input: { name: string; data: string; description: string },
): Promise<{ created: boolean }> {
  const scope = await requireSettingsScope(cx, ref, 'write');
  const name = settingName(input.name);
  const data = normalizeLineBreaks(input.data);
  if (data.length > MAX_DATA) throw new InvalidArgumentError('data too long');
  if (input.description.length > MAX_DESCRIPTION) throw new InvalidArgumentError('description too long');
  const sealed = encryptSecret(cx.config.secretKey, data);
  const where = { ...scopeWhere(scope), name };
  return cx.db.$transaction(async (tx) => {
    const updated = await tx.actionSecret.updateMany({ where, data: { data: sealed, description: input.description } });
    if (updated.count) return { created: false };
    await tx.actionSecret.create({ data: { ...where, data: sealed, description: input.description } });
    return { created: true };
  });
}

/** DELETE. @throws InvalidArgumentError (name), NotFoundError "secret not found" */
export async function deleteSecret(cx: ServiceContext, ref: SettingsRef, rawName: string): Promise<void> {
  const scope = await requireSettingsScope(cx, ref, 'write');
  const name = settingName(rawName);
  const { count } = await cx.db.actionSecret.deleteMany({ where: { ...scopeWhere(scope), name } });
  if (!count) throw new NotFoundError('secret not found');
}

/**
 * The secrets a task receives (Gitea GetSecretsOfTask): GITHUB_TOKEN and GITEA_TOKEN = the task token, then the
 * owner's and the repository's (the repository's win); a fork's pull request (but `pull_request_target`) gets the
 * two tokens only.
 */
export async function secretsOfTask(
  cx: ServiceContext,
  run: Pick<Models.ActionRun, 'repoId' | 'ownerId' | 'isForkPullRequest' | 'triggerEvent'>,
  token: string,
): Promise<Record<string, string>> {
  const secrets: Record<string, string> = { GITHUB_TOKEN: token, GITEA_TOKEN: token };
  if (run.isForkPullRequest && run.triggerEvent !== 'pull_request_target') return secrets;
  const rows = await cx.db.actionSecret.findMany({ where: { OR: [{ ownerId: run.ownerId }, { repoId: run.repoId }] } });
  rows.sort((a, b) => Number(a.repoId !== null) - Number(b.repoId !== null));
  for (const row of rows) {
    const value = decryptSecret(cx.config.secretKey, row.data);
    if (value !== null) secrets[row.name] = value;
  }
  return secrets;
}
