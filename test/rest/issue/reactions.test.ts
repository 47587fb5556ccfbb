import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, createComment, editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

describe.each(PROVIDERS)('REST issue and comment reactions (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const events: DomainEvent[] = [];

  const post = (viewer: string, url: string, body: unknown, headers = as(viewer)) =>
    t.request('POST', `/api/v1/repos/${url}/reactions`, { headers, body });
  const del = (viewer: string, url: string, body: unknown) =>
    t.request('DELETE', `/api/v1/repos/${url}/reactions`, { headers: as(viewer), body });
  const list = (viewer: string, url: string) => t.request('GET', `/api/v1/repos/${url}/reactions`, { headers: as(viewer) });

  async function newRepo(owner: string, name: string, isPrivate: boolean): Promise<Models.Repository> {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  async function newIssue(viewer: string, repo: string, title = 'an issue'): Promise<Models.Issue> {
    const res = await t.request('POST', `/api/v1/repos/${repo}/issues`, { headers: as(viewer), body: { title } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.issue.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  const newComment = (issue: Models.Issue, poster: Models.User, content = 'a comment') => createComment(t, poster, issue, content);

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'blocked', 'poster']) users[n] = await t.createUser(n);
    users.admin = await t.createUser('admin', { admin: true });
    repos.pub = await newRepo('alice', 'pub', false);
    repos.priv = await newRepo('alice', 'priv', true);
    repos.arch = await newRepo('alice', 'arch', false);
    repos.other = await newRepo('outsider', 'other', false);
    for (const r of [repos.pub, repos.priv, repos.arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
    }
    await blockUser(t, users.alice!, users.blocked!);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('adds an issue reaction: 201, then 200 for the same one; Gitea JSON; listed oldest first with X-Total-Count; 204 on delete', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const url = `alice/pub/issues/${issue.index}`;
    const first = await post('reader', url, { content: 'heart' });
    expect(first.statusCode, first.body).toBe(201);
    const j = first.json();
    expect(Object.keys(j)).toEqual(['user', 'content', 'created_at']);
    expect(j).toMatchObject({ content: 'heart', user: { login: 'reader', id: users.reader!.id } });
    expect(j.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const again = await post('reader', url, { content: 'heart' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(j);
    expect((await post('alice', url, { content: '+1' })).statusCode).toBe(201);

    const listed = await list('anon', url);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['x-total-count']).toBe('2');
    expect((listed.json() as Json[]).map((r) => [r.content, (r.user as Json).login])).toEqual([
      ['heart', 'reader'],
      ['+1', 'alice'],
    ]);

    const gone = await del('reader', url, { content: 'heart' });
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe('');
    expect((await del('reader', url, { content: 'heart' })).statusCode).toBe(204);
    expect((await list('anon', url)).json()).toHaveLength(1);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'reaction.added', issueId: issue.id, commentId: 0, content: 'heart', actorId: users.reader!.id }),
    );
    expect(events).toContainEqual(expect.objectContaining({ type: 'reaction.removed', issueId: issue.id, content: 'heart' }));
  });

  it('pages the issue list (page/limit) and answers null for no reactions, as Gitea', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const url = `alice/pub/issues/${issue.index}`;
    const empty = await list('alice', url);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toBeNull();
    expect(empty.headers['x-total-count']).toBe('0');
    for (const content of ['+1', '-1', 'laugh']) expect((await post('alice', url, { content })).statusCode).toBe(201);
    const page = await t.request('GET', `/api/v1/repos/${url}/reactions?limit=2&page=2`, { headers: as('alice') });
    expect(page.headers['x-total-count']).toBe('3');
    expect((page.json() as Json[]).map((r) => r.content)).toEqual(['laugh']);
  });

  it("accepts exactly Gitea's default reactions; anything else is 403 with Gitea's message; a bad body is 422", async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const url = `alice/pub/issues/${issue.index}`;
    for (const content of ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']) {
      expect((await post('writer', url, { content })).statusCode).toBe(201);
    }
    expectGiteaError(await post('writer', url, { content: 'wrong' }), 403, "'wrong' is not an allowed reaction");
    expectGiteaError(await post('writer', url, { content: 'Heart' }), 403, "'Heart' is not an allowed reaction");
    expectGiteaError(await post('writer', url, { content: 'gitea' }), 403, "'gitea' is not an allowed reaction");
    expectGiteaError(await post('writer', url, {}), 403, "'' is not an allowed reaction");
    // No text can hold NUL: a binding error before the reaction is looked at (issue #10).
    expectGiteaError(await post('writer', url, { content: 'a\u0000b' }), 422, '[Content]: Invalid');
    expectGiteaError(await post('writer', url, { content: 5 }), 422);
    // Deleting something that is not a reaction is a no-op, as Gitea.
    expect((await del('writer', url, { content: 'zzz' })).statusCode).toBe(204);
    expectGiteaError(await del('writer', url, { content: 'a\u0000b' }), 422, '[Content]: Invalid');
    expect((await list('writer', url)).json()).toHaveLength(8);
    // Form bodies bind like JSON ones (Gitea's binding); a body-less DELETE removes nothing.
    const form = { 'content-type': 'application/x-www-form-urlencoded', ...as('writer') };
    expect((await t.request('DELETE', `/api/v1/repos/${url}/reactions`, { headers: form, payload: 'content=eyes' })).statusCode).toBe(204);
    expect((await t.request('POST', `/api/v1/repos/${url}/reactions`, { headers: form, payload: 'content=eyes' })).statusCode).toBe(201);
    expect((await t.request('DELETE', `/api/v1/repos/${url}/reactions`, { headers: as('writer') })).statusCode).toBe(204);
    expect((await post('writer', url, { content: null })).statusCode).toBe(403);
    expect((await list('writer', url)).json()).toHaveLength(8);
  });

  it('gates each role: anonymous 401 (public) or 404 (private), outsiders 404 on private, readers and any signed-in user on public may react', async () => {
    const pub = await newIssue('alice', 'alice/pub');
    const priv = await newIssue('alice', 'alice/priv');
    const pubUrl = `alice/pub/issues/${pub.index}`;
    const privUrl = `alice/priv/issues/${priv.index}`;
    expectGiteaError(await post('anon', pubUrl, { content: '+1' }), 401, 'token is required');
    expectGiteaError(await del('anon', pubUrl, { content: '+1' }), 401);
    expectGiteaError(await post('anon', privUrl, { content: '+1' }), 404);
    expectGiteaError(await list('anon', privUrl), 404);
    expectGiteaError(await post('outsider', privUrl, { content: '+1' }), 404);
    expectGiteaError(await list('outsider', privUrl), 404);
    expectGiteaError(await del('outsider', privUrl, { content: '+1' }), 404);
    expect((await post('outsider', pubUrl, { content: '+1' })).statusCode).toBe(201);
    expect((await post('reader', privUrl, { content: '+1' })).statusCode).toBe(201);
    expect((await post('writer', privUrl, { content: '+1' })).statusCode).toBe(201);
    expect((await post('alice', privUrl, { content: '+1' })).statusCode).toBe(201);
    expect((await post('admin', privUrl, { content: '+1' })).statusCode).toBe(201);
    expect((await list('reader', privUrl)).json()).toHaveLength(4);
    expectGiteaError(await post('alice', 'alice/pub/issues/9999', { content: '+1' }), 404);
    expectGiteaError(await post('alice', 'alice/pub/issues/abc', { content: '+1' }), 404);
    expectGiteaError(await list('alice', 'alice/pub/issues/9999'), 404);
    expectGiteaError(await post('alice', 'alice/nope/issues/1', { content: '+1' }), 404);
  });

  it('honours token scopes: read:issue may list but not react', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const url = `alice/pub/issues/${issue.index}`;
    const read = await t.createToken('writer', ['read:issue']);
    const write = await t.createToken('writer', ['write:issue']);
    expectGiteaError(await post('writer', url, { content: 'eyes' }, tokenAuth(read)), 403);
    expect((await post('writer', url, { content: 'eyes' }, tokenAuth(write))).statusCode).toBe(201);
    expect((await t.request('GET', `/api/v1/repos/${url}/reactions`, { headers: tokenAuth(read) })).statusCode).toBe(200);
  });

  it('a locked issue takes reactions only from writers (403 otherwise, also on delete); archived repositories still take them (Gitea has no archived check here)', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const url = `alice/pub/issues/${issue.index}`;
    expect((await post('reader', url, { content: 'eyes' })).statusCode).toBe(201);
    await t.db.issue.update({ where: { id: issue.id }, data: { isLocked: true } });
    expectGiteaError(await post('reader', url, { content: 'rocket' }), 403, 'no permission to change reaction');
    expectGiteaError(await del('reader', url, { content: 'eyes' }), 403, 'no permission to change reaction');
    expect((await post('writer', url, { content: 'rocket' })).statusCode).toBe(201);
    expect((await post('alice', url, { content: 'rocket' })).statusCode).toBe(201);

    const arch = await newIssue('alice', 'alice/arch');
    await editRepo(t, repos.arch!, { archived: true });
    expect((await post('reader', `alice/arch/issues/${arch.index}`, { content: 'eyes' })).statusCode).toBe(201);
    expect((await del('reader', `alice/arch/issues/${arch.index}`, { content: 'eyes' })).statusCode).toBe(204);
  });

  it('blocked users cannot react: blocked by the owner, the issue poster or the comment poster (403 "user is blocked")', async () => {
    const byAlice = await newIssue('alice', 'alice/pub');
    expectGiteaError(await post('blocked', `alice/pub/issues/${byAlice.index}`, { content: '+1' }), 403, 'user is blocked');
    const byPoster = await newIssue('poster', 'outsider/other');
    await blockUser(t, users.poster!, users.reader!);
    expectGiteaError(await post('reader', `outsider/other/issues/${byPoster.index}`, { content: '+1' }), 403, 'user is blocked');
    const byOutsider = await newIssue('outsider', 'outsider/other');
    const comment = await newComment(byOutsider, users.poster!);
    expectGiteaError(await post('reader', `outsider/other/issues/comments/${comment.id}`, { content: '+1' }), 403, 'user is blocked');
    expect((await post('reader', `outsider/other/issues/${byOutsider.index}`, { content: '+1' })).statusCode).toBe(201);
    // Site admins are never blocked (Gitea IsUserBlockedBy).
    await blockUser(t, users.alice!, users.admin!);
    expect((await post('admin', `alice/pub/issues/${byAlice.index}`, { content: '+1' })).statusCode).toBe(201);
  });

  it('comment reactions: 201/200, listed apart from the issue reactions (not paginated), 404 for another repository or unknown ids', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const comment = await newComment(issue, users.writer!);
    const url = `alice/pub/issues/comments/${comment.id}`;
    const created = await post('reader', url, { content: 'hooray' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ content: 'hooray', user: { login: 'reader' } });
    expect((await post('reader', url, { content: 'hooray' })).statusCode).toBe(200);
    expect((await post('alice', url, { content: 'laugh' })).statusCode).toBe(201);
    expect((await post('alice', `alice/pub/issues/${issue.index}`, { content: 'heart' })).statusCode).toBe(201);

    const listed = await list('anon', url);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['x-total-count']).toBeUndefined();
    expect((listed.json() as Json[]).map((r) => r.content)).toEqual(['hooray', 'laugh']);
    expect((await list('anon', `alice/pub/issues/${issue.index}`)).json().map((r: Json) => r.content)).toEqual(['heart']);

    const foreign = `outsider/other/issues/comments/${comment.id}`;
    expectGiteaError(await post('outsider', foreign, { content: '+1' }), 404, 'not found');
    expectGiteaError(await del('outsider', foreign, { content: '+1' }), 404);
    expectGiteaError(await list('outsider', foreign), 404);
    expectGiteaError(
      await post('alice', 'alice/pub/issues/comments/999999', { content: '+1' }),
      404,
      'comment does not exist [id: 999999, issue_id: 0]',
    );
    expectGiteaError(await list('alice', 'alice/pub/issues/comments/x'), 404);

    const privIssue = await newIssue('alice', 'alice/priv');
    const privComment = await newComment(privIssue, users.alice!);
    expectGiteaError(await post('outsider', `alice/priv/issues/comments/${privComment.id}`, { content: '+1' }), 404);
    expectGiteaError(await post('anon', `alice/pub/issues/comments/${comment.id}`, { content: '+1' }), 401);

    expect((await del('reader', url, { content: 'hooray' })).statusCode).toBe(204);
    expect((await list('anon', url)).json().map((r: Json) => r.content)).toEqual(['laugh']);
    await t.db.issue.update({ where: { id: issue.id }, data: { isLocked: true } });
    expectGiteaError(await post('reader', url, { content: '+1' }), 403, 'no permission to change reaction');
  });

  it('the same user reacting many times at once ends in one 201 and 200s, never a 500', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const comment = await newComment(issue, users.alice!);
    for (const url of [`alice/pub/issues/${issue.index}`, `alice/pub/issues/comments/${comment.id}`]) {
      const results = await Promise.all(Array.from({ length: 8 }, () => post('writer', url, { content: 'rocket' })));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(
        statuses.filter((s) => s === 201),
        statuses.join(','),
      ).toHaveLength(1);
      expect(
        statuses.every((s) => s === 200 || s === 201),
        statuses.join(','),
      ).toBe(true);
      expect(results.every((r) => r.json().content === 'rocket')).toBe(true);
    }
    expect(await t.db.reaction.count({ where: { issueId: issue.id, userId: users.writer!.id, type: 'rocket' } })).toBe(2);
  });
});
