// Webhook CRUD for every place a hook lives (Gitea routers/api/v1/utils/hook.go), with delivery figures.
import type { Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { isValidGlob } from '../glob.ts';
import { hookEventFromNames } from './hookEvents.ts';
import { resolveHookScope, type HookScope, type ResolvedScope } from './hookScope.ts';
import { sealSecret } from './secretBox.ts';
import { checkCreateConfig, checkHookType, isContentType, parseSlackMeta, parseSystemFlag, slackMetaFromConfig } from './validate.ts';
import { isDbId } from '../dbId.ts';

/** Delivery figures of a hook (beyond Gitea). */
export interface HookStats {
  succeeded: number;
  failed: number;
  pending: number;
}

/** A hook with what its JSON needs. */
export interface WebhookView {
  hook: Models.Webhook;
  scope: Pick<ResolvedScope, 'kind' | 'ownerName' | 'repoName'>;
  stats: HookStats;
}

/** Gitea CreateHookOption. */
export interface CreateHookInput {
  type: string;
  config: Record<string, string>;
  events?: string[];
  branchFilter?: string;
  authorizationHeader?: string;
  active?: boolean;
  name?: string;
}

/** Gitea EditHookOption (events, branch filter and authorization header are replaced, as Gitea's editHook does). */
export interface EditHookInput {
  config?: Record<string, string>;
  events?: string[];
  branchFilter?: string;
  authorizationHeader?: string;
  active?: boolean;
  name?: string;
  /** GraphQL: leave events, branch filter and authorization header alone when they are not given. */
  keepUnset?: boolean;
}

/** GET /admin/hooks?type=: system hooks, default (template) hooks, or both. */
export type AdminHookKind = 'system' | 'default' | 'all';

/** Delivery figures of many hooks in one query. */
async function statsOf(cx: ServiceContext, ids: readonly number[]): Promise<Map<number, HookStats>> {
  const out = new Map<number, HookStats>(ids.map((id) => [id, { succeeded: 0, failed: 0, pending: 0 }]));
  if (!ids.length) return out;
  const groups = await cx.db.hookTask.groupBy({
    by: ['hookId', 'isDelivered', 'isSucceed'],
    where: { hookId: { in: [...ids] } },
    _count: { _all: true },
  });
  for (const g of groups) {
    const s = out.get(g.hookId);
    if (!s) continue;
    const n = g._count._all;
    if (g.isSucceed) s.succeeded += n;
    else if (g.isDelivered) s.failed += n;
    else s.pending += n;
  }
  return out;
}

async function views(cx: ServiceContext, scope: ResolvedScope, hooks: readonly Models.Webhook[]): Promise<WebhookView[]> {
  const stats = await statsOf(
    cx,
    hooks.map((h) => h.id),
  );
  const s = { kind: scope.kind, ownerName: scope.ownerName, repoName: scope.repoName };
  return hooks.map((hook) => ({ hook, scope: s, stats: stats.get(hook.id) ?? { succeeded: 0, failed: 0, pending: 0 } }));
}

function adminWhere(kind: AdminHookKind): Models.Prisma.WebhookWhereInput {
  if (kind === 'default') return { isSystemWebhook: false };
  if (kind === 'all') return {};
  return { isSystemWebhook: true };
}

/**
 * The hooks of a scope, oldest first (Gitea ListWebhooksByOpts orders by id); site hooks filtered by `adminKind`.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listHooks(
  cx: ServiceContext,
  scope: HookScope,
  opts: ListOptions | ListWindow,
  adminKind: AdminHookKind = 'system',
): Promise<Page<WebhookView>> {
  const resolved = await resolveHookScope(cx, scope, 'read');
  const where = resolved.kind === 'admin' ? { ...resolved.where, ...adminWhere(adminKind) } : resolved.where;
  const [rows, total] = await Promise.all([
    cx.db.webhook.findMany({ where, orderBy: { id: 'asc' }, ...skipTake(opts) }),
    cx.db.webhook.count({ where }),
  ]);
  return { items: await views(cx, resolved, rows), total };
}

/** Loads one hook of a resolved scope. @throws NotFoundError */
export async function findScopedHook(cx: ServiceContext, resolved: ResolvedScope, id: number): Promise<Models.Webhook> {
  const hook = isDbId(id) ? await cx.db.webhook.findFirst({ where: { ...resolved.where, id } }) : null;
  if (!hook) throw new NotFoundError('not found', { hookId: id });
  return hook;
}

/** One hook of a scope. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function getHook(cx: ServiceContext, scope: HookScope, id: number): Promise<WebhookView> {
  const resolved = await resolveHookScope(cx, scope, 'read');
  const [view] = await views(cx, resolved, [await findScopedHook(cx, resolved, id)]);
  if (!view) throw new NotFoundError('not found', { hookId: id });
  return view;
}

function checkCommon(branchFilter: string | undefined, name: string | undefined): void {
  if (branchFilter !== undefined && !isValidGlob(branchFilter))
    throw new ValidationError('BranchFilter: GlobPattern', { field: 'branch_filter' });
  if (name !== undefined && name.length > 255) throw new ValidationError('Name: MaxSize', { field: 'name' });
}

/**
 * Gitea addHook: validates type and config in Gitea's order, events default to `push` and expand to their
 * groups, `active` defaults to false, the authorization header is stored encrypted. In the admin scope a hook
 * is a system hook when `config.is_system_webhook` is true, otherwise a default hook (copied into new
 * repositories); elsewhere the flag is checked and ignored.
 * @throws ValidationError (422), InvalidArgumentError (400, slack channel), NotFoundError, PermissionDeniedError
 */
export async function createHook(cx: ServiceContext, scope: HookScope, input: CreateHookInput): Promise<WebhookView> {
  const resolved = await resolveHookScope(cx, scope, 'write');
  checkCommon(input.branchFilter, input.name);
  const type = checkHookType(input.type);
  checkCreateConfig(input.config);
  const isSystem = parseSystemFlag(input.config.is_system_webhook);
  const slack = type === 'slack' ? slackMetaFromConfig(input.config, true) : null;
  const hook = await withTx(cx, (tx) =>
    tx.webhook.create({
      data: {
        ...resolved.attach,
        isSystemWebhook: resolved.kind === 'admin' && isSystem,
        name: (input.name ?? '').trim(),
        url: input.config.url ?? '',
        httpMethod: 'POST',
        contentType: input.config.content_type === 'form' ? 'FORM' : 'JSON',
        secret: input.config.secret ?? '',
        events: JSON.stringify(hookEventFromNames(input.events ?? [])),
        branchFilter: input.branchFilter ?? '',
        isActive: input.active ?? false,
        type: type.toUpperCase() as Models.HookType,
        meta: slack ? JSON.stringify(slack) : '',
        headerAuthorizationEncrypted: sealSecret(cx.config.secretKey, input.authorizationHeader ?? ''),
      },
    }),
  );
  const [view] = await views(cx, resolved, [hook]);
  return view as WebhookView;
}

/**
 * Gitea editHook: config `url`, `content_type` (checked), `secret` and slack settings when given; events,
 * branch filter and authorization header replaced (no events = `push`); `active` and `name` when given.
 * @throws ValidationError, NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function editHook(cx: ServiceContext, scope: HookScope, id: number, input: EditHookInput): Promise<WebhookView> {
  const resolved = await resolveHookScope(cx, scope, 'write');
  const hook = await findScopedHook(cx, resolved, id);
  checkCommon(input.branchFilter, input.name);
  const data: Models.Prisma.WebhookUpdateInput = {};
  const config = input.config;
  if (config) {
    if (config.url !== undefined) data.url = config.url;
    if (config.content_type !== undefined) {
      if (!isContentType(config.content_type)) throw new ValidationError('Invalid content type');
      data.contentType = config.content_type === 'form' ? 'FORM' : 'JSON';
    }
    if (config.secret !== undefined) data.secret = config.secret;
    if (hook.type === 'SLACK' && config.channel !== undefined) {
      const meta = slackMetaFromConfig(config, false) ?? parseSlackMeta(hook.meta);
      data.meta = JSON.stringify({ ...meta, channel: config.channel });
    }
  }
  if (!input.keepUnset || input.events !== undefined) data.events = JSON.stringify(hookEventFromNames(input.events ?? []));
  if (!input.keepUnset || input.branchFilter !== undefined) data.branchFilter = input.branchFilter ?? '';
  if (!input.keepUnset || input.authorizationHeader !== undefined) {
    data.headerAuthorizationEncrypted = sealSecret(cx.config.secretKey, input.authorizationHeader ?? '');
  }
  if (input.active !== undefined) data.isActive = input.active;
  if (input.name !== undefined) data.name = input.name.trim();
  const updated = await withTx(cx, (tx) => tx.webhook.update({ where: { id: hook.id }, data }));
  const [view] = await views(cx, resolved, [updated]);
  return view as WebhookView;
}

/**
 * The scope a hook lives in, by id (GraphQL addresses hooks by global id); the caller's rights are checked by
 * the operation that follows, with the scope's rules. @throws NotFoundError
 */
export async function locateHook(cx: ServiceContext, id: number): Promise<HookScope> {
  const hook = isDbId(id)
    ? await cx.db.webhook.findUnique({
        where: { id },
        include: { repo: { select: { ownerName: true, name: true } }, owner: { select: { name: true, type: true } } },
      })
    : null;
  if (!hook) throw new NotFoundError('not found', { hookId: id });
  if (hook.repo) return { kind: 'repo', repo: { owner: hook.repo.ownerName, repo: hook.repo.name } };
  if (hook.owner) return hook.owner.type === 'ORGANIZATION' ? { kind: 'org', org: hook.owner.name } : { kind: 'user' };
  return { kind: 'admin' };
}

/** The scope of a view's hook, to call the hook operations again (GraphQL fields of a hook). */
export function scopeOfView(v: WebhookView): HookScope {
  switch (v.scope.kind) {
    case 'repo':
      return { kind: 'repo', repo: { owner: v.scope.ownerName, repo: v.scope.repoName } };
    case 'org':
      return { kind: 'org', org: v.scope.ownerName };
    case 'user':
      return { kind: 'user' };
    case 'admin':
      return { kind: 'admin' };
  }
}

/** Deletes a hook and its deliveries. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function deleteHook(cx: ServiceContext, scope: HookScope, id: number): Promise<void> {
  const resolved = await resolveHookScope(cx, scope, 'write');
  const hook = await findScopedHook(cx, resolved, id);
  await withTx(cx, (tx) => tx.webhook.deleteMany({ where: { id: hook.id } }));
}
