import { resolveOffsetConnection } from '@pothos/plugin-relay';
import * as deliveryService from '../../services/webhook/delivery.ts';
import type { HookScope } from '../../services/webhook/hookScope.ts';
import * as webhookService from '../../services/webhook/webhook.ts';
import { hookEventNames, parseHookEvent } from '../../services/webhook/hookEvents.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { writeScopeBy } from '../tokenWriteScopes.ts';
import { opt, requireDbIdOf } from '../ids.ts';
import { checkedBy, inherits } from '../policy.ts';
import { totalOf } from '../totalCount.ts';
import { OrganizationRef } from './organization.ts';
import { RepositoryRef } from './repository.ts';

const WebhookStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands.',
  values: {
    PENDING: { description: 'Queued, or waiting for a retry.' },
    SUCCEEDED: { description: 'Answered with a 2xx status.' },
    FAILED: { description: 'Finished without a 2xx answer (after its last attempt), or refused by the host policy.' },
  },
});

const WebhookContentTypeEnum = builder.enumType('WebhookContentType', {
  values: { JSON: { description: 'application/json' }, FORM: { description: 'application/x-www-form-urlencoded (`payload=`)' } },
});

const SiteWebhookKindEnum = builder.enumType('SiteWebhookKind', {
  description: 'Site-wide hooks: system hooks get every event of the instance; default hooks are copied into each new repository.',
  values: { SYSTEM: {}, DEFAULT: {}, ALL: {} },
});

interface Header {
  name: string;
  value: string;
}
const HeaderRef = builder.objectRef<Header>('HttpHeader').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

interface Exchange {
  url: string;
  method: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}
const headersOf = (h: Record<string, string>): Header[] => Object.entries(h).map(([name, value]) => ({ name, value }));
function parseExchange(text: string): Partial<Exchange> | null {
  try {
    return text ? (JSON.parse(text) as Partial<Exchange> & { http_method?: string }) : null;
  } catch {
    return null;
  }
}

const WebhookRequestRef = builder.objectRef<Partial<Exchange> & { http_method?: string }>('WebhookDeliveryRequest').implement({
  description: 'The request of the latest attempt (the authorization header shown as ******).',
  fields: (t) => ({
    url: t.string({ resolve: (r) => r.url ?? '' }),
    method: t.string({ resolve: (r) => r.http_method ?? '' }),
    headers: t.field({ type: [HeaderRef], ...inherits('part of the delivery'), resolve: (r) => headersOf(r.headers ?? {}) }),
    body: t.string({ resolve: (r) => r.body ?? '' }),
  }),
});

const WebhookResponseRef = builder.objectRef<Partial<Exchange>>('WebhookDeliveryResponse').implement({
  description: 'The answer to the latest attempt; status 0 and the error as body when there was none.',
  fields: (t) => ({
    status: t.int({ resolve: (r) => r.status ?? 0 }),
    headers: t.field({ type: [HeaderRef], ...inherits('part of the delivery'), resolve: (r) => headersOf(r.headers ?? {}) }),
    body: t.string({ resolve: (r) => r.body ?? '' }),
  }),
});

const WebhookDeliveryRef = builder.objectRef<deliveryService.DeliveryView>('WebhookDelivery').implement({
  description: "One delivery of an event to a webhook (Gitea's hook_task), with its latest attempt.",
  fields: (t) => ({
    id: t.globalID({ resolve: (d) => ({ type: 'WebhookDelivery', id: d.id }) }),
    databaseId: t.exposeInt('id'),
    guid: t.exposeString('uuid', { description: 'X-Gitea-Delivery (the same on every attempt).' }),
    event: t.exposeString('eventType', { description: 'X-Gitea-Event-Type, e.g. `push`, `issue_label`.' }),
    status: t.field({ type: WebhookStatusEnum, resolve: (d) => (d.isSucceed ? 'SUCCEEDED' : d.isDelivered ? 'FAILED' : 'PENDING') }),
    statusCode: t.exposeInt('statusCode', { description: 'HTTP status of the latest attempt; 0 when there was no answer.' }),
    durationMs: t.exposeInt('durationMs'),
    attempts: t.exposeInt('attempts'),
    isRedelivery: t.exposeBoolean('isRedelivery'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    payload: t.exposeString('payloadContent', { description: "Gitea's payload JSON." }),
    request: t.field({
      type: WebhookRequestRef,
      nullable: true,
      ...inherits('part of the delivery'),
      resolve: (d) => parseExchange(d.requestContent),
    }),
    response: t.field({
      type: WebhookResponseRef,
      nullable: true,
      ...inherits('part of the delivery'),
      resolve: (d) => parseExchange(d.responseContent),
    }),
  }),
});

const WebhookRef = builder.objectRef<webhookService.WebhookView>('Webhook').implement({
  description: 'A webhook of a repository, an organization, a user, or the site (system and default hooks), as Gitea has them.',
  fields: (t) => ({
    id: t.globalID({ resolve: (v) => ({ type: 'Webhook', id: v.hook.id }) }),
    databaseId: t.int({ resolve: (v) => v.hook.id }),
    type: t.string({
      description: 'gitea, gogs, slack, discord, dingtalk, telegram, msteams, feishu, matrix, wechatwork or packagist.',
      resolve: (v) => v.hook.type.toLowerCase(),
    }),
    name: t.string({ resolve: (v) => v.hook.name }),
    url: t.string({ description: 'The target URL.', resolve: (v) => v.hook.url }),
    contentType: t.field({ type: WebhookContentTypeEnum, resolve: (v) => v.hook.contentType }),
    events: t.stringList({ description: 'The subscribed event types.', resolve: (v) => hookEventNames(parseHookEvent(v.hook.events)) }),
    branchFilter: t.string({ resolve: (v) => v.hook.branchFilter }),
    active: t.boolean({ resolve: (v) => v.hook.isActive }),
    isSystemWebhook: t.boolean({ resolve: (v) => v.hook.isSystemWebhook }),
    hasAuthorizationHeader: t.boolean({
      description: 'Whether an authorization header is set (it is never shown).',
      resolve: (v) => v.hook.headerAuthorizationEncrypted !== '',
    }),
    lastStatus: t.string({
      description: '`none`, `succeed` or `fail`: the latest finished delivery.',
      resolve: (v) => v.hook.lastStatus.toLowerCase(),
    }),
    deliveriesSucceeded: t.int({ resolve: (v) => v.stats.succeeded }),
    deliveriesFailed: t.int({ resolve: (v) => v.stats.failed }),
    deliveriesPending: t.int({ resolve: (v) => v.stats.pending }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.hook.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.hook.updatedAt }),
    deliveries: t.connection(
      {
        type: WebhookDeliveryRef,
        description: 'Deliveries, newest first.',
        ...checkedBy('listDeliveries'),
        resolve: async (v, args, ctx) => {
          let total = 0;
          const conn = await resolveOffsetConnection(
            { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
            async ({ offset, limit }) => {
              const page = await deliveryService.listDeliveries(ctx.cx, webhookService.scopeOfView(v), v.hook.id, {
                skip: offset,
                take: limit,
              });
              total = page.total;
              return page.items;
            },
          );
          return { ...conn, total };
        },
      },
      { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    ),
  }),
});

/** A connection of the hooks of one scope. */
async function hookConnection(
  ctx: { cx: Parameters<typeof webhookService.listHooks>[0] },
  scope: HookScope,
  args: Parameters<typeof resolveOffsetConnection>[0]['args'],
  kind: webhookService.AdminHookKind = 'system',
) {
  let total = 0;
  const conn = await resolveOffsetConnection(
    { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
    async ({ offset, limit }) => {
      const page = await webhookService.listHooks(ctx.cx, scope, { skip: offset, take: limit }, kind);
      total = page.total;
      return page.items;
    },
  );
  return { ...conn, total };
}

builder.prismaObjectFields(RepositoryRef, (t) => ({
  webhooks: t.connection(
    {
      type: WebhookRef,
      description: "The repository's webhooks (repository admins).",
      ...checkedBy('listHooks'),
      resolve: (r, args, ctx) => hookConnection(ctx, { kind: 'repo', repo: { owner: r.ownerName, repo: r.name } }, args),
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
}));

builder.prismaObjectFields(OrganizationRef, (t) => ({
  webhooks: t.connection(
    {
      type: WebhookRef,
      description: "The organization's webhooks (its owners).",
      ...checkedBy('listHooks'),
      resolve: (o, args, ctx) => hookConnection(ctx, { kind: 'org', org: o.name }, args),
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
}));

builder.queryFields((t) => ({
  viewerWebhooks: t.connection(
    {
      type: WebhookRef,
      description: "The signed-in user's own webhooks (as GET /api/v1/user/hooks).",
      ...checkedBy('listHooks'),
      resolve: (_root, args, ctx) => hookConnection(ctx, { kind: 'user' }, args),
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
  systemWebhooks: t.connection(
    {
      type: WebhookRef,
      description: 'Site-wide hooks (site admins; as GET /api/v1/admin/hooks).',
      args: { kind: t.arg({ type: SiteWebhookKindEnum, defaultValue: 'SYSTEM' }) },
      ...checkedBy('listHooks'),
      resolve: (_root, args, ctx) =>
        hookConnection(ctx, { kind: 'admin' }, args, (args.kind ?? 'SYSTEM').toLowerCase() as webhookService.AdminHookKind),
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
}));

const hookIdOf = (id: { typename: string; id: string }) => requireDbIdOf(id, 'Webhook', 'not found');

interface HookScopeInput {
  repositoryOwner?: string | null;
  repositoryName?: string | null;
  organizationLogin?: string | null;
  site?: unknown;
}

/** Where createWebhook puts the hook: a repository, an organization, the site, else the viewer. */
function hookScopeOf(input: HookScopeInput): HookScope {
  if (input.repositoryOwner && input.repositoryName)
    return { kind: 'repo', repo: { owner: input.repositoryOwner, repo: input.repositoryName } };
  if (input.organizationLogin) return { kind: 'org', org: input.organizationLogin };
  return input.site ? { kind: 'admin' } : { kind: 'user' };
}

/** The token scope of each hook API (Gitea's route groups). */
const HOOK_SCOPE_CATEGORY = { repo: 'repository', org: 'organization', user: 'user', admin: 'admin' } as const;
/** A hook known by its id may be any of them: each will do before the lookup, the hook's own after. */
const HOOK_OWNERS = Object.values(HOOK_SCOPE_CATEGORY).map((c) => [c]);

builder.relayMutationField(
  'createWebhook',
  {
    inputFields: (t) => ({
      repositoryOwner: t.string({ description: 'With repositoryName: a hook of that repository.' }),
      repositoryName: t.string(),
      organizationLogin: t.string({ description: 'A hook of that organization.' }),
      site: t.field({ type: SiteWebhookKindEnum, description: 'A site hook (site admins): SYSTEM or DEFAULT.' }),
      type: t.string({
        required: true,
        description: 'gitea, gogs, slack, discord, dingtalk, telegram, msteams, feishu, matrix, wechatwork or packagist.',
      }),
      url: t.string({ required: true }),
      contentType: t.field({ type: WebhookContentTypeEnum, defaultValue: 'JSON' }),
      secret: t.string(),
      events: t.stringList({ description: 'Gitea event names (`issues` and `pull_request` expand to their groups); none = push.' }),
      branchFilter: t.string(),
      authorizationHeader: t.string(),
      active: t.boolean({ defaultValue: false }),
      name: t.string(),
      slackChannel: t.string(),
      slackUsername: t.string(),
      slackIconUrl: t.string(),
      slackColor: t.string(),
    }),
  },
  {
    description:
      'Create a webhook: of a repository, an organization, the viewer (none of those given), or the site. Same rules as POST …/hooks.',
    ...writeScopeBy((input: HookScopeInput) => HOOK_SCOPE_CATEGORY[hookScopeOf(input).kind]),
    resolve: (_root, { input }, ctx) => {
      const scope = hookScopeOf(input);
      const config: Record<string, string> = { url: input.url, content_type: (input.contentType ?? 'JSON').toLowerCase() };
      if (input.secret) config.secret = input.secret;
      if (input.site === 'SYSTEM') config.is_system_webhook = 'true';
      if (input.slackChannel != null) config.channel = input.slackChannel;
      if (input.slackUsername != null) config.username = input.slackUsername;
      if (input.slackIconUrl != null) config.icon_url = input.slackIconUrl;
      if (input.slackColor != null) config.color = input.slackColor;
      return webhookService.createHook(ctx.cx, scope, {
        type: input.type,
        config,
        events: input.events ?? [],
        ...(input.branchFilter != null ? { branchFilter: input.branchFilter } : {}),
        ...(input.authorizationHeader != null ? { authorizationHeader: input.authorizationHeader } : {}),
        active: input.active ?? false,
        ...(input.name != null ? { name: input.name } : {}),
      });
    },
  },
  { outputFields: (t) => ({ webhook: t.field({ type: WebhookRef, resolve: (v) => v }) }) },
);

builder.relayMutationField(
  'updateWebhook',
  {
    inputFields: (t) => ({
      id: t.globalID({ required: true }),
      url: t.string(),
      contentType: t.field({ type: WebhookContentTypeEnum }),
      secret: t.string(),
      events: t.stringList({ description: 'Replaces the events when given.' }),
      branchFilter: t.string(),
      authorizationHeader: t.string({ description: 'Replaces the authorization header when given ("" removes it).' }),
      active: t.boolean(),
      name: t.string(),
    }),
  },
  {
    description: 'Edit a webhook (as PATCH …/hooks/{id}, except that what is not given is left as it is).',
    ...writeScopeBy(() => HOOK_OWNERS),
    resolve: async (_root, { input }, ctx) => {
      const id = hookIdOf(input.id);
      const config: Record<string, string> = {};
      if (input.url != null) config.url = input.url;
      if (input.contentType != null) config.content_type = input.contentType.toLowerCase();
      if (input.secret != null) config.secret = input.secret;
      return webhookService.editHook(ctx.cx, await webhookService.locateHook(ctx.cx, id), id, {
        config,
        keepUnset: true,
        ...(input.events != null ? { events: input.events } : {}),
        ...(input.branchFilter != null ? { branchFilter: input.branchFilter } : {}),
        ...(input.authorizationHeader != null ? { authorizationHeader: input.authorizationHeader } : {}),
        ...(input.active != null ? { active: input.active } : {}),
        ...(opt(input.name) !== undefined ? { name: input.name as string } : {}),
      });
    },
  },
  { outputFields: (t) => ({ webhook: t.field({ type: WebhookRef, resolve: (v) => v }) }) },
);

builder.relayMutationField(
  'deleteWebhook',
  { inputFields: (t) => ({ id: t.globalID({ required: true }) }) },
  {
    description: 'Delete a webhook and its deliveries.',
    ...writeScopeBy(() => HOOK_OWNERS),
    resolve: async (_root, { input }, ctx) => {
      const id = hookIdOf(input.id);
      await webhookService.deleteHook(ctx.cx, await webhookService.locateHook(ctx.cx, id), id);
      return { id: input.id };
    },
  },
  { outputFields: (t) => ({ deletedWebhookId: t.id({ resolve: (p) => `${p.id.typename}:${p.id.id}` }) }) },
);

builder.relayMutationField(
  'testWebhook',
  {
    inputFields: (t) => ({
      id: t.globalID({ required: true }),
      ref: t.string({ description: 'Branch, tag or commit; the default branch when absent.' }),
    }),
  },
  {
    description: 'Send a test push of the head commit to a repository webhook, whatever its events (as POST …/hooks/{id}/tests).',
    ...writeScopeBy(() => HOOK_OWNERS),
    resolve: async (_root, { input }, ctx) => {
      const id = hookIdOf(input.id);
      await deliveryService.testHook(ctx.cx, await webhookService.locateHook(ctx.cx, id), id, opt(input.ref));
      return { ok: true };
    },
  },
  { outputFields: (t) => ({ queued: t.boolean({ resolve: (p) => p.ok }) }) },
);

builder.relayMutationField(
  'redeliverWebhookDelivery',
  { inputFields: (t) => ({ id: t.globalID({ required: true, description: 'The delivery.' }) }) },
  {
    description: 'Send a delivery again: a new delivery of the same payload (as POST …/deliveries/{id}/attempts).',
    ...writeScopeBy(() => HOOK_OWNERS),
    resolve: async (_root, { input }, ctx) => {
      const deliveryId = requireDbIdOf(input.id, 'WebhookDelivery', 'not found');
      const { hookId } = await deliveryService.locateDelivery(ctx.cx, deliveryId);
      return deliveryService.redeliver(ctx.cx, await webhookService.locateHook(ctx.cx, hookId), hookId, deliveryId);
    },
  },
  { outputFields: (t) => ({ delivery: t.field({ type: WebhookDeliveryRef, resolve: (d) => d }) }) },
);
