import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs } from '../../helpers/org.ts';

const HOOK_FIELDS = [
  'id',
  'type',
  'name',
  'branch_filter',
  'url',
  'config',
  'events',
  'authorization_header',
  'active',
  'updated_at',
  'created_at',
  'last_status',
  'deliveries_succeeded',
  'deliveries_failed',
  'deliveries_pending',
];
const ISSUE_GROUP = ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_GROUP = [
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_sync',
  'pull_request_review_request',
];
const gitea = (extra: Record<string, unknown> = {}) => ({
  type: 'gitea',
  config: { url: 'http://example.com/', content_type: 'json' },
  ...extra,
});

describe.each(PROVIDERS)('REST webhooks (%s)', (provider) => {
  let t: TestApp;
  let alice: Models.User;
  let org: Models.User;
  const req = (method: string, url: string, user: string | Record<string, string> | null, body?: unknown) =>
    t.request(method, `/api/v1${url}`, {
      headers: user === null ? {} : typeof user === 'string' ? basic(user) : user,
      ...(body === undefined ? {} : { body }),
    });

  beforeAll(async () => {
    t = await startTestApp(provider);
    alice = await t.createUser('alice');
    await t.createUser('bob');
    const carol = await t.createUser('carol');
    await t.createUser('root', { admin: true });
    await createRepo(t, alice, 'demo', { autoInit: true });
    await createRepo(t, alice, 'secret', { private: true });
    org = await createOrgAs(t, alice, 'acme');
    await addMember(t, org, carol);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a repository hook with Gitea defaults; the authorization header is stored encrypted and never shown', async () => {
    const res = await req(
      'POST',
      '/repos/alice/demo/hooks',
      'alice',
      gitea({ name: '  CI notifications  ', authorization_header: 'Bearer s3cr3t' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const hook = res.json();
    expect(Object.keys(hook).sort()).toEqual([...HOOK_FIELDS].sort());
    expect(hook).toMatchObject({
      type: 'gitea',
      name: 'CI notifications',
      branch_filter: '',
      config: { url: 'http://example.com/', content_type: 'json' },
      events: ['push'],
      authorization_header: '',
      active: false,
      last_status: 'none',
      deliveries_succeeded: 0,
    });
    expect(Object.keys(hook.config as object).sort()).toEqual(['content_type', 'url']);
    const row = await t.db.webhook.findUniqueOrThrow({ where: { id: hook.id as number } });
    expect(row.headerAuthorizationEncrypted).not.toContain('s3cr3t');
    expect(row.headerAuthorizationEncrypted).toMatch(/^v1:/);
    const token = await t.createToken('alice', ['read:repository']);
    const got = await req('GET', `/repos/alice/demo/hooks/${hook.id}`, tokenAuth(token));
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain('s3cr3t');
    const list = await req('GET', '/repos/alice/demo/hooks', 'alice');
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
  });

  it('expands event groups, ignores unknown names and case', async () => {
    const cases: [string[], string[]][] = [
      [['issues'], ISSUE_GROUP],
      [['pull_request'], PULL_GROUP],
      [
        ['ISSUES_ONLY', 'Pull_Request_Only'],
        ['issues', 'pull_request'],
      ],
      [['nope'], []],
      [
        ['create', 'delete', 'fork', 'push', 'repository', 'release', 'pull_request_review'],
        ['create', 'delete', 'fork', 'push', 'pull_request_review', 'repository', 'release'],
      ],
    ];
    for (const [events, expected] of cases) {
      const res = await req('POST', '/repos/alice/demo/hooks', 'alice', gitea({ events }));
      expect(res.statusCode).toBe(201);
      expect([...(res.json().events as string[])].sort()).toEqual([...expected].sort());
    }
  });

  it("validates as Gitea, with Gitea's messages", async () => {
    const post = (body: unknown) => req('POST', '/repos/alice/demo/hooks', 'alice', body);
    expectGiteaError(await post({ type: 'nope', config: { url: 'http://x/', content_type: 'json' } }), 422, 'Invalid hook type: nope');
    expectGiteaError(await post({ type: 'gitea', config: { content_type: 'json' } }), 422, 'Missing config option: url');
    expectGiteaError(await post({ type: 'gitea', config: { url: 'http://x/' } }), 422, 'Missing config option: content_type');
    expectGiteaError(await post({ type: 'gitea', config: { url: 'http://x/', content_type: 'xml' } }), 422, 'Invalid content type');
    expectGiteaError(await post({ type: 'gitea', config: { url: 'ftp://x/', content_type: 'json' } }), 422, 'Invalid url');
    expectGiteaError(
      await post({ type: 'gitea', config: { url: 'http://x/', content_type: 'json', is_system_webhook: 'maybe' } }),
      422,
      'Invalid is_system_webhook value',
    );
    expectGiteaError(
      await post({ type: 'slack', config: { url: 'http://x/', content_type: 'json' } }),
      422,
      'Missing config option: channel',
    );
    expectGiteaError(
      await post({ type: 'slack', config: { url: 'http://x/', content_type: 'json', channel: 'a b' } }),
      400,
      'Invalid slack channel name',
    );
    expectGiteaError(await post(gitea({ branch_filter: '{main' })), 422);
    expectGiteaError(await post({ config: { url: 'http://x/', content_type: 'json' } }), 422);
    const slack = await post({
      type: 'slack',
      config: { url: 'http://x/', content_type: 'json', channel: '#dev', username: 'bot' },
      active: true,
    });
    expect(slack.statusCode).toBe(201);
    expect(slack.json().config).toEqual({
      url: 'http://x/',
      content_type: 'json',
      channel: '#dev',
      username: 'bot',
      icon_url: '',
      color: '',
    });
    for (const type of ['gogs', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist']) {
      expect((await post({ type, config: { url: 'https://x.example/', content_type: 'json' } })).json().type).toBe(type);
    }
  });

  it('edits as Gitea: name when given, events and branch filter replaced, content type checked', async () => {
    const id = (await req('POST', '/repos/alice/demo/hooks', 'alice', gitea({ events: ['issues'], branch_filter: 'main' }))).json()
      .id as number;
    let res = await req('PATCH', `/repos/alice/demo/hooks/${id}`, 'alice', {
      name: 'Deploy hook',
      active: true,
      events: ['push', 'create'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Deploy hook', active: true, branch_filter: '' });
    expect([...(res.json().events as string[])].sort()).toEqual(['create', 'push']);
    res = await req('PATCH', `/repos/alice/demo/hooks/${id}`, 'alice', { config: { url: 'http://other.example/' } });
    expect(res.json()).toMatchObject({ name: 'Deploy hook', events: ['push'], config: { url: 'http://other.example/' } });
    res = await req('PATCH', `/repos/alice/demo/hooks/${id}`, 'alice', { name: '' });
    expect(res.json().name).toBe('');
    expectGiteaError(
      await req('PATCH', `/repos/alice/demo/hooks/${id}`, 'alice', { config: { content_type: 'xml' } }),
      422,
      'Invalid content type',
    );
    expect((await req('DELETE', `/repos/alice/demo/hooks/${id}`, 'alice')).statusCode).toBe(204);
    expectGiteaError(await req('GET', `/repos/alice/demo/hooks/${id}`, 'alice'), 404);
    expectGiteaError(await req('DELETE', `/repos/alice/demo/hooks/${id}`, 'alice'), 404);
  });

  it('needs a repository admin, a token with write:repository to write, and hides private repositories', async () => {
    expectGiteaError(await req('GET', '/repos/alice/demo/hooks', null), 401);
    expectGiteaError(await req('GET', '/repos/alice/demo/hooks', 'bob'), 403);
    expectGiteaError(await req('POST', '/repos/alice/demo/hooks', 'bob', gitea()), 403);
    expectGiteaError(await req('GET', '/repos/alice/secret/hooks', 'bob'), 404);
    const read = await t.createToken('alice', ['read:repository']);
    expectGiteaError(await req('POST', '/repos/alice/demo/hooks', tokenAuth(read), gitea()), 403);
    const write = await t.createToken('alice', ['write:repository']);
    expect((await req('POST', '/repos/alice/demo/hooks', tokenAuth(write), gitea())).statusCode).toBe(201);
  });

  it('organization hooks: owners only', async () => {
    const res = await req('POST', '/orgs/acme/hooks', 'alice', gitea({ events: ['repository'] }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().url).toContain('org/acme/settings/hooks/');
    expect((await req('GET', '/orgs/acme/hooks', 'alice')).json()).toHaveLength(1);
    expectGiteaError(await req('GET', '/orgs/acme/hooks', 'carol'), 403, 'Must be an organization owner');
    expectGiteaError(await req('GET', '/orgs/acme/hooks', null), 401);
    expectGiteaError(await req('GET', `/orgs/acme/hooks/${res.json().id}`, 'bob'), 403);
    expect((await req('GET', `/repos/alice/demo/hooks/${res.json().id}`, 'alice')).statusCode).toBe(404);
    const token = await t.createToken('alice', ['write:repository']);
    expectGiteaError(await req('POST', '/orgs/acme/hooks', tokenAuth(token), gitea()), 403);
  });

  it("user hooks: the viewer's own", async () => {
    const res = await req('POST', '/user/hooks', 'bob', gitea());
    expect(res.statusCode, res.body).toBe(201);
    expect((await req('GET', '/user/hooks', 'bob')).json()).toHaveLength(1);
    expect((await req('GET', '/user/hooks', 'alice')).json()).toHaveLength(0);
    expectGiteaError(await req('GET', `/user/hooks/${res.json().id}`, 'alice'), 404);
    expect((await req('PATCH', `/user/hooks/${res.json().id}`, 'bob', { active: true })).json().active).toBe(true);
    expect((await req('DELETE', `/user/hooks/${res.json().id}`, 'bob')).statusCode).toBe(204);
  });

  it('admin hooks: system hooks with is_system_webhook, default hooks copied into every new repository', async () => {
    expectGiteaError(await req('GET', '/admin/hooks', 'alice'), 403);
    const def = await req('POST', '/admin/hooks', 'root', gitea({ events: ['push'], active: true }));
    expect(def.statusCode, def.body).toBe(201);
    const sys = await req('POST', '/admin/hooks', 'root', {
      type: 'gitea',
      config: { url: 'http://example.com/sys', content_type: 'json', is_system_webhook: 'true' },
      active: true,
    });
    expect(sys.statusCode).toBe(201);
    const ids = async (q: string) => ((await req('GET', `/admin/hooks${q}`, 'root')).json() as { id: number }[]).map((h) => h.id);
    expect(await ids('')).toEqual([sys.json().id]);
    expect(await ids('?type=system')).toEqual([sys.json().id]);
    expect(await ids('?type=default')).toEqual([def.json().id]);
    expect((await ids('?type=all')).sort()).toEqual([def.json().id, sys.json().id].sort());
    expect((await req('GET', `/admin/hooks/${def.json().id}`, 'root')).statusCode).toBe(200);
    expect((await req('PATCH', `/admin/hooks/${sys.json().id}`, 'root', { active: false })).json().active).toBe(false);
    // A new repository gets a copy of the default hook (not of the system hook).
    const created = await req('POST', '/user/repos', 'alice', { name: 'fresh' });
    expect(created.statusCode).toBe(201);
    const copies = (await req('GET', '/repos/alice/fresh/hooks', 'alice')).json() as Record<string, unknown>[];
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ config: { url: 'http://example.com/' }, active: true, events: ['push'] });
    expect((await req('DELETE', `/admin/hooks/${def.json().id}`, 'root')).statusCode).toBe(204);
    expect((await req('DELETE', `/admin/hooks/${sys.json().id}`, 'root')).statusCode).toBe(204);
  });

  it('a URL made unusable by an edit (Gitea does not check it there) fails its delivery once, without retries', async () => {
    const id = (await req('POST', '/repos/alice/demo/hooks', 'alice', gitea({ active: true }))).json().id as number;
    expect((await req('PATCH', `/repos/alice/demo/hooks/${id}`, 'alice', { config: { url: 'not a url' } })).json().config.url).toBe(
      'not a url',
    );
    expect((await req('POST', `/repos/alice/demo/hooks/${id}/tests`, 'alice')).statusCode).toBe(204);
    await t.app.jobs.drain();
    const [delivery] = (await req('GET', `/repos/alice/demo/hooks/${id}/deliveries`, 'alice')).json() as {
      id: number;
      status: string;
      attempts: number;
    }[];
    expect(delivery).toMatchObject({ status: 'fail', attempts: 1 });
    const one = (await req('GET', `/repos/alice/demo/hooks/${id}/deliveries/${delivery?.id}`, 'alice')).json();
    expect(one.response.body).toMatch(/^Delivery: /);
    expect((await req('GET', `/repos/alice/demo/hooks/${id}`, 'alice')).json().last_status).toBe('fail');
  });

  it('deliveries of an unknown hook or delivery are 404', async () => {
    expectGiteaError(await req('GET', '/repos/alice/demo/hooks/999999/deliveries', 'alice'), 404);
    const id = (await req('POST', '/repos/alice/demo/hooks', 'alice', gitea())).json().id as number;
    const list = await req('GET', `/repos/alice/demo/hooks/${id}/deliveries`, 'alice');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
    expectGiteaError(await req('GET', `/repos/alice/demo/hooks/${id}/deliveries/1`, 'alice'), 404);
    expectGiteaError(await req('POST', `/repos/alice/demo/hooks/${id}/deliveries/1/attempts`, 'alice'), 404);
    expectGiteaError(await req('GET', `/repos/alice/demo/hooks/${id}/deliveries`, 'bob'), 403);
  });
});
