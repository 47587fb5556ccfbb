// Webhook delivery settings (Gitea `[webhook]` and `[security] ALLOWED_HOST_LIST`), read from the environment.
import { parseDuration } from '../jobs/duration.ts';

/** Config.webhook. */
export interface WebhookConfig {
  /** WEBHOOK_ALLOWED_HOST_LIST: Gitea's ALLOWED_HOST_LIST entries (`external` by default). */
  allowedHostList: string[];
  /** WEBHOOK_DELIVER_TIMEOUT (Gitea DELIVER_TIMEOUT, 5s). */
  deliverTimeoutMs: number;
  /** WEBHOOK_SKIP_TLS_VERIFY (Gitea SKIP_TLS_VERIFY). */
  skipTlsVerify: boolean;
  /** WEBHOOK_MAX_ATTEMPTS: tries of one delivery before it is given up (Gitea tries once). */
  maxAttempts: number;
  /** WEBHOOK_RETRY_BASE / WEBHOOK_RETRY_MAX: first retry delay, doubled per attempt, and its cap. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** WEBHOOK_DISABLED (Gitea DISABLE_WEBHOOKS): the hook API answers 403 and nothing is delivered. */
  disabled: boolean;
  /** Response bodies are stored up to this many bytes (Gitea: 1 MiB). */
  maxResponseBytes: number;
}

type Env = NodeJS.ProcessEnv;

function duration(env: Env, key: string, fallback: string): number {
  try {
    return parseDuration(env[key]?.trim() || fallback);
  } catch (err) {
    throw new Error(`${key}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function bool(env: Env, key: string): boolean {
  const v = env[key]?.trim().toLowerCase();
  if (!v) return false;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`${key} must be true or false, got ${env[key]}`);
}

/** Reads the WEBHOOK_* variables. */
export function loadWebhookConfig(env: Env): WebhookConfig {
  const attempts = Number(env.WEBHOOK_MAX_ATTEMPTS?.trim() || '5');
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 100) {
    throw new Error(`WEBHOOK_MAX_ATTEMPTS must be a whole number 1-100, got ${env.WEBHOOK_MAX_ATTEMPTS}`);
  }
  const list = (env.WEBHOOK_ALLOWED_HOST_LIST ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return {
    allowedHostList: list.length ? list : ['external'],
    deliverTimeoutMs: duration(env, 'WEBHOOK_DELIVER_TIMEOUT', '5s'),
    skipTlsVerify: bool(env, 'WEBHOOK_SKIP_TLS_VERIFY'),
    maxAttempts: attempts,
    retryBaseMs: duration(env, 'WEBHOOK_RETRY_BASE', '10s'),
    retryMaxMs: duration(env, 'WEBHOOK_RETRY_MAX', '1h'),
    disabled: bool(env, 'WEBHOOK_DISABLED'),
    maxResponseBytes: 1024 * 1024,
  };
}
