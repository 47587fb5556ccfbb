import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

interface ReviewComment {
  id: number;
  body: string;
  path: string;
  position: number;
  pull_request_review_id: number;
  user: { login: string };
  resolver: { login: string } | null;
  diff_hunk: string;
}

describe.each(PROVIDERS)('review comment conversations: resolve, unresolve, replies (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let index = 0;
  let reviewId = 0;
  let commentId = 0;
  let plainCommentId = 0;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'author', 'writer', 'reader', 'stranger']) await t.createUser(u);
    await f.createRepo('alice', 'demo');
    for (const [user, permission] of [
      ['author', 'read'],
      ['reader', 'read'],
      ['writer', 'write'],
    ] as const) {
      const res = await t.request('PUT', `/api/v1/repos/alice/demo/collaborators/${user}`, {
        headers: basic('alice'),
        body: { permission },
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    await f.push('alice', 'demo', 'alice', 'feature', { 'a.txt': 'one\ntwo\nthree\n' });
    index = (await f.open('alice', 'demo', 'author', { head: 'feature', base: 'main' })).json.number as number;
    const review = await t.request('POST', `/api/v1/repos/alice/demo/pulls/${index}/reviews`, {
      headers: basic('writer'),
      body: { event: 'COMMENT', body: 'looks odd', comments: [{ path: 'a.txt', body: 'why two?', new_position: 2 }] },
    });
    expect(review.statusCode, review.body).toBe(200);
    reviewId = (review.json() as { id: number }).id;
    const comments = await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}/reviews/${reviewId}/comments`, {
      headers: basic('alice'),
    });
    commentId = (comments.json() as ReviewComment[])[0]?.id ?? 0;
    const plain = await t.request('POST', `/api/v1/repos/alice/demo/issues/${index}/comments`, {
      headers: basic('alice'),
      body: { body: 'plain' },
    });
    plainCommentId = (plain.json() as { id: number }).id;
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const mark = (action: 'resolve' | 'unresolve', user: string | null, id = commentId) =>
    t.request('POST', `/api/v1/repos/alice/demo/pulls/comments/${id}/${action}`, user ? { headers: basic(user) } : {});
  const listed = async () =>
    (
      await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}/reviews/${reviewId}/comments`, { headers: basic('alice') })
    ).json() as ReviewComment[];

  it('the pull request author resolves (resolver shown), a second resolve keeps the first resolver, a writer unresolves', async () => {
    expect((await mark('resolve', 'author')).statusCode).toBe(204);
    expect((await listed())[0]?.resolver?.login).toBe('author');
    expect((await mark('resolve', 'writer')).statusCode).toBe(204);
    expect((await listed())[0]?.resolver?.login).toBe('author');
    expect((await mark('unresolve', 'writer')).statusCode).toBe(204);
    expect((await listed())[0]?.resolver).toBeNull();
  });

  it('403 for a reader who is neither poster, writer nor official reviewer; 401 anonymous; 400 for a plain comment; 404 for an unknown one', async () => {
    expectGiteaError(await mark('resolve', 'reader'), 403);
    expectGiteaError(await mark('resolve', null), 401);
    expectGiteaError(await mark('resolve', 'alice', plainCommentId), 400);
    expectGiteaError(await mark('resolve', 'alice', 999999), 404);
    expect((await listed())[0]?.resolver).toBeNull();
  });

  it('a reply joins the review on the same file and line, counted as a pull request comment', async () => {
    const before = (await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}`, { headers: basic('alice') })).json() as {
      comments: number;
    };
    const res = await t.request('POST', `/api/v1/repos/alice/demo/pulls/${index}/comments/${commentId}/replies`, {
      headers: basic('reader'),
      body: { body: 'because three follows' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const reply = res.json() as ReviewComment;
    expect(reply).toMatchObject({
      body: 'because three follows',
      path: 'a.txt',
      position: 2,
      pull_request_review_id: reviewId,
      user: { login: 'reader' },
    });
    expect(reply.diff_hunk).toContain('+two');
    expect((await listed()).map((c) => c.body)).toEqual(['why two?', 'because three follows']);
    const after = (await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}`, { headers: basic('alice') })).json() as {
      comments: number;
    };
    expect(after.comments).toBe(before.comments + 1);
  });

  it('replies: 422 without a body, 404 for a comment of another pull request or none, 401 anonymous, 404 for a stranger of a private repository', async () => {
    const url = `/api/v1/repos/alice/demo/pulls/${index}/comments/${commentId}/replies`;
    expectGiteaError(await t.request('POST', url, { headers: basic('reader'), body: { body: '' } }), 422);
    expectGiteaError(await t.request('POST', url, { body: { body: 'x' } }), 401);
    const other = await f.pushAndOpen('alice', 'demo', 'alice', 'other', { 'b.txt': 'b\n' });
    expectGiteaError(
      await t.request('POST', `/api/v1/repos/alice/demo/pulls/${other}/comments/${commentId}/replies`, {
        headers: basic('reader'),
        body: { body: 'x' },
      }),
      404,
    );
    expectGiteaError(
      await t.request('POST', `/api/v1/repos/alice/demo/pulls/${index}/comments/999999/replies`, {
        headers: basic('reader'),
        body: { body: 'x' },
      }),
      404,
    );
    await f.createRepo('alice', 'secret', { private: true });
    expectGiteaError(
      await t.request('POST', `/api/v1/repos/alice/secret/pulls/comments/${commentId}/resolve`, { headers: basic('stranger') }),
      404,
    );
  });
});
