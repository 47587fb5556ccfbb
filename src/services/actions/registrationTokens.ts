// Runner registration tokens (Gitea models/actions/runner_token.go): one active token per scope, reused until replaced.
import { randomBytes } from 'node:crypto';
import type { DbTx } from '../../db/client.ts';
import { InvalidArgumentError } from '../../errors.ts';
import { requireSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { openSecret, sealSecret } from '../webhook/secretBox.ts';
import { registrationTokenKey } from './secrets.ts';

/** Where runners registered with a token belong: the instance (both null), an owner, or a repository. */
export interface RunnerScope {
  ownerId: number | null;
  repoId: number | null;
}

export const GLOBAL_SCOPE: RunnerScope = { ownerId: null, repoId: null };

/** The latest active token of the scope, or a new one (Gitea GetRegistrationToken). */
async function tokenOfScope(cx: ServiceContext, scope: RunnerScope): Promise<string> {
  const latest = await cx.db.actionRunnerToken.findFirst({
    where: { ownerId: scope.ownerId, repoId: scope.repoId, deletedAt: null },
    orderBy: { id: 'desc' },
  });
  if (latest?.isActive && latest.tokenSealed) return openSecret(cx.config.secretKey, latest.tokenSealed);
  const token = randomBytes(20).toString('hex');
  await cx.db.$transaction((tx) => insertToken(tx, cx.config.secretKey, scope, token));
  return token;
}

/** Stores `token` as the scope's active token; older tokens of the scope stop registering runners. */
async function insertToken(tx: DbTx, secretKey: string, scope: RunnerScope, token: string): Promise<void> {
  await tx.actionRunnerToken.updateMany({
    where: { ownerId: scope.ownerId, repoId: scope.repoId, isActive: true },
    data: { isActive: false },
  });
  await tx.actionRunnerToken.create({
    data: { ...scope, token: registrationTokenKey(token), tokenSealed: sealSecret(secretKey, token), isActive: true },
  });
}

/** POST /admin/actions/runners/registration-token. */
export async function instanceRegistrationToken(cx: ServiceContext): Promise<string> {
  requireSiteAdmin(cx, 'write');
  return tokenOfScope(cx, GLOBAL_SCOPE);
}

/** Owner- or repository-level token, after the caller's rights on that scope were checked by the caller. */
export async function scopedRegistrationToken(cx: ServiceContext, scope: RunnerScope): Promise<string> {
  return tokenOfScope(cx, scope);
}

/**
 * Server start with GITEA_RUNNER_REGISTRATION_TOKEN: that exact value becomes the active instance token (Gitea
 * initGlobalRunnerToken); it must be at least 32 characters.
 */
export async function seedInstanceRegistrationToken(cx: ServiceContext, token: string): Promise<void> {
  if (token.length < 32) throw new InvalidArgumentError('GITEA_RUNNER_REGISTRATION_TOKEN must be at least 32 characters');
  const existing = await cx.db.actionRunnerToken.findUnique({ where: { token: registrationTokenKey(token) } });
  if (existing?.isActive) return;
  if (existing) {
    await cx.db.actionRunnerToken.update({ where: { id: existing.id }, data: { isActive: true, deletedAt: null } });
    return;
  }
  await cx.db.$transaction((tx) => insertToken(tx, cx.config.secretKey, GLOBAL_SCOPE, token));
}
