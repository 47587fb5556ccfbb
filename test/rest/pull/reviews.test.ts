import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

const REVIEW_KEYS = [
  'id',
  'user',
  'team',
  'state',
  'body',
  'commit_id',
  'stale',
  'official',
  'dismissed',
  'comments_count',
  'submitted_at',
  'updated_at',
  'html_url',
  'pull_request_url',
];
const COMMENT_KEYS = [
  'id',
  'body',
  'user',
  'resolver',
  'pull_request_review_id',
  'created_at',
  'updated_at',
  'path',
  'commit_id',
  'original_commit_id',
  'diff_hunk',
  'position',
  'original_position',
  'html_url',
  'pull_request_url',
];

const lines = (n: number, tag = 'line'): string => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n';

describe.each(PROVIDERS)('pull request reviews (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;
  let head: string;
  const reviews = (n = 1, suffix = '') => `/api/v1/repos/alice/demo/pulls/${n}/reviews${suffix}`;
  const post = (user: string | null, body: Record<string, unknown>, n = 1) =>
    t.request('POST', reviews(n), { ...(user ? { headers: basic(user) } : {}), body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const name of ['alice', 'paul', 'wendy', 'rita', 'oscar']) await t.createUser(name);
    await t.createUser('root', { admin: true });
    repo = await f.createRepo('alice', 'demo');
    for (const [user, permission] of [
      ['paul', 'write'],
      ['wendy', 'write'],
      ['rita', 'read'],
    ] as const) {
      const res = await t.request('PUT', `/api/v1/repos/alice/demo/collaborators/${user}`, {
        headers: basic('alice'),
        body: { permission },
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    await f.push('alice', 'demo', 'alice', 'main', { 'a.txt': lines(20) });
    const changed = lines(20).replace('line 10\n', 'line ten\n').replace('line 2\n', '');
    head = await f.push('alice', 'demo', 'paul', 'feature', { 'a.txt': changed });
    const { json } = await f.open('alice', 'demo', 'paul', { head: 'feature', base: 'main', title: 'Change a' });
    expect(json.number).toBe(1);
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it("Gitea's testAPIPullReviewGeneral: pending with comments, submit, COMMENT variants, 422 without body or comments", async () => {
    const comments = [
      { path: 'a.txt', body: 'on the new line', new_position: 9 },
      { path: 'a.txt', body: 'on the removed line', old_position: 2 },
      { path: 'a.txt', body: 'on the file', new_position: 0 },
    ];
    const pending = await post('wendy', { body: 'body1', comments });
    expect(pending.statusCode, pending.body).toBe(200);
    const p = pending.json();
    expect(Object.keys(p)).toEqual(REVIEW_KEYS);
    expect(p).toMatchObject({
      user: { login: 'wendy' },
      team: null,
      state: 'PENDING',
      body: 'body1',
      commit_id: head,
      stale: false,
      official: false,
      dismissed: false,
      comments_count: 3,
      html_url: '',
    });
    expect(p.pull_request_url).toBe('http://localhost:3000/alice/demo/pulls/1');

    // Pending reviews are only for their reviewer (and site admins); the total counts them anyway, as Gitea's does.
    const asRita = await t.request('GET', reviews(), { headers: basic('rita') });
    expect(asRita.statusCode).toBe(200);
    expect(asRita.json()).toEqual([]);
    expect(asRita.headers['x-total-count']).toBe('1');
    expect((await t.request('GET', reviews(), { headers: basic('wendy') })).json()).toHaveLength(1);
    expect((await t.request('GET', reviews(), { headers: basic('root') })).json()).toHaveLength(1);
    expectGiteaError(await t.request('GET', reviews(1, `/${p.id}`), { headers: basic('rita') }), 404);
    expectGiteaError(await t.request('GET', reviews(1, `/${p.id}`)), 404);

    const cs = await t.request('GET', reviews(1, `/${p.id}/comments`), { headers: basic('wendy') });
    expect(cs.statusCode, cs.body).toBe(200);
    const list = cs.json();
    expect(list).toHaveLength(3);
    expect(Object.keys(list[0])).toEqual(COMMENT_KEYS);
    expect(list[0]).toMatchObject({
      body: 'on the new line',
      user: { login: 'wendy' },
      resolver: null,
      pull_request_review_id: p.id,
      path: 'a.txt',
      commit_id: head,
      position: 9,
      original_position: 0,
    });
    expect(list[0].html_url).toBe(`http://localhost:3000/alice/demo/pulls/1/files#issuecomment-${list[0].id}`);
    expect(list[0].diff_hunk).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/);
    expect(list[0].diff_hunk).toContain('+line ten');
    expect(list[1]).toMatchObject({ position: 0, original_position: 2 });
    expect(list[1].diff_hunk).toContain('-line 2');
    expect(list[2]).toMatchObject({ position: 0, original_position: 0, diff_hunk: '' });
    const rows = await t.db.comment.findMany({ where: { reviewId: p.id }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.type, r.line, r.treePath, r.commitSha])).toEqual([
      ['CODE', 9, 'a.txt', head],
      ['CODE', -2, 'a.txt', head],
      ['CODE', 0, 'a.txt', head],
    ]);
    expect(rows[0]?.patch).toMatch(/^diff --git a\/a.txt b\/a.txt/);

    const submitted = await t.request('POST', reviews(1, `/${p.id}`), {
      headers: basic('wendy'),
      body: { event: 'APPROVED', body: 'lgtm' },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const s = submitted.json();
    expect(s).toMatchObject({ id: p.id, state: 'APPROVED', body: 'lgtm', official: true, comments_count: 3, commit_id: head });
    const timeline = await t.db.comment.findFirstOrThrow({ where: { reviewId: p.id, type: 'REVIEW' } });
    expect(timeline).toMatchObject({ content: 'lgtm', posterId: (await user('wendy')).id });
    expect(s.html_url).toBe(`http://localhost:3000/alice/demo/pulls/1#issuecomment-${timeline.id}`);
    expectGiteaError(
      await t.request('POST', reviews(1, `/${p.id}`), { headers: basic('wendy'), body: { event: 'APPROVED' } }),
      422,
      'only a pending review can be submitted',
    );
    const afterSubmit = await t.request('GET', reviews(1, `/${p.id}/comments`), { headers: basic('rita') });
    expect(afterSubmit.json()[0].html_url).toBe(`http://localhost:3000/alice/demo/pulls/1#issuecomment-${list[0].id}`);

    const comment = await post('wendy', { body: 'just a comment', event: 'COMMENT' });
    expect(comment.statusCode, comment.body).toBe(200);
    expect(comment.json()).toMatchObject({ state: 'COMMENT', body: 'just a comment', comments_count: 0, official: false });
    const noBody = await post('wendy', { event: 'COMMENT', comments: comments.slice(0, 2) });
    expect(noBody.statusCode, noBody.body).toBe(200);
    expect(noBody.json()).toMatchObject({ state: 'COMMENT', body: '', comments_count: 2 });
    const emptyComments = await post('wendy', { body: 'with empty comments', event: 'COMMENT', comments: [] });
    expect(emptyComments.statusCode).toBe(200);
    expectGiteaError(await post('wendy', { event: 'COMMENT' }), 422, 'review event COMMENT requires a body or a comment');
    expectGiteaError(await post('wendy', { event: 'COMMENT', body: '   ' }), 422, 'review event COMMENT requires a body or a comment');

    // review_comments of the pull request counts code comments.
    const pr = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1', { headers: basic('rita') });
    expect(pr.json().review_comments).toBe(5);
  });

  it("validation in Gitea's order, with its messages", async () => {
    expectGiteaError(await post('paul', { event: 'APPROVED' }), 422, 'approve your own pull is not allowed');
    expectGiteaError(await post('paul', { event: 'REQUEST_CHANGES', body: 'x' }), 422, 'reject your own pull is not allowed');
    expectGiteaError(await post('wendy', { event: 'REQUEST_CHANGES' }), 422, 'review event REQUEST_CHANGES requires a body');
    expectGiteaError(await post('wendy', { event: '' }), 422, 'review event  requires a body');
    expectGiteaError(await post('wendy', {}), 422, 'review event  requires a body');
    expectGiteaError(await post('wendy', { event: 'PENDING' }), 422, 'review event PENDING requires a body');
    expectGiteaError(
      await post('wendy', { event: 'REQUEST_REVIEW', comments: [{ path: 'a.txt', body: 'x', new_position: 1 }] }),
      422,
      'review event REQUEST_REVIEW requires a body',
    );
    expectGiteaError(await post('wendy', { event: 'COMMENT', comments: [{ body: 'no path', new_position: 1 }] }), 422, '[Path]: Required');
    expectGiteaError(await post('wendy', { event: 'COMMENT', body: 'x', commit_id: 'deadbeef' }), 422);
    expectGiteaError(await post('wendy', { event: 'COMMENT', body: 'x', comments: 'nope' }), 422);
    expectGiteaError(await post('wendy', { event: 'APPROVED' }, 99), 404);
    expectGiteaError(await t.request('GET', reviews(99)), 404);
    expectGiteaError(await t.request('GET', reviews(1, '/999999')), 404);
    expectGiteaError(await t.request('GET', reviews(1, '/x')), 404);
    // Anything but the three events makes a pending review (with a body).
    const other = await post('rita', { event: 'REQUEST_REVIEW', body: 'thinking' });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().state).toBe('PENDING');
    // The caller's pending review is reused: new comments join it, and an event submits it.
    const more = await post('rita', { event: 'COMMENT', body: 'done', comments: [{ path: 'a.txt', body: 'here', new_position: 1 }] });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json()).toMatchObject({ id: other.json().id, state: 'COMMENT', body: 'done', comments_count: 1 });
  });

  it('official: writers of the code only, for verdicts; the earlier reviews of the reviewer lose it', async () => {
    const byReader = await post('rita', { event: 'APPROVED' });
    expect(byReader.json()).toMatchObject({ state: 'APPROVED', official: false });
    const first = await post('wendy', { event: 'REQUEST_CHANGES', body: 'please fix' });
    expect(first.json()).toMatchObject({ state: 'REQUEST_CHANGES', official: true });
    const second = await post('wendy', { event: 'APPROVED', body: 'fixed' });
    expect(second.json()).toMatchObject({ state: 'APPROVED', official: true });
    const earlier = await t.request('GET', reviews(1, `/${first.json().id}`), { headers: basic('rita') });
    expect(earlier.json()).toMatchObject({ official: false, dismissed: true });
    const wendy = await user('wendy');
    expect(await t.db.review.count({ where: { reviewerId: wendy.id, official: true } })).toBe(1);
  });

  it('roles: anonymous reads a public pull request but may not review (401); an outsider may review unofficially; private: outsiders 404', async () => {
    const anon = await t.request('GET', reviews());
    expect(anon.statusCode).toBe(200);
    expect(anon.json().every((r: { state: string }) => r.state !== 'PENDING')).toBe(true);
    expectGiteaError(await post(null, { event: 'COMMENT', body: 'x' }), 401);
    const outsider = await post('oscar', { event: 'APPROVED' });
    expect(outsider.statusCode, outsider.body).toBe(200);
    expect(outsider.json()).toMatchObject({ user: { login: 'oscar' }, official: false });

    await f.createRepo('alice', 'secret', { private: true });
    await f.push('alice', 'secret', 'alice', 'main', { 'a.txt': lines(3) });
    await f.pushAndOpen('alice', 'secret', 'alice', 'topic', { 'a.txt': lines(4) });
    const secret = '/api/v1/repos/alice/secret/pulls/1/reviews';
    expectGiteaError(await t.request('GET', secret), 404);
    expectGiteaError(await t.request('GET', secret, { headers: basic('oscar') }), 404);
    expectGiteaError(await t.request('POST', secret, { headers: basic('oscar'), body: { event: 'COMMENT', body: 'x' } }), 404);
    expectGiteaError(await t.request('POST', secret, { body: { event: 'COMMENT', body: 'x' } }), 404);
    const admin = await t.request('POST', secret, { headers: basic('root'), body: { event: 'APPROVED' } });
    expect(admin.json()).toMatchObject({ state: 'APPROVED', official: true });

    const token = await t.createToken('wendy', ['read:repository']);
    expectGiteaError(
      await t.request('POST', reviews(), { headers: { authorization: `token ${token}` }, body: { event: 'COMMENT', body: 'x' } }),
      403,
    );
    expect((await t.request('GET', reviews(), { headers: { authorization: `token ${token}` } })).statusCode).toBe(200);
  });

  it('a verdict on an older commit of the pull request is stale; commit_id must be a commit of the pull request', async () => {
    const old = await f.push('alice', 'demo', 'paul', 'stale', { 's.txt': 'one\n' });
    const { json } = await f.open('alice', 'demo', 'paul', { head: 'stale', base: 'main' });
    const n = json.number as number;
    await f.push('alice', 'demo', 'paul', 'stale', { 's.txt': 'two\n' });
    const onOld = await post('wendy', { event: 'APPROVED', commit_id: old }, n);
    expect(onOld.statusCode, onOld.body).toBe(200);
    expect(onOld.json()).toMatchObject({ stale: true, commit_id: old });
    // A COMMENT review is never stale.
    expect((await post('wendy', { event: 'COMMENT', body: 'c', commit_id: old }, n)).json()).toMatchObject({
      stale: false,
      commit_id: old,
    });
    const onHead = await post('wendy', { event: 'APPROVED' }, n);
    expect(onHead.json()).toMatchObject({ stale: false });
    expect(onHead.json().commit_id).not.toBe(old);
    const elsewhere = await f.push('alice', 'demo', 'alice', 'unrelated', { 'u.txt': 'u\n' });
    expectGiteaError(
      await post('wendy', { event: 'APPROVED', commit_id: elsewhere }, n),
      422,
      `commit_id ${elsewhere} is not a commit of the pull request`,
    );
  });

  it('reviews become stale when the head moves, and fresh again for reviews of the new head', async () => {
    await f.push('alice', 'demo', 'paul', 'moving', { 'm.txt': 'one\n' });
    const { json } = await f.open('alice', 'demo', 'paul', { head: 'moving', base: 'main' });
    const n = json.number as number;
    const approval = (await post('wendy', { event: 'APPROVED' }, n)).json();
    const comment = (await post('rita', { event: 'COMMENT', body: 'looks fine' }, n)).json();
    expect(approval.stale).toBe(false);
    await f.push('alice', 'demo', 'paul', 'moving', { 'm.txt': 'two\n' });
    const get = async (id: number) => (await t.request('GET', reviews(n, `/${id}`), { headers: basic('oscar') })).json();
    expect(await get(approval.id)).toMatchObject({ stale: true, commit_id: approval.commit_id });
    expect(await get(comment.id)).toMatchObject({ stale: true });
    const fresh = (await post('wendy', { event: 'APPROVED' }, n)).json();
    expect(fresh).toMatchObject({ stale: false, official: true });
    expect(fresh.commit_id).not.toBe(approval.commit_id);
  });

  it('closed pull requests take comments but no verdicts', async () => {
    await f.push('alice', 'demo', 'paul', 'closing', { 'c.txt': 'c\n' });
    const { json } = await f.open('alice', 'demo', 'paul', { head: 'closing', base: 'main' });
    const n = json.number as number;
    const pending = await post('wendy', { body: 'later' }, n);
    const res = await t.request('PATCH', `/api/v1/repos/alice/demo/issues/${n}`, { headers: basic('alice'), body: { state: 'closed' } });
    expect(res.statusCode, res.body).toBe(201);
    expectGiteaError(await post('rita', { event: 'APPROVED' }, n), 422, "can't submit review for a closed or merged PR");
    expectGiteaError(await post('rita', { event: 'REQUEST_CHANGES', body: 'no' }, n), 422, "can't submit review for a closed or merged PR");
    expectGiteaError(
      await t.request('POST', reviews(n, `/${pending.json().id}`), { headers: basic('wendy'), body: { event: 'APPROVED' } }),
      422,
      "can't submit review for a closed or merged PR",
    );
    expect((await post('rita', { event: 'COMMENT', body: 'still' }, n)).statusCode).toBe(200);
    expect((await post('oscar', { body: 'pending' }, n)).statusCode).toBe(200);
  });

  it('delete: the reviewer or a site admin (bare 403 otherwise); code and timeline comments go too; requests cannot be deleted', async () => {
    await f.push('alice', 'demo', 'paul', 'deleting', { 'd.txt': 'd\n' });
    const { json } = await f.open('alice', 'demo', 'paul', { head: 'deleting', base: 'main' });
    const n = json.number as number;
    const issue = await t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, index: n } });
    const mine = await post('wendy', { event: 'COMMENT', body: 'c', comments: [{ path: 'd.txt', body: 'x', new_position: 1 }] }, n);
    expect((await t.db.issue.findUniqueOrThrow({ where: { id: issue.id } })).numComments).toBe(1);
    expectGiteaError(await t.request('DELETE', reviews(n, `/${mine.json().id}`), { headers: basic('rita') }), 403, '%!s(<nil>)');
    expectGiteaError(await t.request('DELETE', reviews(n, `/${mine.json().id}`), { headers: basic('alice') }), 403);
    expectGiteaError(await t.request('DELETE', reviews(n, `/${mine.json().id}`)), 401);
    const del = await t.request('DELETE', reviews(n, `/${mine.json().id}`), { headers: basic('wendy') });
    expect(del.statusCode, del.body).toBe(204);
    expect(await t.db.comment.count({ where: { issueId: issue.id, type: { in: ['CODE', 'REVIEW'] } } })).toBe(0);
    expect((await t.db.issue.findUniqueOrThrow({ where: { id: issue.id } })).numComments).toBe(0);
    expectGiteaError(await t.request('GET', reviews(n, `/${mine.json().id}`)), 404);

    const first = await post('wendy', { event: 'APPROVED' }, n);
    const second = await post('wendy', { event: 'REQUEST_CHANGES', body: 'hmm' }, n);
    expect((await t.request('DELETE', reviews(n, `/${second.json().id}`), { headers: basic('root') })).statusCode).toBe(204);
    // The previous verdict counts again.
    expect((await t.request('GET', reviews(n, `/${first.json().id}`))).json().official).toBe(true);

    const req = await t.request('POST', `/api/v1/repos/alice/demo/pulls/${n}/requested_reviewers`, {
      headers: basic('alice'),
      body: { reviewers: ['rita'] },
    });
    expect(req.statusCode, req.body).toBe(201);
    expectGiteaError(
      await t.request('DELETE', reviews(n, `/${req.json()[0].id}`), { headers: basic('root') }),
      422,
      'review request can not be deleted using this method',
    );
  });

  it('dismiss and undismiss: repository admins, verdicts only, open pull requests; a DISMISS_REVIEW comment', async () => {
    await f.push('alice', 'demo', 'paul', 'dismiss', { 'e.txt': 'e\n' });
    const { json } = await f.open('alice', 'demo', 'paul', { head: 'dismiss', base: 'main' });
    const n = json.number as number;
    const approval = (await post('wendy', { event: 'APPROVED', body: 'ok' }, n)).json();
    const comment = (await post('wendy', { event: 'COMMENT', body: 'fyi' }, n)).json();
    const dismiss = (id: number, u: string | null, body: Record<string, unknown> = { message: 'outdated' }) =>
      t.request('POST', reviews(n, `/${id}/dismissals`), { ...(u ? { headers: basic(u) } : {}), body });
    expectGiteaError(await dismiss(approval.id, null), 401);
    expectGiteaError(await dismiss(approval.id, 'wendy'), 403, 'Must be repo admin');
    expectGiteaError(await dismiss(999999, 'wendy'), 403, 'Must be repo admin');
    expectGiteaError(await dismiss(999999, 'alice'), 404);
    expectGiteaError(
      await dismiss(comment.id, 'alice'),
      403,
      "not need to dismiss this review because it's type is not Approve or change request",
    );
    const res = await dismiss(approval.id, 'alice');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: approval.id, state: 'APPROVED', dismissed: true });
    const row = await t.db.comment.findFirstOrThrow({ where: { reviewId: approval.id, type: 'DISMISS_REVIEW' } });
    expect(row.content).toBe('outdated');
    const undo = await t.request('POST', reviews(n, `/${approval.id}/undismissals`), { headers: basic('alice') });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().dismissed).toBe(false);
    expectGiteaError(
      await t.request('POST', reviews(n, `/${approval.id}/undismissals`), { headers: basic('rita') }),
      403,
      'Must be repo admin',
    );

    // priors: the reviewer's other verdicts are dismissed as well.
    const older = (await post('rita', { event: 'APPROVED' }, n)).json();
    const newer = (await post('rita', { event: 'REQUEST_CHANGES', body: 'no' }, n)).json();
    await t.db.review.update({ where: { id: older.id }, data: { dismissed: false } });
    expect((await dismiss(newer.id, 'alice', { message: 'm', priors: true })).statusCode).toBe(200);
    expect((await t.db.review.findUniqueOrThrow({ where: { id: older.id } })).dismissed).toBe(true);

    await t.request('PATCH', `/api/v1/repos/alice/demo/issues/${n}`, { headers: basic('alice'), body: { state: 'closed' } });
    expectGiteaError(await dismiss(approval.id, 'alice'), 403, "can't dismiss a review associated to a closed or merged PR");
  });

  it('activity: approve_pull_request / reject_pull_request / comment_pull (also per code comment)', async () => {
    await f.push('alice', 'demo', 'paul', 'feed', { 'f.txt': 'f\n' });
    const { json } = await f.open('alice', 'demo', 'paul', { head: 'feed', base: 'main' });
    const n = json.number as number;
    await post('wendy', { event: 'APPROVED', body: 'ship it\nnow' }, n);
    await post('rita', { event: 'REQUEST_CHANGES', body: 'wait' }, n);
    await post('oscar', { event: 'COMMENT', comments: [{ path: 'f.txt', body: 'nit', new_position: 1 }] }, n);
    await post('oscar', { body: 'pending only' }, n);
    await t.app.deps.notifier.drain();
    const wendy = await user('wendy');
    const rows = await t.db.action.findMany({
      where: {
        repoId: repo.id,
        userId: wendy.id,
        opType: { in: ['APPROVE_PULL_REQUEST', 'REJECT_PULL_REQUEST', 'COMMENT_PULL'] },
        content: { startsWith: `${n}|` },
      },
      orderBy: { id: 'asc' },
    });
    // Gitea's review rows carry the first line of the review body (services/feed PullRequestReview).
    expect(rows.map((r) => [r.opType, r.content])).toEqual([['APPROVE_PULL_REQUEST', `${n}|ship it`]]);
    const owner = await t.db.action.findMany({
      where: { repoId: repo.id, userId: repo.ownerId, content: { startsWith: `${n}|` }, opType: { not: 'CREATE_PULL_REQUEST' } },
      orderBy: { id: 'asc' },
    });
    // A COMMENT review without a body records only its code comments.
    expect(owner.map((r) => [r.opType, r.content])).toEqual([
      ['APPROVE_PULL_REQUEST', `${n}|ship it`],
      ['REJECT_PULL_REQUEST', `${n}|wait`],
      ['COMMENT_PULL', `${n}|nit`],
    ]);
  });

  async function user(name: string): Promise<Models.User> {
    return t.db.user.findUniqueOrThrow({ where: { lowerName: name } });
  }
});
