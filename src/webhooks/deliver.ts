// The webhook.deliver job: sends one delivery (HookTask) with Gitea's headers and signatures, records the
// attempt on the row, and leaves retries to the job engine (exponential backoff, WEBHOOK_MAX_ATTEMPTS). A
// delivery that finished (a 2xx answer, or its last attempt) is never sent again by a replayed job.
import { createHmac } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db, Models } from '../db/client.ts';
import { defineHandler, type JobHandler } from '../jobs/jobKind.ts';
import { WEBHOOK_DELIVER, type DeliverPayload } from '../services/webhook/jobKinds.ts';
import { openSecret } from '../services/webhook/secretBox.ts';
import { headerEventOf } from './events/outgoing.ts';
import { hookRequest, type HookRequest } from './formats/request.ts';
import { parseHostPolicy, type HostPolicy } from '../services/webhook/hostPolicy.ts';
import { HostNotAllowedError, sendRequest, type SendResult } from './send.ts';

/** Go's default client identifies itself so; Gitea sets no User-Agent of its own. */
const USER_AGENT = 'Go-http-client/1.1';

type TaskWithHook = Models.HookTask & { hook: Models.Webhook & { owner: Pick<Models.User, 'type'> | null } };

/** X-Gitea-Hook-Installation-Target-Type. */
function targetType(hook: TaskWithHook['hook']): string {
  if (hook.repoId !== null) return 'repository';
  if (hook.ownerId !== null) return hook.owner?.type === 'ORGANIZATION' ? 'organization' : 'user';
  return hook.isSystemWebhook ? 'system' : 'default';
}

/** Gitea addDefaultHeaders: delivery id, event and type, signatures (empty without a secret) for Gitea, Gogs and GitHub clients. */
function deliveryHeaders(task: TaskWithHook, signed: string, contentType: string, authorization: string): Record<string, string> {
  const hook = task.hook;
  const sig256 = hook.secret ? createHmac('sha256', hook.secret).update(signed).digest('hex') : '';
  const sig1 = hook.secret ? createHmac('sha1', hook.secret).update(signed).digest('hex') : '';
  const event = headerEventOf(task.eventType);
  const target = targetType(hook);
  return {
    ...(contentType ? { 'Content-Type': contentType } : {}),
    'User-Agent': USER_AGENT,
    'X-Gitea-Delivery': task.uuid,
    'X-Gitea-Event': event,
    'X-Gitea-Event-Type': task.eventType,
    'X-Gitea-Signature': sig256,
    'X-Gitea-Hook-Installation-Target-Type': target,
    'X-Gogs-Delivery': task.uuid,
    'X-Gogs-Event': event,
    'X-Gogs-Event-Type': task.eventType,
    'X-Gogs-Signature': sig256,
    'X-Hub-Signature': `sha1=${sig1}`,
    'X-Hub-Signature-256': `sha256=${sig256}`,
    'X-GitHub-Delivery': task.uuid,
    'X-GitHub-Event': event,
    'X-GitHub-Event-Type': task.eventType,
    'X-GitHub-Hook-Installation-Target-Type': target,
    ...(authorization ? { Authorization: authorization } : {}),
  };
}

/** The stored authorization header; one sealed under another SECRET_KEY is dropped rather than failing the delivery. */
function readAuthorization(secretKey: string, sealed: string): string {
  try {
    return openSecret(secretKey, sealed);
  } catch {
    return '';
  }
}

function estimateNextAttempt(config: Config['webhook'], attempt: number): Date {
  return new Date(Date.now() + Math.min(config.retryBaseMs * 2 ** Math.max(0, attempt - 1), config.retryMaxMs));
}

/**
 * The deliver job's handler: one attempt per run; throws (to be retried) while attempts remain. `observe` hears
 * each attempt's outcome (metrics).
 */
export function deliverHandler(
  db: Db,
  config: Config,
  observe: (outcome: 'succeeded' | 'failed' | 'retry') => void = () => undefined,
): JobHandler<DeliverPayload> {
  let policy: HostPolicy | null = null;
  const kind = { ...WEBHOOK_DELIVER, retry: { baseMs: config.webhook.retryBaseMs, maxMs: config.webhook.retryMaxMs } };
  return defineHandler(kind, async ({ taskId }, run) => {
    const task: TaskWithHook | null = await db.hookTask.findUnique({
      where: { id: taskId },
      include: { hook: { include: { owner: { select: { type: true } } } } },
    });
    if (!task || task.isDelivered) return;
    if (!task.hook.isActive || config.webhook.disabled) {
      // Gitea Deliver: an inactive hook's task is marked delivered and nothing is sent.
      await db.hookTask.updateMany({ where: { id: task.id, isDelivered: false }, data: { isDelivered: true, deliveredAt: new Date() } });
      return;
    }
    policy ??= parseHostPolicy(config.webhook.allowedHostList);
    let req: HookRequest;
    try {
      req = hookRequest(task.hook, task.eventType, task.payloadContent);
    } catch (err) {
      // A hook whose URL cannot be used (Gitea's edit does not check it): recorded as failed, not retried.
      const message = `Delivery: ${err instanceof Error ? err.message : String(err)}`;
      await db.$transaction(async (tx) => {
        await tx.hookTask.update({
          where: { id: task.id },
          data: {
            attempts: run.attempt,
            isDelivered: true,
            deliveredAt: new Date(),
            responseContent: JSON.stringify({ status: 0, headers: {}, body: message }),
          },
        });
        await tx.webhook.updateMany({ where: { id: task.hookId }, data: { lastStatus: 'FAIL' } });
      });
      return;
    }
    const authorization = readAuthorization(config.secretKey, task.hook.headerAuthorizationEncrypted);
    const headers = deliveryHeaders(task, req.signed, req.contentType, authorization);
    const started = Date.now();
    let result: SendResult | null = null;
    let failure: unknown = null;
    try {
      result = await sendRequest({
        url: req.url,
        method: req.method,
        headers,
        body: req.body,
        timeoutMs: config.webhook.deliverTimeoutMs,
        policy,
        skipTlsVerify: config.webhook.skipTlsVerify,
        maxResponseBytes: config.webhook.maxResponseBytes,
      });
    } catch (err) {
      failure = err;
    }
    const durationMs = Date.now() - started;
    const ok = result !== null && result.status >= 200 && result.status < 300;
    const final = ok || run.attempt >= config.webhook.maxAttempts || failure instanceof HostNotAllowedError;
    const recorded = { ...headers, ...(authorization ? { Authorization: '******' } : {}) };
    const errorText = failure instanceof Error ? failure.message : failure ? String(failure) : '';
    const data = {
      attempts: run.attempt,
      requestContent: JSON.stringify({ url: req.url, http_method: req.method, headers: recorded, body: req.body }),
      responseContent: JSON.stringify(
        result
          ? { status: result.status, headers: result.headers, body: result.body }
          : { status: 0, headers: {}, body: `Delivery: ${errorText}` },
      ),
      statusCode: result?.status ?? 0,
      durationMs,
      isSucceed: ok,
      isDelivered: final,
      deliveredAt: final ? new Date() : null,
      nextAttemptAt: final ? null : estimateNextAttempt(config.webhook, run.attempt),
    };
    // The attempt and the hook's last status in one commit; the status only when it changes.
    const status = ok ? 'SUCCEED' : 'FAIL';
    await db.$transaction(async (tx) => {
      await tx.hookTask.update({ where: { id: task.id }, data });
      if (final && task.hook.lastStatus !== status)
        await tx.webhook.updateMany({ where: { id: task.hookId }, data: { lastStatus: status } });
    });
    observe(ok ? 'succeeded' : final ? 'failed' : 'retry');
    if (!final) throw new Error(result ? `webhook delivery answered ${result.status}` : `webhook delivery failed: ${errorText}`);
  });
}
