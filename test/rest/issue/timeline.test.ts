import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

const TIMELINE_KEYS = [
  'id',
  'type',
  'html_url',
  'pull_request_url',
  'issue_url',
  'user',
  'body',
  'created_at',
  'updated_at',
  'old_project_id',
  'project_id',
  'old_milestone',
  'milestone',
  'tracked_time',
  'old_title',
  'new_title',
  'old_ref',
  'new_ref',
  'ref_issue',
  'ref_comment',
  'ref_action',
  'ref_commit_sha',
  'review_id',
  'label',
  'assignee',
  'assignee_team',
  'removed_assignee',
  'resolve_doer',
  'dependent_issue',
];
const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

describe.each(PROVIDERS)('REST issue timeline (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};

  const req = (method: string, viewer: string, path: string, body?: unknown) =>
    t.request(method, `/api/v1/repos/${path}`, { headers: as(viewer), ...(body === undefined ? {} : { body }) });
  const timeline = (viewer: string, path: string) => req('GET', viewer, path);
  const issueRow = (repo: Models.Repository, n: number) =>
    t.db.issue.findUniqueOrThrow({ where: { repoId_index: { repoId: repo.id, index: n } } });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'outsider']) users[n] = await t.createUser(n);
    for (const [name, isPrivate] of [
      ['pub', false],
      ['priv', true],
      ['secret', true],
    ] as const) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name, private: isPrivate } });
      expect(res.statusCode, res.body).toBe(201);
      repos[name] = await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
    }
    for (const r of [repos.pub!, repos.priv!]) await addCollaborator(t, r, users.reader!, 'read');
  });
  afterAll(() => t.close());

  it('lists every event in Gitea TimelineComment form, oldest first', async () => {
    const label = (await req('POST', 'alice', 'alice/pub/labels', { name: 'bug', color: 'ff0000' })).json() as Json;
    const ms = (await req('POST', 'alice', 'alice/pub/milestones', { title: 'v1' })).json() as Json;
    const milestoneId =
      typeof ms.id === 'number' ? ms.id : (await t.db.milestone.create({ data: { repoId: repos.pub!.id, name: 'v1' } })).id;
    const created = await req('POST', 'alice', 'alice/pub/issues', {
      title: 'Old',
      labels: [label.id],
      assignees: ['reader'],
      milestone: milestoneId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const n = created.json().number as number;
    await req('PATCH', 'alice', `alice/pub/issues/${n}`, { title: 'New' });
    const comment = (await req('POST', 'reader', `alice/pub/issues/${n}/comments`, { body: 'a comment' })).json() as Json;
    await req('PATCH', 'alice', `alice/pub/issues/${n}`, { state: 'closed' });
    await req('PATCH', 'alice', `alice/pub/issues/${n}`, { state: 'open' });

    const res = await timeline('anon', `alice/pub/issues/${n}/timeline`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json() as Json[];
    expect(res.headers['x-total-count']).toBe(String(items.length));
    expect(res.headers.link).toBeUndefined();
    expect(items.map((i) => i.type)).toEqual(['label', 'milestone', 'assignees', 'change_title', 'comment', 'close', 'reopen']);
    for (const item of items) expect(Object.keys(item)).toEqual(TIMELINE_KEYS);
    const [labelItem, msItem, assignItem, titleItem, commentItem] = items;
    expect(labelItem).toMatchObject({
      body: '1',
      label: { id: label.id, name: 'bug', color: 'ff0000' },
      user: { login: 'alice' },
      milestone: null,
      assignee: null,
    });
    expect(msItem).toMatchObject({ milestone: { id: milestoneId, title: 'v1' }, old_milestone: null });
    expect(assignItem).toMatchObject({ assignee: { login: 'reader' }, removed_assignee: false });
    expect(titleItem).toMatchObject({ old_title: 'Old', new_title: 'New' });
    expect(commentItem).toMatchObject({
      id: comment.id,
      body: 'a comment',
      html_url: `http://localhost:3000/alice/pub/issues/${n}#issuecomment-${comment.id}`,
      issue_url: `http://localhost:3000/alice/pub/issues/${n}`,
      pull_request_url: '',
      ref_action: 'none',
      ref_issue: null,
      tracked_time: null,
      review_id: 0,
      project_id: 0,
    });
    expect(items.every((i) => (i.user as Json).email !== 'alice@example.com')).toBe(true);
  });

  it('pages with page/limit; X-Total-Count counts the page, as Gitea', async () => {
    const n = (await req('POST', 'alice', 'alice/pub/issues', { title: 'paged' })).json().number as number;
    for (let i = 0; i < 5; i++) await req('POST', 'alice', `alice/pub/issues/${n}/comments`, { body: `c${i}` });
    const p1 = await timeline('alice', `alice/pub/issues/${n}/timeline?limit=2`);
    expect((p1.json() as Json[]).map((i) => i.body)).toEqual(['c0', 'c1']);
    expect(p1.headers['x-total-count']).toBe('2');
    const p3 = await timeline('alice', `alice/pub/issues/${n}/timeline?limit=2&page=3`);
    expect((p3.json() as Json[]).map((i) => i.body)).toEqual(['c4']);
    expect((await timeline('alice', `alice/pub/issues/${n}/timeline?limit=2&page=9`)).json()).toEqual([]);
    const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect((await timeline('alice', `alice/pub/issues/${n}/timeline?since=${future}`)).json()).toEqual([]);
    expectGiteaError(await timeline('alice', `alice/pub/issues/${n}/timeline?before=nope`), 422);
  });

  it('renders time tracking and estimates as text, leaves code comments out, and hides references from unreadable repositories', async () => {
    const n = (await req('POST', 'alice', 'alice/priv/issues', { title: 'refs' })).json().number as number;
    const issue = await issueRow(repos.priv!, n);
    const secretIssue = (await req('POST', 'alice', 'alice/secret/issues', { title: 'hidden source' })).json() as Json;
    const secretRow = await issueRow(repos.secret!, secretIssue.number as number);
    const pubIssue = (await req('POST', 'alice', 'alice/pub/issues', { title: 'public source' })).json() as Json;
    const pubRow = await issueRow(repos.pub!, pubIssue.number as number);
    const time = await t.db.trackedTime.create({ data: { issueId: issue.id, userId: users.alice!.id, time: 3700 } });
    await t.db.comment.createMany({
      data: [
        { type: 'ADD_TIME_MANUAL', issueId: issue.id, posterId: users.alice!.id, content: '|3700', timeId: time.id },
        { type: 'CHANGE_TIME_ESTIMATE', issueId: issue.id, posterId: users.alice!.id, content: '3725' },
        { type: 'CODE', issueId: issue.id, posterId: users.alice!.id, content: 'code', treePath: 'a.txt', line: 3 },
        { type: 'ISSUE_REF', issueId: issue.id, posterId: users.alice!.id, refRepoId: repos.secret!.id, refIssueId: secretRow.id },
        { type: 'ISSUE_REF', issueId: issue.id, posterId: users.alice!.id, refRepoId: repos.pub!.id, refIssueId: pubRow.id },
      ],
    });
    const asReader = (await timeline('reader', `alice/priv/issues/${n}/timeline`)).json() as Json[];
    expect(asReader.map((i) => i.type)).toEqual(['add_time_manual', 'change_time_estimate', 'issue_ref']);
    expect(asReader[0]).toMatchObject({
      body: '1 hour 1 minute',
      tracked_time: { id: time.id, time: 3700, user_name: 'alice', issue_id: issue.id, issue: { number: n } },
    });
    expect(asReader[1]!.body).toBe('1h 2m 5s');
    expect(asReader[2]).toMatchObject({ ref_issue: { title: 'public source' } });
    const asOwner = (await timeline('alice', `alice/priv/issues/${n}/timeline`)).json() as Json[];
    expect(asOwner.filter((i) => i.type === 'issue_ref').map((i) => (i.ref_issue as Json).title)).toEqual([
      'hidden source',
      'public source',
    ]);
  });

  it('gates: 404 for outsiders on private repositories and unknown issues; anonymous reads public ones', async () => {
    const n = (await req('POST', 'alice', 'alice/priv/issues', { title: 'private' })).json().number as number;
    expectGiteaError(await timeline('outsider', `alice/priv/issues/${n}/timeline`), 404);
    expectGiteaError(await timeline('anon', `alice/priv/issues/${n}/timeline`), 404);
    expect((await timeline('reader', `alice/priv/issues/${n}/timeline`)).statusCode).toBe(200);
    expectGiteaError(await timeline('alice', 'alice/pub/issues/99999/timeline'), 404);
    expectGiteaError(await timeline('alice', 'alice/pub/issues/x/timeline'), 404);
    const pubN = (await req('POST', 'alice', 'alice/pub/issues', { title: 'public' })).json().number as number;
    expect((await timeline('outsider', `alice/pub/issues/${pubN}/timeline`)).statusCode).toBe(200);
  });

  it('costs the same SQL statements for a short and a long timeline', async () => {
    const labels: number[] = [];
    for (const name of ['l1', 'l2'])
      labels.push(((await req('POST', 'alice', 'alice/pub/labels', { name, color: '00ff00' })).json() as Json).id as number);
    async function build(events: number): Promise<number> {
      const n = (await req('POST', 'alice', 'alice/pub/issues', { title: `busy ${events}`, labels, assignees: ['reader'] })).json()
        .number as number;
      for (let i = 0; i < events; i++) {
        await req('POST', 'reader', `alice/pub/issues/${n}/comments`, { body: `c${i}` });
        await req('PATCH', 'alice', `alice/pub/issues/${n}`, { state: i % 2 ? 'open' : 'closed', title: `busy ${events} ${i}` });
      }
      return n;
    }
    const measure = async (n: number) => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await timeline('reader', `alice/pub/issues/${n}/timeline`);
      expect(res.statusCode).toBe(200);
      return { statements: t.queries.length, items: (res.json() as Json[]).length };
    };
    const small = await build(1);
    const large = await build(6);
    await measure(small);
    const a = await measure(small);
    const b = await measure(large);
    expect(b.items).toBeGreaterThan(a.items * 2);
    expect(b.statements).toBe(a.statements);
  });
});
