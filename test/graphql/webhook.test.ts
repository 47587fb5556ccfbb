import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';
import { errorCodes, gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { HookReceiver, type Doc } from '../helpers/hookReceiver.ts';
import { createOrgAs } from '../helpers/org.ts';

const HOOK = 'id databaseId type name url contentType events branchFilter active hasAuthorizationHeader lastStatus deliveriesSucceeded';
const mutation = (name: string, payload: string) =>
  `mutation($input: ${name[0]?.toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { __typename ${payload} } }`;

describe.each(PROVIDERS)('GraphQL webhooks (%s)', (provider) => {
  let t: TestApp;
  let rx: HookReceiver;
  const as = (user: string) => ({ headers: basic(user) });
  /** A mutation that must succeed: its payload. */
  const run = async <T>(name: string, payload: string, input: Record<string, unknown>, user = 'alice') => {
    const res = await gql<Record<string, (T & { __typename: string }) | null>>(t, mutation(name, payload), {
      ...as(user),
      variables: { input },
    });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data?.[name] as T & { __typename: string };
  };
  /** A mutation that must be refused: its error. */
  const refusal = async (name: string, payload: string, input: Record<string, unknown>, user = 'alice'): Promise<MutationError | null> => {
    const res = await gql<Record<string, unknown>>(t, mutation(name, payload), { ...as(user), variables: { input } });
    expect(res.data?.[name]).toBeNull();
    return mutationError(res, name);
  };

  beforeAll(async () => {
    t = await startTestApp(provider, { WEBHOOK_ALLOWED_HOST_LIST: 'loopback' });
    rx = await HookReceiver.start();
    const alice = await t.createUser('alice');
    await t.createUser('bob');
    await t.createUser('root', { admin: true });
    await createRepo(t, alice, 'demo', { autoInit: true });
    await createOrgAs(t, alice, 'acme');
  });
  afterAll(async () => {
    await rx?.close();
    await t?.close();
  });

  it('creates, lists, tests, redelivers, updates and deletes a repository webhook', async () => {
    const created = await run<{ webhook: Record<string, unknown> }>('createWebhook', `webhook { ${HOOK} }`, {
      repositoryOwner: 'alice',
      repositoryName: 'demo',
      type: 'gitea',
      url: rx.url,
      secret: 's',
      events: ['issues'],
      authorizationHeader: 'Bearer x',
      active: true,
    });
    expect(created.__typename).toBe('CreateWebhookPayload');
    expect(created.webhook).toMatchObject({ type: 'gitea', url: rx.url, contentType: 'JSON', active: true, hasAuthorizationHeader: true });
    expect([...(created.webhook.events as string[])].sort()).toEqual([
      'issue_assign',
      'issue_comment',
      'issue_label',
      'issue_milestone',
      'issues',
    ]);
    const id = created.webhook.id as string;

    const tested = await run<{ queued: boolean }>('testWebhook', 'queued', { id });
    expect(tested).toMatchObject({ __typename: 'TestWebhookPayload', queued: true });
    await rx.until(
      () => rx.received.length === 1,
      () => t.app.jobs.drain(),
    );

    const list = await gql<{
      repository: {
        webhooks: { totalCount: number; nodes: { id: string; deliveries: { totalCount: number; nodes: Doc[] } }[] };
      };
    }>(
      t,
      `{ repository(owner: "alice", name: "demo") { webhooks(first: 10) { totalCount nodes { id deliveriesSucceeded deliveries(first: 5) { totalCount nodes { id guid event status statusCode attempts isRedelivery payload request { method headers { name value } } response { status body } } } } } } }`,
      as('alice'),
    );
    expect(list.errors).toBeUndefined();
    const hook = list.data?.repository.webhooks.nodes[0];
    expect(list.data?.repository.webhooks.totalCount).toBe(1);
    const delivery = hook?.deliveries.nodes[0];
    expect(delivery).toMatchObject({
      event: 'push',
      status: 'SUCCEEDED',
      statusCode: 200,
      attempts: 1,
      isRedelivery: false,
      response: { status: 200, body: 'ok' },
    });
    expect((delivery?.request as Doc | undefined)?.headers).toContainEqual({ name: 'Authorization', value: '******' });
    expect(JSON.stringify(list.data)).not.toContain('Bearer x');

    const again = await run<{ delivery: Record<string, unknown> }>('redeliverWebhookDelivery', 'delivery { event isRedelivery status }', {
      id: delivery?.id,
    });
    expect(again.delivery).toEqual({ event: 'push', isRedelivery: true, status: 'PENDING' });
    await rx.until(
      () => rx.received.length === 2,
      () => t.app.jobs.drain(),
    );

    const updated = await run<{ webhook: Record<string, unknown> }>('updateWebhook', `webhook { ${HOOK} }`, { id, name: 'CI' });
    expect(updated.webhook).toMatchObject({ name: 'CI', hasAuthorizationHeader: true });
    expect((updated.webhook.events as string[]).length).toBe(5);

    // Another user: the repository's hooks are refused, and so are the mutations.
    const hidden = await gql(t, '{ repository(owner: "alice", name: "demo") { webhooks(first: 1) { totalCount } } }', as('bob'));
    expect(errorCodes(hidden)).toContain('PERMISSION_DENIED');
    const denied = await refusal('deleteWebhook', 'deletedWebhookId', { id }, 'bob');
    expect(denied?.code).toBe('PERMISSION_DENIED');

    const deleted = await run<{ deletedWebhookId: string }>('deleteWebhook', 'deletedWebhookId', { id });
    expect(deleted.__typename).toBe('DeleteWebhookPayload');
    expect(await t.db.webhook.count()).toBe(0);
  });

  it('organization webhooks for owners; system webhooks for site admins', async () => {
    const org = await run<{ webhook: { url: string } }>('createWebhook', 'webhook { url }', {
      organizationLogin: 'acme',
      type: 'slack',
      url: 'http://example.com/',
      slackChannel: '#dev',
    });
    expect(org.webhook.url).toBe('http://example.com/');
    const listed = await gql<{ organization: { webhooks: { totalCount: number } } }>(
      t,
      '{ organization(login: "acme") { webhooks { totalCount } } }',
      as('alice'),
    );
    expect(listed.data?.organization.webhooks.totalCount).toBe(1);

    const refused = await refusal('createWebhook', 'webhook { id }', { site: 'SYSTEM', type: 'gitea', url: 'http://example.com/' });
    expect(refused?.code).toBe('PERMISSION_DENIED');
    const sys = await run<{ webhook: { isSystemWebhook: boolean } }>(
      'createWebhook',
      'webhook { isSystemWebhook }',
      { site: 'SYSTEM', type: 'gitea', url: 'http://example.com/' },
      'root',
    );
    expect(sys.webhook.isSystemWebhook).toBe(true);
    await run('createWebhook', 'webhook { id }', { site: 'DEFAULT', type: 'gitea', url: 'http://example.com/d' }, 'root');
    const site = await gql<{ systemWebhooks: { totalCount: number } }>(t, '{ systemWebhooks(kind: ALL) { totalCount } }', as('root'));
    expect(site.data?.systemWebhooks.totalCount).toBe(2);
    expect(errorCodes(await gql(t, '{ systemWebhooks { totalCount } }', as('alice')))).toContain('PERMISSION_DENIED');

    const mine = await run<{ webhook: { id: string } }>(
      'createWebhook',
      'webhook { id }',
      { type: 'gitea', url: 'http://example.com/u' },
      'bob',
    );
    expect(mine.__typename).toBe('CreateWebhookPayload');
    const viewer = await gql<{ viewerWebhooks: { totalCount: number } }>(t, '{ viewerWebhooks { totalCount } }', as('bob'));
    expect(viewer.data?.viewerWebhooks.totalCount).toBe(1);
  });
});
