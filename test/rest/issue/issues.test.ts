import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, createMilestone, createRepoLabel, editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';
import { createOrgAs } from '../../helpers/org.ts';

const ISSUE_KEYS = [
  'id',
  'url',
  'html_url',
  'number',
  'user',
  'original_author',
  'original_author_id',
  'title',
  'body',
  'ref',
  'assets',
  'labels',
  'milestone',
  'assignee',
  'assignees',
  'state',
  'is_locked',
  'comments',
  'created_at',
  'updated_at',
  'closed_at',
  'due_date',
  'time_estimate',
  'pull_request',
  'repository',
  'pin_order',
  'content_version',
  'projects',
];
const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

describe.each(PROVIDERS)('REST issues (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const events: DomainEvent[] = [];

  const create = (viewer: string, p: string, body: unknown) =>
    t.request('POST', `/api/v1/repos/${p}/issues`, { headers: as(viewer), body });
  const edit = (viewer: string, p: string, n: number, body: unknown) =>
    t.request('PATCH', `/api/v1/repos/${p}/issues/${n}`, { headers: as(viewer), body });
  const get = (viewer: string, url: string) => t.request('GET', `/api/v1/${url}`, { headers: as(viewer) });
  const titles = (res: { json(): unknown }) => (res.json() as Json[]).map((i) => i.title);
  const repoRow = (r: Models.Repository) => t.db.repository.findUniqueOrThrow({ where: { id: r.id } });
  async function newRepo(owner: string, name: string, isPrivate: boolean, path = '/api/v1/user/repos'): Promise<Models.Repository> {
    const res = await t.request('POST', path, { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'blocked', 'orgowner']) users[n] = await t.createUser(n);
    repos.pub = await newRepo('alice', 'pub', false);
    repos.priv = await newRepo('alice', 'priv', true);
    repos.arch = await newRepo('alice', 'arch', false);
    await createOrgAs(t, users.orgowner!, 'acme');
    repos.org = await newRepo('orgowner', 'orepo', false, '/api/v1/orgs/acme/repos');
    for (const r of [repos.pub, repos.priv, repos.arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
    }
    await editRepo(t, repos.arch, { archived: true });
    await blockUser(t, users.alice!, users.blocked!);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('creates an issue with Gitea JSON: field order, urls, repository meta, empty relations', async () => {
    const res = await create('alice', 'alice/pub', { title: '  First  ', body: 'hello', ref: 'main' });
    expect(res.statusCode, res.body).toBe(201);
    const j = res.json();
    expect(Object.keys(j)).toEqual(ISSUE_KEYS);
    expect(j).toMatchObject({
      url: 'http://localhost:3000/api/v1/repos/alice/pub/issues/1',
      html_url: 'http://localhost:3000/alice/pub/issues/1',
      number: 1,
      title: 'First',
      body: 'hello',
      ref: 'main',
      assets: [],
      labels: [],
      milestone: null,
      assignee: null,
      assignees: null,
      state: 'open',
      is_locked: false,
      comments: 0,
      closed_at: null,
      due_date: null,
      pull_request: null,
      pin_order: 0,
      projects: null,
      repository: { id: repos.pub!.id, name: 'pub', owner: 'alice', full_name: 'alice/pub' },
    });
    expect(j.user.login).toBe('alice');
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events).toContainEqual({
      type: 'issue.created',
      issueId: j.id,
      repoId: repos.pub!.id,
      index: 1,
      isPull: false,
      actorId: users.alice!.id,
    });
    const anon = (await get('anon', 'repos/alice/pub/issues/1')).json();
    expect({ ...anon, user: anon.user.login }).toEqual({ ...j, user: 'alice' });
    expect((await repoRow(repos.pub!)).numIssues).toBe(1);
  });

  it('gates creation: 404 private outsider, 401 anonymous, 423 archived before 422, 422 title, 403 blocked; any user on a public repo', async () => {
    expectGiteaError(await create('outsider', 'alice/priv', { title: 'x' }), 404);
    expectGiteaError(await create('anon', 'alice/pub', { title: 'x' }), 401);
    expectGiteaError(await create('writer', 'alice/arch', {}), 423, 'repo is archived');
    expectGiteaError(await create('alice', 'alice/pub', {}), 422, '[Title]: Required');
    expectGiteaError(await create('alice', 'alice/pub', { title: '   ' }), 422, '[Title]: Required');
    expectGiteaError(await create('blocked', 'alice/pub', { title: 'x' }), 403, 'user is blocked');
    expect((await create('outsider', 'alice/pub', { title: 'by outsider' })).statusCode).toBe(201);
    expect((await create('reader', 'alice/priv', { title: 'by reader' })).statusCode).toBe(201);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/pub/issues', { headers: as('alice'), body: { title: 'x', labels: 'no' } }),
      422,
    );
  });

  it('drops labels, milestone, assignees and due date for non-writers; honours them (and org labels) for writers', async () => {
    const label = await createRepoLabel(t, repos.pub!, { name: 'bug', color: 'ee0701' });
    const foreign = await createRepoLabel(t, repos.priv!, { name: 'other', color: 'ee0701' });
    const ms = await createMilestone(t, repos.pub!, { title: 'v1' });
    const body = {
      title: 'rich',
      labels: [label.id, foreign.id, 999999],
      milestone: ms.id,
      assignees: ['writer'],
      assignee: 'alice',
      due_date: '2030-01-02T03:04:05Z',
      closed: true,
    };
    const byReader = (await create('reader', 'alice/pub', body)).json();
    expect(byReader).toMatchObject({ labels: [], milestone: null, assignees: null, due_date: null, state: 'closed' });
    expect(byReader.closed_at).toEqual(expect.any(String));
    const res = await create('writer', 'alice/pub', body);
    expect(res.statusCode, res.body).toBe(201);
    const j = res.json();
    expect(j.labels.map((l: Json) => l.name)).toEqual(['bug']);
    expect(j.milestone).toMatchObject({ id: ms.id, title: 'v1', open_issues: 0, closed_issues: 1, state: 'open' });
    expect(j.assignees.map((u: Json) => u.login)).toEqual(['alice', 'writer']);
    expect(j.assignee.login).toBe('alice');
    expect(j.due_date).toBe('2030-01-02T03:04:05Z');
    expect(await t.db.label.findUniqueOrThrow({ where: { id: label.id } })).toMatchObject({ numIssues: 1, numClosedIssues: 1 });
    expectGiteaError(
      await create('writer', 'alice/pub', { title: 'x', assignees: ['nobody'] }),
      422,
      'Assignee does not exist: [name: user does not exist [uid: 0, name: nobody]]',
    );
    expectGiteaError(
      await create('writer', 'alice/priv', { title: 'x', assignees: ['outsider'] }),
      422,
      `user doesn't have access to repo [user_id: ${users.outsider!.id}, repo_name: priv]`,
    );
    expect((await create('writer', 'alice/pub', { title: 'x', assignees: ['outsider'] })).statusCode).toBe(201);
    const orgLabel = await t.db.label.create({
      data: { orgId: (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'acme' } })).id, name: 'org-l', color: '00ff00' },
    });
    const o = (await create('orgowner', 'acme/orepo', { title: 'org', labels: [orgLabel.id] })).json();
    expect(o.labels).toEqual([
      expect.objectContaining({ name: 'org-l', url: `http://localhost:3000/api/v1/orgs/acme/labels/${orgLabel.id}` }),
    ]);
  });

  it('shows the poster and assignees as /users/{name} shows them, to each viewer (the view reads only the columns it shows)', async () => {
    const res = await create('alice', 'alice/pub', { title: 'who is who', assignees: ['writer', 'alice'] });
    expect(res.statusCode, res.body).toBe(201);
    const n = res.json().number as number;
    for (const viewer of ['anon', 'alice', 'writer', 'outsider']) {
      const issue = (await get(viewer, `repos/alice/pub/issues/${n}`)).json() as Json;
      const user = async (name: string) => (await get(viewer, `users/${name}`)).json() as Json;
      expect(issue.user, viewer).toEqual(await user('alice'));
      const assignees = issue.assignees as Json[];
      expect(assignees.map((a) => a.login).sort(), viewer).toEqual(['alice', 'writer']);
      for (const a of assignees) expect(a, viewer).toEqual(await user(a.login as string));
    }
  });

  it('reads: anonymous and outsiders see public issues only; 404 for unknown numbers', async () => {
    const n = (await create('alice', 'alice/priv', { title: 'secret' })).json().number as number;
    expectGiteaError(await get('anon', `repos/alice/priv/issues/${n}`), 404);
    expectGiteaError(await get('outsider', `repos/alice/priv/issues/${n}`), 404);
    expect((await get('reader', `repos/alice/priv/issues/${n}`)).json().title).toBe('secret');
    expectGiteaError(await get('alice', 'repos/alice/priv/issues/9999'), 404);
    expectGiteaError(await get('alice', 'repos/alice/priv/issues/abc'), 404);
    expectGiteaError(await get('outsider', 'repos/alice/priv/issues'), 404);
    expect((await get('anon', 'repos/alice/pub/issues?state=all')).statusCode).toBe(200);
  });

  it('edits: poster or writer only, state changes with CLOSE/REOPEN comments and exact counters, 201 as Gitea', async () => {
    const issue = (await create('outsider', 'alice/pub', { title: 'to edit' })).json();
    const n = issue.number as number;
    const before = await repoRow(repos.pub!);
    expectGiteaError(await edit('anon', 'alice/pub', n, { title: 'x' }), 401);
    expectGiteaError(await edit('reader', 'alice/pub', n, { title: 'x' }), 403);
    const own = await edit('outsider', 'alice/pub', n, {
      title: 'renamed',
      body: 'b',
      due_date: '2030-05-06T10:00:00+02:00',
      assignees: ['alice'],
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ title: 'renamed', body: 'b', due_date: null, assignees: null, content_version: 1 });
    const closed = await edit('writer', 'alice/pub', n, { state: 'closed', due_date: '2030-05-06T10:00:00+02:00', assignees: ['alice'] });
    expect(closed.json()).toMatchObject({ state: 'closed', due_date: '2030-05-06T21:59:59Z' });
    expect(closed.json().closed_at).toEqual(expect.any(String));
    expect(closed.json().assignees.map((u: Json) => u.login)).toEqual(['alice']);
    expect(await repoRow(repos.pub!)).toMatchObject({ numIssues: before.numIssues, numClosedIssues: before.numClosedIssues + 1 });
    await edit('writer', 'alice/pub', n, { state: 'closed' });
    expect((await repoRow(repos.pub!)).numClosedIssues).toBe(before.numClosedIssues + 1);
    const reopened = await edit('alice', 'alice/pub', n, { state: 'open', unset_due_date: true, assignees: [] });
    expect(reopened.json()).toMatchObject({ state: 'open', closed_at: null, due_date: null, assignees: null });
    expect((await repoRow(repos.pub!)).numClosedIssues).toBe(before.numClosedIssues);
    const types = (await t.db.comment.findMany({ where: { issueId: issue.id }, orderBy: { id: 'asc' } })).map((c) => c.type);
    expect(types).toEqual(expect.arrayContaining(['CHANGE_TITLE', 'CLOSE', 'REOPEN', 'ADDED_DEADLINE', 'REMOVED_DEADLINE']));
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual({ type: 'issue.closed', issueId: issue.id, repoId: repos.pub!.id, index: n, actorId: users.writer!.id });
    expect(events).toContainEqual({ type: 'issue.reopened', issueId: issue.id, repoId: repos.pub!.id, index: n, actorId: users.alice!.id });
    expectGiteaError(await edit('alice', 'alice/pub', 9999, { title: 'x' }), 404);
    expectGiteaError(await edit('alice', 'alice/arch', 1, { title: 'x' }), 423, 'repo is archived');
    expectGiteaError(await edit('writer', 'alice/pub', n, { milestone: 424242 }), 422);
    const repoJson = (await get('alice', 'repos/alice/pub')).json();
    const row = await repoRow(repos.pub!);
    expect(repoJson.open_issues_count).toBe(row.numIssues - row.numClosedIssues);
    expect(row.numIssues).toBe(await t.db.issue.count({ where: { repoId: row.id } }));
    expect(row.numClosedIssues).toBe(await t.db.issue.count({ where: { repoId: row.id, isClosed: true } }));
  });

  it('lists with filters and pagination headers', async () => {
    const r = await newRepo('alice', 'listing', false);
    const bug = await createRepoLabel(t, r, { name: 'bug', color: 'ee0701' });
    const ms = await createMilestone(t, r, { title: 'v2' });
    for (let i = 1; i <= 5; i++)
      await create('alice', 'alice/listing', {
        title: `alpha ${i}`,
        labels: i <= 2 ? [bug.id] : [],
        milestone: i === 3 ? ms.id : 0,
        assignees: i === 4 ? ['writer'] : [],
      });
    await create('outsider', 'alice/listing', { title: 'beta by outsider', closed: true });
    expect(titles(await get('anon', 'repos/alice/listing/issues'))).toEqual(['alpha 5', 'alpha 4', 'alpha 3', 'alpha 2', 'alpha 1']);
    expect(titles(await get('anon', 'repos/alice/listing/issues?state=closed'))).toEqual(['beta by outsider']);
    expect(titles(await get('anon', 'repos/alice/listing/issues?state=all&labels=bug'))).toEqual(['alpha 2', 'alpha 1']);
    expect(titles(await get('anon', 'repos/alice/listing/issues?milestones=v2'))).toEqual(['alpha 3']);
    expect(titles(await get('anon', `repos/alice/listing/issues?milestones=${ms.id}`))).toEqual(['alpha 3']);
    expect(titles(await get('anon', 'repos/alice/listing/issues?state=all&created_by=outsider'))).toEqual(['beta by outsider']);
    expect(titles(await get('anon', 'repos/alice/listing/issues?assigned_by=writer'))).toEqual(['alpha 4']);
    expect(titles(await get('anon', 'repos/alice/listing/issues?state=all&q=BETA'))).toEqual(['beta by outsider']);
    expect(titles(await get('anon', 'repos/alice/listing/issues?type=pulls'))).toEqual([]);
    expect(titles(await get('anon', 'repos/alice/listing/issues?since=2000-01-01T00:00:00Z&before=2999-01-01T00:00:00Z'))).toHaveLength(5);
    expectGiteaError(await get('anon', 'repos/alice/listing/issues?created_by=ghosty'), 404);
    expectGiteaError(await get('anon', 'repos/alice/listing/issues?since=yesterday'), 422);
    const paged = await get('anon', 'repos/alice/listing/issues?limit=2&page=2');
    expect(titles(paged)).toEqual(['alpha 3', 'alpha 2']);
    expect(paged.headers['x-total-count']).toBe('5');
    expect(paged.headers.link).toBe(
      linkHeader('repos/alice/listing/issues', { limit: '2' }, [
        ['next', 3],
        ['last', 3],
        ['first', 1],
        ['prev', 1],
      ]),
    );
  });

  it('searches across repositories the viewer can see', async () => {
    await create('alice', 'alice/priv', { title: 'zeta private' });
    await create('alice', 'alice/pub', { title: 'zeta public' });
    expect(titles(await get('anon', 'repos/issues/search?q=zeta'))).toEqual(['zeta public']);
    expect(titles(await get('outsider', 'repos/issues/search?q=zeta'))).toEqual(['zeta public']);
    expect(titles(await get('reader', 'repos/issues/search?q=zeta'))).toEqual(['zeta public', 'zeta private']);
    const mine = await get('outsider', 'repos/issues/search?created=true&state=all&limit=1');
    expect(mine.headers['x-total-count']).toBe(
      String(await t.db.issue.count({ where: { posterId: users.outsider!.id, repo: { isPrivate: false } } })),
    );
    expect((await get('alice', 'repos/issues/search?owner=acme')).json().map((i: Json) => (i.repository as Json).full_name)).toEqual([
      'acme/orepo',
    ]);
  });
});
