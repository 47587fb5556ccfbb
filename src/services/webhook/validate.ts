// Gitea's checks on a hook's options (routers/api/v1/utils/hook.go checkCreateHookOption, addHook, editHook).
import { InvalidArgumentError, ValidationError } from '../../errors.ts';

/** Gitea's hook types (modules/webhook/type.go), as the API spells them. */
export const HOOK_TYPES = [
  'gitea',
  'gogs',
  'slack',
  'discord',
  'dingtalk',
  'telegram',
  'msteams',
  'feishu',
  'matrix',
  'wechatwork',
  'packagist',
] as const;

/** One hook type. */
export type HookTypeName = (typeof HOOK_TYPES)[number];

/** Slack's extra settings (Gitea SlackMeta), stored in Webhook.meta. */
export interface SlackMeta {
  channel: string;
  username: string;
  icon_url: string;
  color: string;
}

/** Gitea validation.IsValidURL: an absolute http(s) URL. */
export function isValidHookUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Gitea IsValidSlackChannel: `#name` or `name`, not empty, no spaces. */
function isValidSlackChannel(channel: string): boolean {
  const name = channel.startsWith('#') ? channel.slice(1) : channel;
  return name !== '' && !/\s/.test(name);
}

/** Gitea's type check (422 `Invalid hook type: <t>`). @throws ValidationError */
export function checkHookType(type: string): HookTypeName {
  if (!(HOOK_TYPES as readonly string[]).includes(type)) throw new ValidationError(`Invalid hook type: ${type}`);
  return type as HookTypeName;
}

/** Gitea checkCreateHookOption's config checks, in its order. @throws ValidationError */
export function checkCreateConfig(config: Record<string, string>): void {
  for (const name of ['url', 'content_type']) if (!(name in config)) throw new ValidationError(`Missing config option: ${name}`);
  if (!isContentType(config.content_type ?? '')) throw new ValidationError('Invalid content type');
  if (!isValidHookUrl(config.url ?? '')) throw new ValidationError('Invalid url');
}

/** `json` or `form`. */
export function isContentType(ct: string): ct is 'json' | 'form' {
  return ct === 'json' || ct === 'form';
}

/** Gitea's `config.is_system_webhook`: absent or empty = false; not a Go bool → 422. @throws ValidationError */
export function parseSystemFlag(value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new ValidationError('Invalid is_system_webhook value');
}

/** Slack settings from a create's config: the channel is required (422) and must be a valid name (400). @throws ValidationError, InvalidArgumentError */
export function slackMetaFromConfig(config: Record<string, string>, required: boolean): SlackMeta | null {
  const raw = config.channel;
  if (raw === undefined) {
    if (required) throw new ValidationError('Missing config option: channel');
    return null;
  }
  const channel = raw.trim();
  if (required && !isValidSlackChannel(channel)) throw new InvalidArgumentError('Invalid slack channel name');
  return { channel, username: config.username ?? '', icon_url: config.icon_url ?? '', color: config.color ?? '' };
}

/** Reads stored slack settings. */
export function parseSlackMeta(meta: string): SlackMeta {
  try {
    const v = JSON.parse(meta || '{}') as Partial<SlackMeta>;
    return { channel: v.channel ?? '', username: v.username ?? '', icon_url: v.icon_url ?? '', color: v.color ?? '' };
  } catch {
    return { channel: '', username: '', icon_url: '', color: '' };
  }
}
