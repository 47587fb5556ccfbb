// A hook's deliveries (beyond Gitea: GitHub's /hooks/{id}/deliveries as the model), redelivery and test
// deliveries. Deliveries are HookTask rows; sending them is the webhook.deliver job (src/webhooks).
import { randomUUID } from 'node:crypto';
import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import type { Config } from '../../config.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { resolveHookScope, type HookScope } from './hookScope.ts';
import { WEBHOOK_DELIVER, WEBHOOK_PREPARE, type TestEvent } from './jobKinds.ts';
import { findScopedHook } from './webhook.ts';
import { isDbId } from '../dbId.ts';

/** A delivery with the hook it belongs to. */
export type DeliveryView = Models.HookTask;

/** The deliveries of one hook, newest first. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function listDeliveries(
  cx: ServiceContext,
  scope: HookScope,
  hookId: number,
  opts: ListOptions | ListWindow,
): Promise<Page<DeliveryView>> {
  const resolved = await resolveHookScope(cx, scope, 'read');
  const hook = await findScopedHook(cx, resolved, hookId);
  const where = { hookId: hook.id };
  const [items, total] = await Promise.all([
    cx.db.hookTask.findMany({ where, orderBy: { id: 'desc' }, ...skipTake(opts) }),
    cx.db.hookTask.count({ where }),
  ]);
  return { items, total };
}

/** One delivery of a hook. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function getDelivery(cx: ServiceContext, scope: HookScope, hookId: number, deliveryId: number): Promise<DeliveryView> {
  const resolved = await resolveHookScope(cx, scope, 'read');
  const hook = await findScopedHook(cx, resolved, hookId);
  const task = isDbId(deliveryId) ? await cx.db.hookTask.findFirst({ where: { id: deliveryId, hookId: hook.id } }) : null;
  if (!task) throw new NotFoundError('not found', { deliveryId });
  return task;
}

/** The hook of a delivery, by delivery id (GraphQL). @throws NotFoundError */
export async function locateDelivery(cx: ServiceContext, deliveryId: number): Promise<{ hookId: number }> {
  const task = isDbId(deliveryId) ? await cx.db.hookTask.findUnique({ where: { id: deliveryId }, select: { hookId: true } }) : null;
  if (!task) throw new NotFoundError('not found', { deliveryId });
  return task;
}

/** Writes a delivery and queues its sending, in the caller's transaction. */
export async function queueDelivery(
  db: DbLike,
  config: Pick<Config, 'webhook'>,
  data: { hookId: number; eventType: string; payloadContent: string; isRedelivery?: boolean },
): Promise<Models.HookTask> {
  const task = await db.hookTask.create({ data: { ...data, uuid: randomUUID() } });
  await enqueue(db, WEBHOOK_DELIVER, { taskId: task.id }, { maxAttempts: config.webhook.maxAttempts });
  return task;
}

/**
 * Sends a delivery again (Gitea ReplayHookTask): a new delivery with a copy of the payload and a new id.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function redeliver(cx: ServiceContext, scope: HookScope, hookId: number, deliveryId: number): Promise<DeliveryView> {
  const resolved = await resolveHookScope(cx, scope, 'write');
  const hook = await findScopedHook(cx, resolved, hookId);
  const task = isDbId(deliveryId) ? await cx.db.hookTask.findFirst({ where: { id: deliveryId, hookId: hook.id } }) : null;
  if (!task) throw new NotFoundError('not found', { deliveryId });
  return withTx(cx, (tx) =>
    queueDelivery(tx, cx.config, { hookId: hook.id, eventType: task.eventType, payloadContent: task.payloadContent, isRedelivery: true }),
  );
}

/**
 * Gitea TestHook: queues a `push` delivery of the head commit of `ref` (default: the default branch) to this
 * hook, whatever its events and branch filter; an empty repository sends nothing. Repository hooks only.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function testHook(cx: ServiceContext, scope: HookScope, hookId: number, ref: string | undefined): Promise<void> {
  const resolved = await resolveHookScope(cx, scope, 'write');
  const hook = await findScopedHook(cx, resolved, hookId);
  const repo = resolved.repo;
  if (!repo || repo.isEmpty) return;
  const event: TestEvent = {
    type: 'webhook.test',
    hookId: hook.id,
    repoId: repo.id,
    ref: ref || repo.defaultBranch,
    actorId: cx.viewer?.id ?? 0,
  };
  await withTx(cx, (tx) => enqueue(tx, WEBHOOK_PREPARE, { event, at: new Date().toISOString() }));
}
