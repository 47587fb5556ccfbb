// Runner registration tokens (Gitea models/actions/runner_token.go): one active token per scope, reused until
// replaced. The database keeps the token's sha256 (Register looks it up by that) and a random seed; the token
// itself is HMAC(SECRET_KEY, seed), so the API can hand out the same token again without storing it.
import { createHmac, randomBytes } from 'node:crypto';
import type { ScopeLevel } from '../../auth/scope.ts';
import type { ServiceContext } from '../context.ts';
import { requireRunnersScope, type RunnersRef } from './settingsScope.ts';
import { registrationTokenKey } from './secrets.ts';

/** Where runners registered with a token belong: the instance (both null), an owner, or a repository. */
interface RunnerScope {
  ownerId: number | null;
  repoId: number | null;
}

const GLOBAL_SCOPE: RunnerScope = { ownerId: null, repoId: null };

const tokenOfSeed = (secretKey: string, seed: string): string =>
  createHmac('sha256', secretKey).update(`forgegraph actions runner registration token\0${seed}`).digest('hex').slice(0, 40);

/** The latest active token of the scope, or a new one (Gitea GetRegistrationToken). */
async function tokenOfScope(cx: ServiceContext, scope: RunnerScope): Promise<string> {
  const latest = await cx.db.actionRunnerToken.findFirst({
    where: { ownerId: scope.ownerId, repoId: scope.repoId, deletedAt: null },
    orderBy: { id: 'desc' },
  });
  if (latest?.isActive) {
    if (latest.tokenSeed) return tokenOfSeed(cx.config.secretKey, latest.tokenSeed);
    const seeded = cx.config.runnerRegistrationToken;
    if (seeded && registrationTokenKey(seeded) === latest.token) return seeded;
  }
  const tokenSeed = randomBytes(20).toString('hex');
  const token = tokenOfSeed(cx.config.secretKey, tokenSeed);
  await insertToken(cx, scope, registrationTokenKey(token), tokenSeed);
  return token;
}

/** Stores a token as the scope's active one; older tokens of the scope stop registering runners. */
async function insertToken(cx: ServiceContext, scope: RunnerScope, key: string, tokenSeed: string): Promise<void> {
  await cx.db.$transaction(async (tx) => {
    await tx.actionRunnerToken.updateMany({ where: { ...scope, isActive: true }, data: { isActive: false } });
    await tx.actionRunnerToken.create({ data: { ...scope, token: key, tokenSeed, isActive: true } });
  });
}

/**
 * GET|POST …/actions/runners/registration-token of the instance (site admins), a repository (its admins), an
 * organization (its owners) or the user: runners registered with it run that scope's jobs only.
 */
export async function registrationToken(cx: ServiceContext, ref: RunnersRef, level: ScopeLevel): Promise<string> {
  return tokenOfScope(cx, (await requireRunnersScope(cx, ref, level)) ?? GLOBAL_SCOPE);
}

/**
 * Server start with GITEA_RUNNER_REGISTRATION_TOKEN: that exact value becomes the active instance token (Gitea
 * initGlobalRunnerToken; the configuration checked its length).
 */
export async function seedInstanceRegistrationToken(cx: ServiceContext, token: string): Promise<void> {
  const key = registrationTokenKey(token);
  const existing = await cx.db.actionRunnerToken.findUnique({ where: { token: key } });
  if (existing?.isActive && !existing.deletedAt) return;
  if (existing) await cx.db.actionRunnerToken.delete({ where: { id: existing.id } });
  await insertToken(cx, GLOBAL_SCOPE, key, '');
}
