// Runners (Gitea models/actions/runner.go, routers/api/actions/runner): registration, declaration, the
// authentication of every other runner call, and the administrators' list/get/edit/delete.
import { randomUUID } from 'node:crypto';
import type { ScopeLevel } from '../../auth/scope.ts';
import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { newSaltedToken, registrationTokenKey, tokenMatches } from './secrets.ts';
import { requireRunnersScope, type RunnersRef } from './settingsScope.ts';
import { bumpTasksVersion } from './tasksVersion.ts';

/** Persist last_online only when older than this (Gitea RunnerHeartbeatInterval). */
const HEARTBEAT_MS = 30_000;
const OFFLINE_AFTER_MS = 60_000;
const IDLE_AFTER_MS = 10_000;

export type RunnerState = 'idle' | 'active' | 'offline';

/** Gitea runner.Status: offline after a minute of silence, active while it reported on a task in the last 10 s. */
export function runnerState(runner: Models.ActionRunner, now = Date.now()): RunnerState {
  if (!runner.lastOnline || now - runner.lastOnline.getTime() > OFFLINE_AFTER_MS) return 'offline';
  if (!runner.lastActive || now - runner.lastActive.getTime() > IDLE_AFTER_MS) return 'idle';
  return 'active';
}

export function runnerLabels(runner: Models.ActionRunner): string[] {
  const labels: unknown = JSON.parse(runner.agentLabels);
  return Array.isArray(labels) ? labels.filter((l): l is string => typeof l === 'string') : [];
}

/** The runner strips `:docker://image` from labels such as `ubuntu-latest:docker://node:20`; only names are stored. */
const labelNames = (labels: readonly string[]): string[] => [...new Set(labels.map((l) => l.split(':')[0] ?? '').filter(Boolean))];

export interface RegisterInput {
  name: string;
  token: string;
  version: string;
  labels: readonly string[];
  ephemeral: boolean;
  capabilities: readonly string[];
}

/** Register: a registration token (which stays active) makes a runner row with its own secret token. */
export async function registerRunner(cx: ServiceContext, input: RegisterInput): Promise<{ runner: Models.ActionRunner; token: string }> {
  if (!input.token || !input.name) throw new ValidationError('missing runner token, name');
  const regToken = await cx.db.actionRunnerToken.findUnique({ where: { token: registrationTokenKey(input.token) } });
  if (!regToken || regToken.deletedAt) throw new NotFoundError('runner registration token not found');
  if (!regToken.isActive) throw new PermissionDeniedError('runner registration token has been invalidated, please use the latest one');
  const secret = newSaltedToken();
  const runner = await cx.db.actionRunner.create({
    data: {
      uuid: randomUUID(),
      name: input.name.slice(0, 255),
      version: input.version,
      ownerId: regToken.ownerId,
      repoId: regToken.repoId,
      agentLabels: JSON.stringify(labelNames(input.labels)),
      ephemeral: input.ephemeral,
      hasCancelling: input.capabilities.includes('cancelling'),
      tokenHash: secret.hash,
      tokenSalt: secret.salt,
    },
  });
  return { runner, token: secret.token };
}

/**
 * The runner behind `x-runner-uuid` and `x-runner-token` (Gitea's interceptor); refreshes last_online at most
 * every 30 s. @throws UnauthenticatedError "unregistered runner"
 */
export async function authenticateRunner(cx: ServiceContext, uuid: string, token: string, active = false): Promise<Models.ActionRunner> {
  const runner = uuid && token ? await cx.db.actionRunner.findUnique({ where: { uuid } }) : null;
  if (!runner || runner.deletedAt || !tokenMatches(token, runner.tokenSalt, runner.tokenHash))
    throw new UnauthenticatedError('unregistered runner');
  const now = new Date();
  const data: { lastOnline?: Date; lastActive?: Date } = {};
  if (!runner.lastOnline || now.getTime() - runner.lastOnline.getTime() > HEARTBEAT_MS) data.lastOnline = now;
  if (active && (!runner.lastActive || now.getTime() - runner.lastActive.getTime() > 5_000)) data.lastActive = now;
  if (!data.lastOnline && !data.lastActive) return runner;
  return cx.db.actionRunner.update({ where: { id: runner.id }, data });
}

/** Declare: the runner's labels, version and capabilities as its daemon starts. */
export async function declareRunner(
  cx: ServiceContext,
  runner: Models.ActionRunner,
  input: { version: string; labels: readonly string[]; capabilities: readonly string[] },
): Promise<Models.ActionRunner> {
  const updated = await cx.db.actionRunner.update({
    where: { id: runner.id },
    data: {
      version: input.version,
      agentLabels: JSON.stringify(labelNames(input.labels)),
      hasCancelling: input.capabilities.includes('cancelling'),
    },
  });
  await bumpTasksVersion(cx.db);
  return updated;
}

// ---------------------------------------------------------------------------------------------------------
// Administration: /admin/actions/runners (every runner) and the repository, organization and user ones

const STATE_RANK: Record<RunnerState, number> = { active: 0, idle: 1, offline: 2 };

/** The runners of the scope, Gitea's order: status, enabled first, last online, id. */
export async function listRunners(
  cx: ServiceContext,
  ref: RunnersRef,
  disabled: boolean | null,
  page: ListOptions,
): Promise<Page<Models.ActionRunner>> {
  const scope = await requireRunnersScope(cx, ref, 'read');
  const where = { deletedAt: null, ...(scope ?? {}), ...(disabled === null ? {} : { isDisabled: disabled }) };
  const [rows, total] = await Promise.all([cx.db.actionRunner.findMany({ where }), cx.db.actionRunner.count({ where })]);
  const now = Date.now();
  rows.sort(
    (a, b) =>
      STATE_RANK[runnerState(a, now)] - STATE_RANK[runnerState(b, now)] ||
      Number(a.isDisabled) - Number(b.isDisabled) ||
      (b.lastOnline?.getTime() ?? 0) - (a.lastOnline?.getTime() ?? 0) ||
      a.id - b.id,
  );
  const { skip, take } = skipTake(page);
  return { items: rows.slice(skip, skip + take), total };
}

/** A runner of the scope (Gitea getRunnerByID + EditableInContext). @throws NotFoundError */
async function runnerById(cx: ServiceContext, ref: RunnersRef, id: number, level: ScopeLevel): Promise<Models.ActionRunner> {
  const scope = await requireRunnersScope(cx, ref, level);
  const runner = Number.isSafeInteger(id) && id > 0 ? await cx.db.actionRunner.findFirst({ where: { id, deletedAt: null } }) : null;
  if (!runner) throw new NotFoundError(`runner with id ${id}: resource does not exist`);
  if (scope && (runner.ownerId !== scope.ownerId || runner.repoId !== scope.repoId)) {
    throw new NotFoundError('No permission to access this runner');
  }
  return runner;
}

export async function getRunner(cx: ServiceContext, ref: RunnersRef, id: number): Promise<Models.ActionRunner> {
  return runnerById(cx, ref, id, 'read');
}

/** PATCH {disabled}: a disabled runner gets no new task; toggling bumps the tasks version. */
export async function setRunnerDisabled(cx: ServiceContext, ref: RunnersRef, id: number, disabled: boolean): Promise<Models.ActionRunner> {
  const runner = await runnerById(cx, ref, id, 'write');
  if (runner.isDisabled === disabled) return runner;
  const updated = await cx.db.actionRunner.update({ where: { id }, data: { isDisabled: disabled } });
  await bumpTasksVersion(cx.db);
  return updated;
}

/** DELETE: soft delete; the runner's calls are unauthenticated from now on. */
export async function deleteRunner(cx: ServiceContext, ref: RunnersRef, id: number): Promise<void> {
  await runnerById(cx, ref, id, 'write');
  await cx.db.actionRunner.update({ where: { id }, data: { deletedAt: new Date() } });
}
