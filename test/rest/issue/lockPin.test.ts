// Issue locks and pins over REST on both databases: gates, Gitea's messages, timeline comments, pin order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST issue lock and pin (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  async function newRepo(owner: string, name: string, isPrivate: boolean): Promise<Models.Repository> {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  async function newIssue(repo: string, title = 'an issue'): Promise<number> {
    const res = await t.request('POST', `/api/v1/repos/${repo}/issues`, { headers: as('alice'), body: { title } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  }
  const req = (method: string, viewer: string, url: string, body?: unknown) =>
    t.request(method, `/api/v1/repos/${url}`, { headers: as(viewer), ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'radmin', 'outsider']) users[n] = await t.createUser(n);
    for (const r of [await newRepo('alice', 'pub', false), await newRepo('alice', 'priv', true)]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
      await addCollaborator(t, r, users.radmin!, 'admin');
    }
  });
  afterAll(() => t.close());

  it('PUT …/lock: writers lock (204, LOCK comment with the reason, is_locked); readers 403; non-writers cannot comment', async () => {
    const n = await newIssue('alice/pub');
    expectGiteaError(
      await req('PUT', 'reader', `alice/pub/issues/${n}/lock`, { lock_reason: 'Spam' }),
      403,
      'no permission to lock this issue',
    );
    expectGiteaError(await req('PUT', 'anon', `alice/pub/issues/${n}/lock`, {}), 401);
    expect((await req('PUT', 'writer', `alice/pub/issues/${n}/lock`, { lock_reason: 'Too heated' })).statusCode).toBe(204);
    // Locking a locked issue changes nothing.
    expect((await req('PUT', 'writer', `alice/pub/issues/${n}/lock`, { lock_reason: 'Spam' })).statusCode).toBe(204);
    expect((await req('GET', 'reader', `alice/pub/issues/${n}`)).json().is_locked).toBe(true);
    const timeline = (await req('GET', 'reader', `alice/pub/issues/${n}/timeline`)).json() as Array<{ type: string; body: string }>;
    expect(timeline.filter((c) => c.type === 'lock')).toEqual([expect.objectContaining({ type: 'lock', body: 'Too heated' })]);
    expectGiteaError(
      await req('POST', 'reader', `alice/pub/issues/${n}/comments`, { body: 'hi' }),
      403,
      'You cannot comment on a locked issue.',
    );
    expect((await req('POST', 'writer', `alice/pub/issues/${n}/comments`, { body: 'hi' })).statusCode).toBe(201);

    expectGiteaError(await req('DELETE', 'reader', `alice/pub/issues/${n}/lock`), 403, 'no permission to unlock this issue');
    expect((await req('DELETE', 'writer', `alice/pub/issues/${n}/lock`)).statusCode).toBe(204);
    expect((await req('GET', 'reader', `alice/pub/issues/${n}`)).json().is_locked).toBe(false);
    const after = (await req('GET', 'reader', `alice/pub/issues/${n}/timeline`)).json() as Array<{ type: string }>;
    expect(after.map((c) => c.type).filter((x) => x === 'lock' || x === 'unlock')).toEqual(['lock', 'unlock']);
    expect((await req('POST', 'reader', `alice/pub/issues/${n}/comments`, { body: 'again' })).statusCode).toBe(201);
  });

  it('private repositories and unknown issues are 404; tokens need write:issue', async () => {
    const n = await newIssue('alice/priv');
    expectGiteaError(await req('PUT', 'outsider', `alice/priv/issues/${n}/lock`, {}), 404);
    expectGiteaError(await req('POST', 'outsider', `alice/priv/issues/${n}/pin`), 404);
    expectGiteaError(await req('GET', 'outsider', 'alice/priv/issues/pinned'), 404);
    expectGiteaError(await req('GET', 'anon', 'alice/priv/new_pin_allowed'), 404);
    expectGiteaError(await req('PUT', 'writer', 'alice/priv/issues/999/lock', {}), 404);
    const read = await t.createToken('writer', ['read:issue', 'read:repository']);
    expectGiteaError(
      await t.request('PUT', `/api/v1/repos/alice/priv/issues/${n}/lock`, { headers: tokenAuth(read), body: {} }),
      403,
      /required=\[write:issue\]/,
    );
    const write = await t.createToken('writer', ['write:issue']);
    expect((await t.request('PUT', `/api/v1/repos/alice/priv/issues/${n}/lock`, { headers: tokenAuth(write), body: {} })).statusCode).toBe(
      204,
    );
  });

  it('pins: admins only, at most 3, pin_order 1..n, move and unpin renumber; lists in pin order', async () => {
    const nums = [
      await newIssue('alice/pub', 'p1'),
      await newIssue('alice/pub', 'p2'),
      await newIssue('alice/pub', 'p3'),
      await newIssue('alice/pub', 'p4'),
    ];
    expectGiteaError(
      await req('POST', 'writer', `alice/pub/issues/${nums[0]}/pin`),
      403,
      'user should be an owner or a collaborator with admin write of a repository',
    );
    expect((await req('GET', 'anon', 'alice/pub/new_pin_allowed')).json()).toEqual({ issues: true, pull_requests: true });
    for (const n of nums.slice(0, 3)) expect((await req('POST', 'radmin', `alice/pub/issues/${n}/pin`)).statusCode).toBe(204);
    expect((await req('POST', 'radmin', `alice/pub/issues/${nums[0]}/pin`)).statusCode).toBe(204);
    expectGiteaError(
      await req('POST', 'alice', `alice/pub/issues/${nums[3]}/pin`),
      400,
      'the max number of pinned issues has been readched',
    );
    expect((await req('GET', 'anon', 'alice/pub/new_pin_allowed')).json()).toEqual({ issues: false, pull_requests: true });
    const order = async () =>
      ((await req('GET', 'anon', 'alice/pub/issues/pinned')).json() as Array<{ number: number; pin_order: number }>).map((i) => [
        i.number,
        i.pin_order,
      ]);
    expect(await order()).toEqual([
      [nums[0], 1],
      [nums[1], 2],
      [nums[2], 3],
    ]);
    expect((await req('PATCH', 'alice', `alice/pub/issues/${nums[2]}/pin/1`)).statusCode).toBe(204);
    expect(await order()).toEqual([
      [nums[2], 1],
      [nums[0], 2],
      [nums[1], 3],
    ]);
    expect((await req('PATCH', 'alice', `alice/pub/issues/${nums[2]}/pin/99`)).statusCode).toBe(204);
    expect(await order()).toEqual([
      [nums[0], 1],
      [nums[1], 2],
      [nums[2], 3],
    ]);
    expectGiteaError(await req('PATCH', 'alice', `alice/pub/issues/${nums[2]}/pin/0`), 400, "The Position can't be lower than 1");
    expectGiteaError(await req('PATCH', 'writer', `alice/pub/issues/${nums[2]}/pin/1`), 403);
    expectGiteaError(await req('DELETE', 'writer', `alice/pub/issues/${nums[0]}/pin`), 403);
    expect((await req('DELETE', 'alice', `alice/pub/issues/${nums[0]}/pin`)).statusCode).toBe(204);
    expect(await order()).toEqual([
      [nums[1], 1],
      [nums[2], 2],
    ]);
    expect((await req('GET', 'anon', `alice/pub/issues/${nums[0]}`)).json().pin_order).toBe(0);
    const timeline = (await req('GET', 'anon', `alice/pub/issues/${nums[0]}/timeline`)).json() as Array<{ type: string }>;
    expect(timeline.map((c) => c.type)).toEqual(['pin', 'unpin']);
    expect((await req('GET', 'anon', 'alice/pub/pulls/pinned')).json()).toEqual([]);
  });
});
