import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { PullFixture } from '../../helpers/pull.ts';

interface Activity {
  op_type: string;
  content: string;
  ref_name: string;
  comment_id: number;
  act_user: { login: string };
  repo: { full_name: string };
}

/** The op_types pull requests, reviews, renames, forks and branch deletions produce, with Gitea's content formats. */
describe.each(PROVIDERS)('activity op_types and contents (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    f = await PullFixture.start(t);
    await f.createRepo('alice', 'app');
  });
  afterAll(async () => {
    f.dispose();
    await t.close();
  });

  it('pull requests: create, comment, approve, close, reopen, merge; deleting the head branch, rename_repo and a fork', async () => {
    const pr = await f.pushAndOpen('alice', 'app', 'alice', 'topic', { 't.txt': 't\n' }, { title: 'Add t' });
    const h = { headers: basic('bob') };
    expect((await t.request('POST', `/api/v1/repos/alice/app/issues/${pr}/comments`, { ...h, body: { body: 'nice' } })).statusCode).toBe(
      201,
    );
    expect(
      (await t.request('POST', `/api/v1/repos/alice/app/pulls/${pr}/reviews`, { ...h, body: { event: 'APPROVED', body: 'ship it' } }))
        .statusCode,
    ).toBe(200);
    const a = { headers: basic('alice') };
    await t.request('PATCH', `/api/v1/repos/alice/app/pulls/${pr}`, { ...a, body: { state: 'closed' } });
    await t.request('PATCH', `/api/v1/repos/alice/app/pulls/${pr}`, { ...a, body: { state: 'open' } });
    expect(
      (
        await t.request('POST', `/api/v1/repos/alice/app/pulls/${pr}/merge`, {
          ...a,
          body: { Do: 'merge', delete_branch_after_merge: true },
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.request('PATCH', '/api/v1/repos/alice/app', { ...a, body: { name: 'app2' } })).statusCode).toBe(200);
    expect((await t.request('POST', '/api/v1/repos/alice/app2/forks', { ...h, body: {} })).statusCode).toBe(202);
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();

    const feed = (await t.request('GET', '/api/v1/repos/alice/app2/activities/feeds?limit=50')).json() as Activity[];
    const rows = feed.map((r) => [r.op_type, r.act_user.login, r.content.startsWith('{') ? 'json' : r.content, r.ref_name]).reverse();
    expect(rows).toEqual([
      ['create_repo', 'alice', '', ''],
      ['commit_repo', 'alice', 'json', 'refs/heads/topic'],
      ['create_pull_request', 'alice', `${pr}|Add t`, ''],
      ['comment_pull', 'bob', `${pr}|nice`, ''],
      ['approve_pull_request', 'bob', `${pr}|ship it`, ''],
      ['close_pull_request', 'alice', `${pr}|`, ''],
      ['reopen_pull_request', 'alice', `${pr}|`, ''],
      ['merge_pull_request', 'alice', `${pr}|Add t`, ''],
      ['commit_repo', 'alice', 'json', 'refs/heads/main'],
      ['delete_branch', 'alice', '', 'refs/heads/topic'],
      ['rename_repo', 'alice', 'app', ''],
    ]);
    expect(feed.find((r) => r.op_type === 'comment_pull')?.comment_id).toBeGreaterThan(0);
    // Close and reopen rows carry their timeline comment (Gitea IssueChangeStatus).
    const close = feed.find((r) => r.op_type === 'close_pull_request');
    expect(close?.comment_id).toBeGreaterThan(0);
    expect((close as unknown as { comment: { id: number } }).comment.id).toBe(close?.comment_id);
    const fork = (await t.request('GET', '/api/v1/repos/bob/app2/activities/feeds')).json() as Activity[];
    expect(fork.map((r) => [r.op_type, r.repo.full_name])).toEqual([['create_repo', 'bob/app2']]);
  });
});
