import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, deleteUser, editRepo, react, unblockUser } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

const COMMENT_KEYS = [
  'id',
  'html_url',
  'pull_request_url',
  'issue_url',
  'user',
  'original_author',
  'original_author_id',
  'body',
  'assets',
  'created_at',
  'updated_at',
];
const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

describe.each(PROVIDERS)('REST issue comments (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];

  const req = (method: string, viewer: string, path: string, body?: unknown) =>
    t.request(method, `/api/v1/repos/${path}`, { headers: as(viewer), ...(body === undefined ? {} : { body }) });
  const post = (viewer: string, repo: string, n: number, body: unknown) => req('POST', viewer, `${repo}/issues/${n}/comments`, body);
  const issueRow = (repo: string, n: number) =>
    t.db.issue.findFirstOrThrow({ where: { index: n, repo: { ownerName: repo.split('/')[0], name: repo.split('/')[1] } } });
  async function newIssue(viewer: string, repo: string, title = 'issue'): Promise<number> {
    const res = await req('POST', viewer, `${repo}/issues`, { title });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  }
  async function newComment(viewer: string, repo: string, n: number, body: string): Promise<Json> {
    const res = await post(viewer, repo, n, { body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  /** Gitea answers some 403s (and 400s) with no body at all. */
  const expectBare = (res: { statusCode: number; body: string }, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.body).toBe('');
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'blocked', 'carol']) users[n] = await t.createUser(n);
    users.admin = await t.createUser('siteadmin', { admin: true });
    for (const [name, isPrivate] of [
      ['pub', false],
      ['priv', true],
      ['arch', false],
      ['other', false],
    ] as const) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name, private: isPrivate } });
      expect(res.statusCode, res.body).toBe(201);
      const repo = await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
      await addCollaborator(t, repo, users.reader!, 'read');
      await addCollaborator(t, repo, users.writer!, 'write');
    }
    await blockUser(t, users.alice!, users.blocked!);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('creates a comment: 201, Gitea JSON in field order, exact counter, event and comment_issue feed row', async () => {
    const n = await newIssue('alice', 'alice/pub', 'first');
    const res = await post('outsider', 'alice/pub', n, { body: 'hello @alice' });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    expect(Object.keys(c)).toEqual(COMMENT_KEYS);
    expect(c).toMatchObject({
      html_url: `http://localhost:3000/alice/pub/issues/${n}#issuecomment-${c.id}`,
      pull_request_url: '',
      issue_url: `http://localhost:3000/alice/pub/issues/${n}`,
      original_author: '',
      original_author_id: 0,
      body: 'hello @alice',
      assets: [],
    });
    // Gitea renders comment users as anonymous viewers see them, even for the poster.
    expect(c.user).toMatchObject({
      login: 'outsider',
      email: `${users.outsider!.id}+outsider@noreply.localhost`,
      is_admin: false,
      login_name: '',
    });
    expect((await issueRow('alice/pub', n)).numComments).toBe(1);
    expect((await req('GET', 'anon', `alice/pub/issues/${n}`)).json().comments).toBe(1);
    await t.app.deps.notifier.drain();
    const issue = await issueRow('alice/pub', n);
    expect(events).toContainEqual({
      type: 'comment.created',
      commentId: c.id,
      issueId: issue.id,
      repoId: issue.repoId,
      index: n,
      isPull: false,
      actorId: users.outsider!.id,
    });
    const feed = await t.db.action.findMany({ where: { opType: 'COMMENT_ISSUE', commentId: c.id } });
    expect(new Set(feed.map((a) => a.userId))).toEqual(new Set([users.outsider!.id, users.alice!.id]));
    expect(feed[0]).toMatchObject({ actUserId: users.outsider!.id, content: `${n}|hello @alice`, isPrivate: false });
  });

  it('cuts long comments in the feed the way Gitea does', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const long = `${'word '.repeat(60)}end`;
    const c = await newComment('alice', 'alice/pub', n, long);
    await t.app.deps.notifier.drain();
    const row = await t.db.action.findFirstOrThrow({ where: { commentId: c.id as number } });
    const excerpt = row.content.slice(String(n).length + 1);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(long.startsWith(excerpt.slice(0, -1))).toBe(true);
  });

  it('gates creation in Gitea order: 404, 401, 423 before 422, 404 issue, 403 blocked; any signed-in user on a public repository', async () => {
    const n = await newIssue('alice', 'alice/priv');
    const pubN = await newIssue('alice', 'alice/pub');
    const archN = await newIssue('alice', 'alice/arch');
    await editRepo(t, { ownerName: 'alice', name: 'arch' }, { archived: true });
    expectGiteaError(await post('outsider', 'alice/priv', n, { body: 'x' }), 404);
    expectGiteaError(await post('anon', 'alice/priv', n, { body: 'x' }), 404);
    expectGiteaError(await post('anon', 'alice/pub', pubN, { body: 'x' }), 401, 'token is required');
    expectGiteaError(await post('writer', 'alice/arch', archN, {}), 423, 'repo is archived');
    expectGiteaError(await post('writer', 'alice/pub', pubN, {}), 422, '[Body]: Required');
    expectGiteaError(await post('writer', 'alice/pub', pubN, { body: '' }), 422, '[Body]: Required');
    expectGiteaError(await post('writer', 'alice/pub', 9999, { body: 'x' }), 404);
    expectGiteaError(await post('writer', 'alice/pub', pubN, { body: 5 }), 422);
    expectGiteaError(await post('blocked', 'alice/pub', pubN, { body: 'x' }), 403, 'user is blocked');
    // Blocked by the issue's poster (not the owner) is refused too.
    const carolN = await newIssue('carol', 'alice/pub');
    await blockUser(t, users.carol!, users.outsider!);
    expectGiteaError(await post('outsider', 'alice/pub', carolN, { body: 'x' }), 403, 'user is blocked');
    expect((await post('alice', 'alice/pub', carolN, { body: 'owner is an admin' })).statusCode).toBe(201);
    expect((await post('reader', 'alice/priv', n, { body: 'reader' })).statusCode).toBe(201);
    const token = await t.createToken('writer', ['read:issue']);
    expectGiteaError(
      await t.request('POST', `/api/v1/repos/alice/pub/issues/${pubN}/comments`, { headers: tokenAuth(token), body: { body: 'x' } }),
      403,
    );
    const writeToken = await t.createToken('writer', ['write:issue', 'read:repository']);
    expect(
      (await t.request('POST', `/api/v1/repos/alice/pub/issues/${pubN}/comments`, { headers: tokenAuth(writeToken), body: { body: 'x' } }))
        .statusCode,
    ).toBe(201);
  });

  it('a locked issue takes comments only from writers and site admins', async () => {
    const n = await newIssue('reader', 'alice/pub');
    await t.db.issue.update({ where: { id: (await issueRow('alice/pub', n)).id }, data: { isLocked: true } });
    expectGiteaError(await post('reader', 'alice/pub', n, { body: 'x' }), 403, 'You cannot comment on a locked issue.');
    expectGiteaError(await post('outsider', 'alice/pub', n, { body: 'x' }), 403, 'You cannot comment on a locked issue.');
    expect((await post('writer', 'alice/pub', n, { body: 'writer' })).statusCode).toBe(201);
    expect((await post('siteadmin', 'alice/pub', n, { body: 'admin' })).statusCode).toBe(201);
    expect((await issueRow('alice/pub', n)).numComments).toBe(2);
  });

  it('lists an issue’s plain comments only, oldest first, with since/before and X-Total-Count', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const a = await newComment('alice', 'alice/pub', n, 'one');
    await req('PATCH', 'alice', `alice/pub/issues/${n}`, { state: 'closed' });
    const b = await newComment('reader', 'alice/pub', n, 'two');
    const res = await req('GET', 'anon', `alice/pub/issues/${n}/comments`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers.link).toBeUndefined();
    expect((res.json() as Json[]).map((c) => c.id)).toEqual([a.id, b.id]);
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await t.db.comment.update({ where: { id: a.id as number }, data: { updatedAt: new Date(old) } });
    const since = await req(
      'GET',
      'anon',
      `alice/pub/issues/${n}/comments?since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`,
    );
    expect((since.json() as Json[]).map((c) => c.id)).toEqual([b.id]);
    const before = await req('GET', 'anon', `alice/pub/issues/${n}/comments?before=${encodeURIComponent(old)}`);
    expect((before.json() as Json[]).map((c) => c.id)).toEqual([a.id]);
    expectGiteaError(await req('GET', 'anon', `alice/pub/issues/${n}/comments?since=yesterday`), 422);
    expectGiteaError(await req('GET', 'anon', 'alice/pub/issues/9999/comments'), 404);
    const privN = await newIssue('alice', 'alice/priv');
    expectGiteaError(await req('GET', 'outsider', `alice/priv/issues/${privN}/comments`), 404);
    expect((await req('GET', 'reader', `alice/priv/issues/${privN}/comments`)).json()).toEqual([]);
  });

  it("lists a repository's comments across issues, paginated with Link and X-Total-Count", async () => {
    const n1 = await newIssue('alice', 'alice/other');
    const n2 = await newIssue('alice', 'alice/other');
    const ids: unknown[] = [];
    for (const [n, body] of [
      [n1, 'a'],
      [n2, 'b'],
      [n1, 'c'],
    ] as const)
      ids.push((await newComment('writer', 'alice/other', n, body)).id);
    await req('PATCH', 'alice', `alice/other/issues/${n2}`, { state: 'closed' });
    const page1 = await req('GET', 'anon', 'alice/other/issues/comments?limit=2');
    expect(page1.headers['x-total-count']).toBe('3');
    expect(page1.headers.link).toBe(
      linkHeader('repos/alice/other/issues/comments', { limit: '2' }, [
        ['next', 2],
        ['last', 2],
      ]),
    );
    expect((page1.json() as Json[]).map((c) => c.id)).toEqual(ids.slice(0, 2));
    const page2 = await req('GET', 'anon', 'alice/other/issues/comments?limit=2&page=2');
    expect((page2.json() as Json[]).map((c) => [c.id, c.issue_url])).toEqual([[ids[2], `http://localhost:3000/alice/other/issues/${n1}`]]);
    expectGiteaError(await req('GET', 'outsider', 'alice/priv/issues/comments'), 404);
  });

  it('gets one comment: 404 for another repository’s comment, 204 for a timeline event, hidden in private repositories', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const c = await newComment('alice', 'alice/pub', n, 'get me');
    const got = await req('GET', 'anon', `alice/pub/issues/comments/${c.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(c);
    expectGiteaError(
      await req('GET', 'alice', `alice/other/issues/comments/${c.id}`),
      404,
      `comment does not exist [id: ${c.id}, issue_id: 0]`,
    );
    expectGiteaError(await req('GET', 'alice', 'alice/pub/issues/comments/99999999'), 404);
    expectGiteaError(await req('GET', 'alice', 'alice/pub/issues/comments/abc'), 404);
    await req('PATCH', 'alice', `alice/pub/issues/${n}`, { state: 'closed' });
    const close = await t.db.comment.findFirstOrThrow({ where: { issueId: (await issueRow('alice/pub', n)).id, type: 'CLOSE' } });
    const event = await req('GET', 'alice', `alice/pub/issues/comments/${close.id}`);
    expect(event.statusCode).toBe(204);
    const privN = await newIssue('alice', 'alice/priv');
    const p = await newComment('alice', 'alice/priv', privN, 'secret');
    expectGiteaError(await req('GET', 'outsider', `alice/priv/issues/comments/${p.id}`), 404);
    expectGiteaError(await req('GET', 'anon', `alice/priv/issues/comments/${p.id}`), 404);
    expect((await req('GET', 'reader', `alice/priv/issues/comments/${p.id}`)).json().body).toBe('secret');
  });

  it('edits: poster or writer (403 with an empty body otherwise), content version, 204 for events, 423 only on the current route', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const c = await newComment('reader', 'alice/pub', n, 'typo');
    const id = c.id as number;
    const path = `alice/pub/issues/comments/${id}`;
    expectGiteaError(await req('PATCH', 'anon', path, { body: 'x' }), 401);
    expectBare(await req('PATCH', 'outsider', path, { body: 'x' }), 403);
    expectGiteaError(await req('PATCH', 'reader', path, {}), 422, '[Body]: Required');
    const own = await req('PATCH', 'reader', path, { body: 'fixed' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ id, body: 'fixed' });
    expect((await t.db.comment.findUniqueOrThrow({ where: { id } })).contentVersion).toBe(1);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'comment.updated', commentId: id, oldContent: 'typo', actorId: users.reader!.id }),
    );
    expect((await req('PATCH', 'writer', path, { body: 'by writer' })).json().body).toBe('by writer');
    const same = await req('PATCH', 'writer', path, { body: 'by writer' });
    expect(same.statusCode).toBe(200);
    expect((await t.db.comment.findUniqueOrThrow({ where: { id } })).contentVersion).toBe(2);
    // The deprecated alias ignores the index completely.
    const deprecated = await req('PATCH', 'alice', `alice/pub/issues/424242/comments/${id}`, { body: 'via alias' });
    expect(deprecated.statusCode, deprecated.body).toBe(200);
    expect(deprecated.json().body).toBe('via alias');
    expectGiteaError(
      await req('PATCH', 'alice', `alice/other/issues/comments/${id}`, { body: 'x' }),
      404,
      `comment does not exist [id: ${id}, issue_id: 0]`,
    );
    await req('PATCH', 'alice', `alice/pub/issues/${n}`, { state: 'closed' });
    const close = await t.db.comment.findFirstOrThrow({ where: { issueId: (await issueRow('alice/pub', n)).id, type: 'CLOSE' } });
    const event = await req('PATCH', 'alice', `alice/pub/issues/comments/${close.id}`, { body: 'x' });
    expect(event.statusCode).toBe(204);
    expect((await t.db.comment.findUniqueOrThrow({ where: { id: close.id } })).content).toBe('');
    // Blocked by the repository owner: even one's own comment cannot be edited.
    const otherN = await newIssue('writer', 'alice/other');
    await unblockUser(t, users.alice!, users.blocked!);
    const blockedC = await newComment('blocked', 'alice/other', otherN, 'from before the block');
    await blockUser(t, users.alice!, users.blocked!);
    expectGiteaError(await req('PATCH', 'blocked', `alice/other/issues/comments/${blockedC.id}`, { body: 'x' }), 403, 'user is blocked');
  });

  it('archived repositories: the current PATCH answers 423 first (even anonymously); the deprecated PATCH and DELETE still work, as Gitea', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const c = await newComment('writer', 'alice/pub', n, 'will be archived');
    const c2 = await newComment('writer', 'alice/pub', n, 'deleted while archived');
    const pub = { ownerName: 'alice', name: 'pub' };
    await editRepo(t, pub, { archived: true });
    try {
      expectGiteaError(await req('PATCH', 'anon', `alice/pub/issues/comments/${c.id}`, { body: 'x' }), 423, 'repo is archived');
      expectGiteaError(await req('PATCH', 'writer', `alice/pub/issues/comments/${c.id}`, { body: 'x' }), 423, 'repo is archived');
      expect((await req('PATCH', 'writer', `alice/pub/issues/${n}/comments/${c.id}`, { body: 'edited anyway' })).statusCode).toBe(200);
      expectGiteaError(await req('PATCH', 'anon', `alice/pub/issues/${n}/comments/${c.id}`, { body: 'x' }), 401);
      expect((await req('DELETE', 'writer', `alice/pub/issues/comments/${c2.id}`)).statusCode).toBe(204);
    } finally {
      await editRepo(t, pub, { archived: false });
    }
  });

  it('deletes: poster or writer, counter, reactions and feed rows in the same transaction; 400 for events; the deprecated alias', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const issue = await issueRow('alice/pub', n);
    const keep = await newComment('alice', 'alice/pub', n, 'keep');
    const c = await newComment('reader', 'alice/pub', n, 'delete me');
    await t.app.deps.notifier.drain();
    const id = c.id as number;
    const pub = { ownerName: 'alice', name: 'pub' };
    await react(t, users.alice!, pub, { commentId: id }, '+1');
    await react(t, users.alice!, pub, { commentId: keep.id as number }, 'heart');
    await react(t, users.alice!, pub, { index: n }, 'eyes');
    expect((await issueRow('alice/pub', n)).numComments).toBe(2);
    const path = `alice/pub/issues/comments/${id}`;
    expectGiteaError(await req('DELETE', 'anon', path), 401);
    expectBare(await req('DELETE', 'outsider', path), 403);
    // A writer may delete someone else's comment.
    expect((await req('DELETE', 'writer', `alice/pub/issues/comments/${keep.id}`)).statusCode).toBe(204);
    expect((await issueRow('alice/pub', n)).numComments).toBe(1);
    const updatedAt = (await issueRow('alice/pub', n)).updatedAt;
    const res = await req('DELETE', 'reader', path);
    expect(res.statusCode, res.body).toBe(204);
    const after = await issueRow('alice/pub', n);
    expect(after.numComments).toBe(0);
    expect(after.updatedAt).toEqual(updatedAt);
    expect(await t.db.comment.findUnique({ where: { id } })).toBeNull();
    // Only the deleted comments' reactions went; the issue's own reaction stays.
    expect(await t.db.reaction.findMany({ where: { issueId: issue.id }, select: { type: true }, orderBy: { id: 'asc' } })).toEqual([
      { type: 'eyes' },
    ]);
    expect(
      await t.db.action.count({ where: { opType: 'COMMENT_ISSUE', content: { startsWith: `${n}|delete me` }, isDeleted: false } }),
    ).toBe(0);
    expect(await t.db.action.count({ where: { opType: 'COMMENT_ISSUE', content: `${n}|delete me`, isDeleted: true } })).toBeGreaterThan(0);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'comment.deleted', commentId: id, posterId: users.reader!.id, content: 'delete me' }),
    );
    expectGiteaError(await req('DELETE', 'reader', path), 404);
    await req('PATCH', 'alice', `alice/pub/issues/${n}`, { state: 'closed' });
    const close = await t.db.comment.findFirstOrThrow({ where: { issueId: issue.id, type: 'CLOSE' } });
    expectBare(await req('DELETE', 'alice', `alice/pub/issues/comments/${close.id}`), 400);
    const viaAlias = await newComment('alice', 'alice/pub', n, 'alias');
    expect((await req('DELETE', 'alice', `alice/pub/issues/0/comments/${viaAlias.id}`)).statusCode).toBe(204);
    expectGiteaError(await req('DELETE', 'alice', `alice/other/issues/comments/${viaAlias.id}`), 404);
  });

  it('comment lists cost the same SQL statements for 2 and 10 comments (posters and issues bulk-loaded)', async () => {
    const n1 = await newIssue('alice', 'alice/pub', 'counted');
    const n2 = await newIssue('writer', 'alice/pub', 'counted too');
    const measure = async (path: string) => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await req('GET', 'reader', path);
      expect(res.statusCode).toBe(200);
      return { statements: t.queries.length, items: (res.json() as Json[]).length };
    };
    const posters = ['alice', 'reader', 'writer', 'outsider', 'carol'];
    await newComment('alice', 'alice/pub', n1, 'one');
    await newComment('reader', 'alice/pub', n2, 'two');
    const smallIssue = await measure(`alice/pub/issues/${n1}/comments`);
    const smallRepo = await measure('alice/pub/issues/comments?limit=50');
    for (let i = 0; i < 8; i++) await newComment(posters[i % posters.length]!, 'alice/pub', i % 2 ? n1 : n2, `more ${i}`);
    const largeIssue = await measure(`alice/pub/issues/${n1}/comments`);
    const largeRepo = await measure('alice/pub/issues/comments?limit=50');
    expect(largeIssue.items).toBe(smallIssue.items + 4);
    expect(largeRepo.items).toBeGreaterThan(smallRepo.items);
    expect(largeIssue.statements).toBe(smallIssue.statements);
    expect(largeRepo.statements).toBe(smallRepo.statements);
  });

  it('pull request comments link to the pull request and feed as comment_pull; deleted posters show as Ghost', async () => {
    const repo = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', name: 'pub' } });
    const max = await t.db.issue.aggregate({ where: { repoId: repo.id }, _max: { index: true } });
    const index = (max._max.index ?? 0) + 1;
    await t.db.issueIndex.upsert({ where: { repoId: repo.id }, create: { repoId: repo.id, maxIndex: index }, update: { maxIndex: index } });
    await t.db.issue.create({ data: { repoId: repo.id, index, title: 'a pull', isPull: true, posterId: users.alice!.id } });
    const c = await newComment('writer', 'alice/pub', index, 'lgtm');
    expect(c).toMatchObject({
      pull_request_url: `http://localhost:3000/alice/pub/pulls/${index}`,
      issue_url: '',
      html_url: `http://localhost:3000/alice/pub/pulls/${index}#issuecomment-${c.id}`,
    });
    await t.app.deps.notifier.drain();
    expect(await t.db.action.count({ where: { commentId: c.id as number, opType: 'COMMENT_PULL' } })).toBeGreaterThan(0);
    const ghost = await t.createUser('ghostly');
    const g = await newComment('ghostly', 'alice/pub', index, 'soon gone');
    await deleteUser(t, ghost);
    expect((await req('GET', 'anon', `alice/pub/issues/comments/${g.id}`)).json().user).toMatchObject({ id: -1, login: 'Ghost' });
  });
});
