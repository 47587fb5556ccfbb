import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { parseGoInt } from '../../../src/services/milestone/milestone.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, createMilestone, editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

const MILESTONE_KEYS = [
  'id',
  'title',
  'description',
  'state',
  'open_issues',
  'closed_issues',
  'created_at',
  'updated_at',
  'closed_at',
  'due_on',
];
const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

describe('parseGoInt (Gitea reads milestone path ids with strconv.ParseInt(s, 0, 64))', () => {
  it('accepts Go base prefixes and underscores, and reads everything else as 0', () => {
    expect([
      parseGoInt('12'),
      parseGoInt('+12'),
      parseGoInt('-3'),
      parseGoInt('0x1f'),
      parseGoInt('0o17'),
      parseGoInt('017'),
      parseGoInt('0b101'),
      parseGoInt('1_000'),
    ]).toEqual([12, 12, -3, 31, 15, 15, 5, 1000]);
    expect([
      parseGoInt('v1.0'),
      parseGoInt(''),
      parseGoInt('1__0'),
      parseGoInt('_1'),
      parseGoInt('08'),
      parseGoInt('1e3'),
      parseGoInt('99999999999999999999'),
    ]).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe.each(PROVIDERS)('REST milestones (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const events: DomainEvent[] = [];

  const url = (p: string, rest = '') => `/api/v1/repos/${p}/milestones${rest}`;
  const post = (viewer: string, p: string, body: unknown) => t.request('POST', url(p), { headers: as(viewer), body });
  const patch = (viewer: string, p: string, id: number | string, body: unknown) =>
    t.request('PATCH', url(p, `/${id}`), { headers: as(viewer), body });
  const del = (viewer: string, p: string, id: number | string) => t.request('DELETE', url(p, `/${id}`), { headers: as(viewer) });
  const get = (viewer: string, p: string, rest = '') => t.request('GET', url(p, rest), { headers: as(viewer) });
  const titles = (res: { json(): unknown }) => (res.json() as Json[]).map((m) => m.title);
  const repoRow = (r: Models.Repository) => t.db.repository.findUniqueOrThrow({ where: { id: r.id } });
  async function newRepo(owner: string, name: string, isPrivate: boolean): Promise<Models.Repository> {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  async function issue(viewer: string, p: string, body: Json): Promise<Json> {
    const res = await t.request('POST', `/api/v1/repos/${p}/issues`, { headers: as(viewer), body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'blocked', 'admin'])
      users[n] = await t.createUser(n, n === 'admin' ? { admin: true } : {});
    repos.pub = await newRepo('alice', 'pub', false);
    repos.priv = await newRepo('alice', 'priv', true);
    repos.arch = await newRepo('alice', 'arch', false);
    repos.noissues = await newRepo('alice', 'noissues', false);
    for (const r of [repos.pub, repos.priv, repos.arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
    }
    await createMilestone(t, repos.arch, { title: 'frozen' });
    await editRepo(t, repos.arch, { archived: true });
    await editRepo(t, repos.noissues, { hasIssues: false, hasPullRequests: false });
    await blockUser(t, users.alice!, users.blocked!);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('creates milestones in Gitea JSON (open or closed, exact due date) and keeps repository counters exact', async () => {
    const res = await post('writer', 'alice/pub', { title: '  v1.0  ', description: 'first', due_on: '2030-01-02T03:04:05+02:00' });
    expect(res.statusCode, res.body).toBe(201);
    const j = res.json();
    expect(Object.keys(j)).toEqual(MILESTONE_KEYS);
    expect(j).toMatchObject({
      title: 'v1.0',
      description: 'first',
      state: 'open',
      open_issues: 0,
      closed_issues: 0,
      closed_at: null,
      due_on: '2030-01-02T01:04:05Z',
    });
    expect(j.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const closed = (await post('alice', 'alice/pub', { title: 'done', state: 'closed' })).json();
    expect(closed).toMatchObject({ state: 'closed', due_on: null });
    expect(closed.closed_at).toEqual(expect.any(String));
    // Gitea requires nothing: an untitled milestone is created.
    expect((await post('alice', 'alice/pub', {})).json()).toMatchObject({ title: '', state: 'open' });
    expect(await repoRow(repos.pub!)).toMatchObject({ numMilestones: 3, numClosedMilestones: 1 });
    expect((await get('anon', 'alice/pub', `/${j.id}`)).json()).toEqual(j);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual({ type: 'milestone.created', milestoneId: j.id, repoId: repos.pub!.id, actorId: users.writer!.id });
  });

  it('gates writes: 401 anonymous, 404 invisible, 403 readers and outsiders, 423 archived, 404 without issues', async () => {
    expectGiteaError(await post('anon', 'alice/pub', { title: 'x' }), 401);
    expectGiteaError(await post('outsider', 'alice/priv', { title: 'x' }), 404);
    expectGiteaError(await post('reader', 'alice/priv', { title: 'x' }), 403, 'user should have a permission to write to a repo');
    expectGiteaError(await post('outsider', 'alice/pub', { title: 'x' }), 403);
    expectGiteaError(await post('blocked', 'alice/pub', { title: 'x' }), 403);
    expectGiteaError(await post('writer', 'alice/arch', { title: 'x' }), 423, 'repo is archived');
    expectGiteaError(await patch('alice', 'alice/arch', 'frozen', { title: 'x' }), 423, 'repo is archived');
    expectGiteaError(await del('alice', 'alice/arch', 'frozen'), 423, 'repo is archived');
    expectGiteaError(await post('alice', 'alice/noissues', { title: 'x' }), 404);
    expectGiteaError(await get('alice', 'alice/noissues'), 404);
    expect((await post('admin', 'alice/priv', { title: 'by admin' })).statusCode).toBe(201);
    expect((await post('writer', 'alice/priv', { title: 'by writer' })).statusCode).toBe(201);
    // Token scopes: reading needs read:issue, writing write:issue.
    const readOnly = await t.createToken('alice', ['read:issue']);
    expect((await t.request('GET', url('alice/priv'), { headers: tokenAuth(readOnly) })).statusCode).toBe(200);
    expectGiteaError(await t.request('POST', url('alice/priv'), { headers: tokenAuth(readOnly), body: { title: 'x' } }), 403);
    const repoOnly = await t.createToken('alice', ['read:repository']);
    expectGiteaError(await t.request('GET', url('alice/priv'), { headers: tokenAuth(repoOnly) }), 403);
  });

  it('reads: public to anyone, private to readers only; by id, by name, by a Go-style id; 404 for unknown', async () => {
    const m = (await post('alice', 'alice/priv', { title: 'secret plan' })).json();
    expectGiteaError(await get('anon', 'alice/priv', `/${m.id}`), 404);
    expectGiteaError(await get('outsider', 'alice/priv'), 404);
    expect((await get('reader', 'alice/priv', `/${m.id}`)).json().title).toBe('secret plan');
    expect((await get('reader', 'alice/priv', '/secret%20plan')).json().id).toBe(m.id);
    expect((await get('reader', 'alice/priv', `/0x${(m.id as number).toString(16)}`)).json().id).toBe(m.id);
    expectGiteaError(await get('reader', 'alice/priv', '/424242'), 404, 'not found');
    expectGiteaError(await get('reader', 'alice/priv', '/no%20such'), 404, 'not found');
    // Another repository's milestone is not reachable through this one.
    const other = (await post('alice', 'alice/pub', { title: 'elsewhere' })).json();
    expectGiteaError(await get('alice', 'alice/priv', `/${other.id}`), 404);
  });

  it('lists by state and name (case-insensitive substring), due date first then name, with pagination headers', async () => {
    const r = await newRepo('alice', 'listing', false);
    await post('alice', 'alice/listing', { title: 'zeta', due_on: '2031-01-01T00:00:00Z' });
    await post('alice', 'alice/listing', { title: 'beta' });
    await post('alice', 'alice/listing', { title: 'gamma', due_on: '2030-01-01T00:00:00Z' });
    await post('alice', 'alice/listing', { title: 'alpha' });
    await post('alice', 'alice/listing', { title: 'omega', state: 'closed' });
    expect(titles(await get('anon', 'alice/listing'))).toEqual(['alpha', 'beta', 'gamma', 'zeta']);
    expect(titles(await get('anon', 'alice/listing', '?state=closed'))).toEqual(['omega']);
    expect(titles(await get('anon', 'alice/listing', '?state=all'))).toEqual(['alpha', 'beta', 'omega', 'gamma', 'zeta']);
    expect(titles(await get('anon', 'alice/listing', '?state=bogus'))).toEqual(['alpha', 'beta', 'gamma', 'zeta']);
    expect(titles(await get('anon', 'alice/listing', '?state=all&name=ETA'))).toEqual(['beta', 'zeta']);
    const paged = await get('anon', 'alice/listing', '?limit=2&page=2');
    expect(titles(paged)).toEqual(['gamma', 'zeta']);
    expect(paged.headers['x-total-count']).toBe('4');
    expect(paged.headers.link).toBe(
      linkHeader('repos/alice/listing/milestones', { limit: '2' }, [
        ['first', 1],
        ['prev', 1],
      ]),
    );
    expect((await repoRow(r)).numMilestones).toBe(5);
  });

  it('edits: title, description, due date (end of that day; absent clears it, as Gitea), state with closed_at', async () => {
    const m = (await post('alice', 'alice/pub', { title: 'to edit', due_on: '2030-03-03T10:00:00Z' })).json();
    expectGiteaError(await patch('anon', 'alice/pub', m.id, { title: 'x' }), 401);
    expectGiteaError(await patch('reader', 'alice/pub', m.id, { title: 'x' }), 403);
    expectGiteaError(await patch('writer', 'alice/pub', 424242, { title: 'x' }), 404);
    const before = await repoRow(repos.pub!);
    let res = await patch('writer', 'alice/pub', m.id, { title: 'edited', description: 'd', due_on: '2030-05-06T01:00:00+05:00' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: m.id, title: 'edited', description: 'd', due_on: '2030-05-06T23:59:59Z', state: 'open' });
    res = await patch('writer', 'alice/pub', 'edited', { title: '', state: 'closed' });
    expect(res.json()).toMatchObject({ title: 'edited', state: 'closed', due_on: null });
    expect(res.json().closed_at).toEqual(expect.any(String));
    expect(await repoRow(repos.pub!)).toMatchObject({
      numMilestones: before.numMilestones,
      numClosedMilestones: before.numClosedMilestones + 1,
    });
    res = await patch('alice', 'alice/pub', m.id, { state: 'open', due_on: '2030-07-08T12:00:00Z' });
    expect(res.json()).toMatchObject({ state: 'open', closed_at: null, due_on: '2030-07-08T23:59:59Z', description: 'd' });
    expect((await repoRow(repos.pub!)).numClosedMilestones).toBe(before.numClosedMilestones);
    expectGiteaError(await patch('alice', 'alice/pub', m.id, { due_on: 'tomorrow' }), 422);
    expectGiteaError(await patch('alice', 'alice/pub', m.id, { title: 42 }), 422);
    expectGiteaError(await post('alice', 'alice/pub', { title: 'nul\u0000' }), 422);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual({
      type: 'milestone.updated',
      milestoneId: m.id,
      repoId: repos.pub!.id,
      actorId: users.writer!.id,
      fields: ['title', 'description', 'due_on'],
    });
  });

  it('keeps open/closed issue counts exact as issues join, close and leave', async () => {
    const m = (await post('alice', 'alice/pub', { title: 'counted' })).json();
    const a = await issue('writer', 'alice/pub', { title: 'a', milestone: m.id });
    const b = await issue('writer', 'alice/pub', { title: 'b', milestone: m.id, closed: true });
    await issue('writer', 'alice/pub', { title: 'c', milestone: m.id });
    expect((await get('anon', 'alice/pub', `/${m.id}`)).json()).toMatchObject({ open_issues: 2, closed_issues: 1 });
    await t.request('PATCH', `/api/v1/repos/alice/pub/issues/${a.number}`, { headers: as('writer'), body: { state: 'closed' } });
    await t.request('PATCH', `/api/v1/repos/alice/pub/issues/${b.number}`, { headers: as('writer'), body: { milestone: 0 } });
    expect((await get('anon', 'alice/pub', `/${m.id}`)).json()).toMatchObject({ open_issues: 1, closed_issues: 1 });
    // Editing the milestone recounts too.
    expect((await patch('alice', 'alice/pub', m.id, { description: 'x' })).json()).toMatchObject({ open_issues: 1, closed_issues: 1 });
  });

  it('deletes: 204, issues lose the milestone, repository counters stay exact; then 404', async () => {
    const m = (await post('alice', 'alice/pub', { title: 'doomed', state: 'closed' })).json();
    const i = await issue('writer', 'alice/pub', { title: 'in doomed', milestone: m.id });
    expect(i.milestone).toMatchObject({ id: m.id });
    const updatedAt = (await t.db.issue.findUniqueOrThrow({ where: { id: i.id as number } })).updatedAt;
    expectGiteaError(await del('reader', 'alice/pub', m.id), 403);
    expectGiteaError(await del('anon', 'alice/pub', m.id), 401);
    const res = await del('writer', 'alice/pub', 'doomed');
    expect(res.statusCode, res.body).toBe(204);
    expectGiteaError(await get('alice', 'alice/pub', `/${m.id}`), 404);
    expectGiteaError(await del('writer', 'alice/pub', m.id), 404);
    const after = await t.db.issue.findUniqueOrThrow({ where: { id: i.id as number } });
    expect(after.milestoneId).toBeNull();
    expect(after.updatedAt).toEqual(updatedAt);
    expect((await t.request('GET', `/api/v1/repos/alice/pub/issues/${i.number}`)).json().milestone).toBeNull();
    const row = await repoRow(repos.pub!);
    expect(row.numMilestones).toBe(await t.db.milestone.count({ where: { repoId: row.id } }));
    expect(row.numClosedMilestones).toBe(await t.db.milestone.count({ where: { repoId: row.id, isClosed: true } }));
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual({ type: 'milestone.deleted', milestoneId: m.id, repoId: repos.pub!.id, actorId: users.writer!.id });
  });
});
