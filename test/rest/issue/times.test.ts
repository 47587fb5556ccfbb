import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addAssignees, addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;
const TIME_KEYS = ['id', 'created', 'time', 'user_id', 'user_name', 'issue_id', 'issue'];
const STOPWATCH_KEYS = ['created', 'seconds', 'duration', 'issue_index', 'issue_title', 'repo_owner_name', 'repo_name'];

describe.each(PROVIDERS)('REST tracked times and stopwatches (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];

  const addTime = (viewer: string, repo: string, index: number, body: unknown, headers = as(viewer)) =>
    t.request('POST', `/api/v1/repos/${repo}/issues/${index}/times`, { headers, body });
  const get = (viewer: string, url: string, headers = as(viewer)) => t.request('GET', `/api/v1/${url}`, { headers });
  const del = (viewer: string, url: string) => t.request('DELETE', `/api/v1/${url}`, { headers: as(viewer) });
  const bare403 = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).toBe('');
  };

  async function newRepo(owner: string, name: string, isPrivate: boolean): Promise<Models.Repository> {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    const repo = await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
    await addCollaborator(t, repo, users.reader!, 'read');
    await addCollaborator(t, repo, users.writer!, 'write');
    await addCollaborator(t, repo, users.repoadmin!, 'admin');
    return repo;
  }
  async function newIssue(viewer: string, repo: string, title = 'an issue'): Promise<number> {
    const res = await t.request('POST', `/api/v1/repos/${repo}/issues`, { headers: as(viewer), body: { title } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  }
  const issueRow = (repo: Models.Repository, index: number) =>
    t.db.issue.findUniqueOrThrow({ where: { repoId_index: { repoId: repo.id, index } } });
  async function setTracker(repo: string, enable: boolean, onlyContributors: boolean): Promise<void> {
    const res = await t.request('PATCH', `/api/v1/repos/${repo}`, {
      headers: as('alice'),
      body: {
        has_issues: true,
        internal_tracker: {
          enable_time_tracker: enable,
          allow_only_contributors_to_track_time: onlyContributors,
          enable_issue_dependencies: true,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().internal_tracker).toMatchObject({
      enable_time_tracker: enable,
      allow_only_contributors_to_track_time: onlyContributors,
    });
  }

  const repos: Record<string, Models.Repository> = {};
  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'repoadmin', 'outsider', 'poster', 'lurker']) users[n] = await t.createUser(n);
    users.admin = await t.createUser('admin', { admin: true });
    repos.pub = await newRepo('alice', 'pub', false);
    repos.priv = await newRepo('alice', 'priv', true);
    repos.off = await newRepo('alice', 'off', false);
    repos.open = await newRepo('alice', 'open', false);
    await setTracker('alice/off', false, true);
    await setTracker('alice/open', true, false);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('adds time: 200 with Gitea JSON and the issue embedded, the given `created`, an ADD_TIME_MANUAL comment and an event', async () => {
    const n = await newIssue('alice', 'alice/pub', 'timed');
    const res = await addTime('writer', 'alice/pub', n, { time: 3600, created: '2000-01-12T01:33:38Z' });
    expect(res.statusCode, res.body).toBe(200);
    const j = res.json();
    expect(Object.keys(j)).toEqual(TIME_KEYS);
    const issue = await issueRow(repos.pub!, n);
    expect(j).toMatchObject({
      created: '2000-01-12T01:33:38Z',
      time: 3600,
      user_id: users.writer!.id,
      user_name: 'writer',
      issue_id: issue.id,
    });
    expect(j.issue).toMatchObject({ id: issue.id, number: n, title: 'timed' });
    const comment = await t.db.comment.findFirstOrThrow({ where: { issueId: issue.id, type: 'ADD_TIME_MANUAL' } });
    expect(comment).toMatchObject({ content: '|3600', timeId: j.id, posterId: users.writer!.id });
    expect((await t.db.issue.findUniqueOrThrow({ where: { id: issue.id } })).numComments).toBe(0);
    const listed = (await get('writer', `repos/alice/pub/issues/${n}/times`)).json() as Json[];
    expect(listed.map((x) => [x.id, x.created, x.time])).toEqual([[j.id, '2000-01-12T01:33:38Z', 3600]]);
    const now = await addTime('writer', 'alice/pub', n, { time: -60 });
    expect(now.statusCode).toBe(200);
    expect(Date.now() - Date.parse(now.json().created)).toBeLessThan(60_000);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'trackedTime.added',
        trackedTimeId: j.id,
        issueId: issue.id,
        userId: users.writer!.id,
        seconds: 3600,
      }),
    );
  });

  it('books for `user_name` only for site admins and repository admins naming someone else; unknown → 404', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const byAdmin = await addTime('admin', 'alice/pub', n, { time: 33, user_name: 'reader', created: '2000-01-12T01:33:38Z' });
    expect(byAdmin.json()).toMatchObject({ time: 33, user_id: users.reader!.id, user_name: 'reader', created: '2000-01-12T01:33:38Z' });
    expect((await addTime('repoadmin', 'alice/pub', n, { time: 5, user_name: 'writer' })).json().user_name).toBe('writer');
    expect((await addTime('alice', 'alice/pub', n, { time: 5, user_name: 'writer' })).json().user_name).toBe('writer');
    expect((await addTime('writer', 'alice/pub', n, { time: 5, user_name: 'alice' })).json().user_name).toBe('writer');
    expect((await addTime('repoadmin', 'alice/pub', n, { time: 5, user_name: 'repoadmin' })).json().user_name).toBe('repoadmin');
    expectGiteaError(
      await addTime('admin', 'alice/pub', n, { time: 5, user_name: 'nonexistentuser' }),
      404,
      'user does not exist [uid: 0, name: nonexistentuser]',
    );
    expect((await addTime('writer', 'alice/pub', n, { time: 5, user_name: 'nonexistentuser' })).json().user_name).toBe('writer');
    const comment = await t.db.comment.findFirstOrThrow({ where: { type: 'ADD_TIME_MANUAL', content: '|33' } });
    expect(comment.posterId).toBe(users.reader!.id);
  });

  it('validates the body (422 after the sign-in check) and gates each role', async () => {
    const n = await newIssue('alice', 'alice/pub');
    expectGiteaError(await addTime('writer', 'alice/pub', n, {}), 422, '[Time]: Required');
    expectGiteaError(await addTime('writer', 'alice/pub', n, { time: 0 }), 422, '[Time]: Required');
    expectGiteaError(await addTime('writer', 'alice/pub', n, { time: 'abc' }), 422);
    expectGiteaError(await addTime('writer', 'alice/pub', n, { time: 1, created: 'yesterday' }), 422);
    expectGiteaError(await addTime('writer', 'alice/pub', n, { time: 1e12 }), 422);
    const form = await t.request('POST', `/api/v1/repos/alice/pub/issues/${n}/times`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...as('writer') },
      payload: 'time=90',
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().time).toBe(90);
    expect((await addTime('writer', 'alice/pub', n, { time: 1, created: null, user_name: null })).statusCode).toBe(200);
    expectGiteaError(await addTime('anon', 'alice/pub', n, {}), 401, 'token is required');
    expectGiteaError(await addTime('anon', 'alice/priv', 1, { time: 1 }), 404);
    expectGiteaError(await addTime('outsider', 'alice/priv', 1, { time: 1 }), 404);
    expectGiteaError(await addTime('writer', 'alice/pub', 9999, { time: 1 }), 404);
    expectGiteaError(await addTime('writer', 'alice/pub', 9999, {}), 422);
    // Only contributors (writers, the poster, assignees) may track time by default: a bare 403 for the others.
    bare403(await addTime('reader', 'alice/pub', n, { time: 1 }));
    bare403(await addTime('outsider', 'alice/pub', n, { time: 1 }));
    const own = await newIssue('poster', 'alice/pub');
    expect((await addTime('poster', 'alice/pub', own, { time: 7 })).statusCode).toBe(200);
    await addAssignees(t, await issueRow(repos.pub!, n), [users.reader!]);
    expect((await addTime('reader', 'alice/pub', n, { time: 7 })).statusCode).toBe(200);
    expect((await addTime('alice', 'alice/pub', n, { time: 7 })).statusCode).toBe(200);
    expect((await addTime('admin', 'alice/pub', n, { time: 7 })).statusCode).toBe(200);
    // allow_only_contributors_to_track_time=false: any reader of the issue may.
    const open = await newIssue('alice', 'alice/open');
    expect((await addTime('outsider', 'alice/open', open, { time: 7 })).statusCode).toBe(200);
    // A disabled tracker: 400, even for the owner.
    const off = await newIssue('alice', 'alice/off');
    expectGiteaError(await addTime('alice', 'alice/off', off, { time: 7 }), 400, 'time tracking disabled');
    // A read-only token may not add time.
    expectGiteaError(await addTime('writer', 'alice/pub', n, { time: 7 }, tokenAuth(await t.createToken('writer', ['read:issue']))), 403);
  });

  it("lists an issue's times: signed in, writers see all, others their own (403 for someone else's), filters and pagination", async () => {
    const n = await newIssue('alice', 'alice/priv');
    await addAssignees(t, await issueRow(repos.priv!, n), [users.reader!]);
    for (const [who, created] of [
      ['writer', '2001-01-01T00:00:00Z'],
      ['reader', '2002-01-01T00:00:00Z'],
      ['writer', '2003-01-01T00:00:00Z'],
    ] as const) {
      expect((await addTime(who, 'alice/priv', n, { time: 100, created })).statusCode).toBe(200);
    }
    const url = `repos/alice/priv/issues/${n}/times`;
    expectGiteaError(await get('anon', url), 404);
    expectGiteaError(await get('outsider', url), 404);
    expectGiteaError(await get('anon', `repos/alice/pub/issues/1/times`), 401);
    const all = await get('writer', url);
    expect(all.headers['x-total-count']).toBe('3');
    expect((all.json() as Json[]).map((x) => x.user_name)).toEqual(['writer', 'reader', 'writer']);
    expect((await get('reader', url)).json().map((x: Json) => x.user_name)).toEqual(['reader']);
    expectGiteaError(await get('reader', `${url}?user=writer`), 403, 'query by user not allowed; not enough rights');
    expect((await get('reader', `${url}?user=reader`)).json()).toHaveLength(1);
    expect((await get('writer', `${url}?user=writer`)).json()).toHaveLength(2);
    expect((await get('admin', `${url}?user=reader`)).json()).toHaveLength(1);
    expectGiteaError(await get('writer', `${url}?user=nobody`), 404, 'user does not exist [uid: 0, name: nobody]');
    expect((await get('writer', `${url}?since=2002-01-01T00:00:00Z`)).json().map((x: Json) => x.created)).toEqual([
      '2002-01-01T00:00:00Z',
      '2003-01-01T00:00:00Z',
    ]);
    expect((await get('writer', `${url}?before=2002-06-01T00:00:00%2B02:00`)).json()).toHaveLength(2);
    expectGiteaError(await get('writer', `${url}?since=yesterday`), 422);
    const page = await get('writer', `${url}?limit=2&page=2`);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((x: Json) => x.created)).toEqual(['2003-01-01T00:00:00Z']);
    expectGiteaError(await get('writer', 'repos/alice/priv/issues/9999/times'), 404);
    expectGiteaError(await get('alice', `repos/alice/off/issues/1/times`), 404, 'Timetracker is disabled');
  });

  it("resets the viewer's own times (rows kept with deleted=true, one DELETE_TIME_MANUAL comment), 404 when there is nothing", async () => {
    const n = await newIssue('alice', 'alice/pub');
    const issue = await issueRow(repos.pub!, n);
    await addTime('writer', 'alice/pub', n, { time: 60 });
    await addTime('writer', 'alice/pub', n, { time: 40 });
    await addTime('alice', 'alice/pub', n, { time: 10 });
    expectGiteaError(await del('anon', `repos/alice/pub/issues/${n}/times`), 401);
    expectGiteaError(await del('repoadmin', `repos/alice/pub/issues/${n}/times`), 404, 'tracked_time does not exist');
    bare403(await del('reader', `repos/alice/pub/issues/${n}/times`));
    const res = await del('writer', `repos/alice/pub/issues/${n}/times`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.db.trackedTime.count({ where: { issueId: issue.id, userId: users.writer!.id, deleted: true } })).toBe(2);
    expect(await t.db.trackedTime.count({ where: { issueId: issue.id, deleted: false } })).toBe(1);
    const comment = await t.db.comment.findFirstOrThrow({ where: { issueId: issue.id, type: 'DELETE_TIME_MANUAL' } });
    expect(comment).toMatchObject({ content: '|100', posterId: users.writer!.id });
    expectGiteaError(await del('writer', `repos/alice/pub/issues/${n}/times`), 404);
    expect((await get('alice', `repos/alice/pub/issues/${n}/times`)).json().map((x: Json) => x.time)).toEqual([10]);
  });

  it('deletes one tracked time: its user or a site admin (bare 403 otherwise), then 404 "already deleted"', async () => {
    const n = await newIssue('alice', 'alice/pub');
    const mine = (await addTime('writer', 'alice/pub', n, { time: 25 })).json().id as number;
    const theirs = (await addTime('alice', 'alice/pub', n, { time: 35 })).json().id as number;
    const url = (id: number | string) => `repos/alice/pub/issues/${n}/times/${id}`;
    bare403(await del('writer', url(theirs)));
    expect((await del('writer', url(mine))).statusCode).toBe(204);
    expectGiteaError(await del('writer', url(mine)), 404, 'tracked time was already deleted');
    expectGiteaError(await del('writer', url(999999)), 404, 'tracked_time does not exist [id: 999999]');
    const other = await newIssue('alice', 'alice/pub');
    expectGiteaError(await del('alice', `repos/alice/pub/issues/${other}/times/${theirs}`), 404);
    expect((await del('admin', url(theirs))).statusCode).toBe(204);
    const comments = await t.db.comment.findMany({
      where: { issue: { repoId: repos.pub!.id, index: n }, type: 'DELETE_TIME_MANUAL' },
      orderBy: { id: 'asc' },
    });
    expect(comments.map((c) => [c.content, c.posterId])).toEqual([
      ['|25', users.writer!.id],
      ['|35', users.alice!.id],
    ]);
    expect(await t.db.trackedTime.findUniqueOrThrow({ where: { id: mine } })).toMatchObject({ deleted: true, time: 25 });
  });

  it("lists a repository's times (repository scope), and a user's times in it (deprecated route, not paginated)", async () => {
    const repo = await newRepo('alice', 'ledger', true);
    const a = await newIssue('alice', 'alice/ledger');
    const b = await newIssue('alice', 'alice/ledger');
    await addTime('writer', 'alice/ledger', a, { time: 1, created: '2010-01-01T00:00:00Z' });
    await addTime('alice', 'alice/ledger', b, { time: 2, created: '2011-01-01T00:00:00Z' });
    await addTime('writer', 'alice/ledger', b, { time: 3, created: '2012-01-01T00:00:00Z' });
    expect(repo.isPrivate).toBe(true);
    expectGiteaError(await get('anon', 'repos/alice/ledger/times'), 404);
    expectGiteaError(await get('outsider', 'repos/alice/ledger/times'), 404);
    expectGiteaError(await get('anon', 'repos/alice/pub/times'), 401);
    const all = await get('writer', 'repos/alice/ledger/times');
    expect(all.headers['x-total-count']).toBe('3');
    expect((all.json() as Json[]).map((x) => [x.time, (x.issue as Json).number])).toEqual([
      [1, a],
      [2, b],
      [3, b],
    ]);
    expect((await get('reader', 'repos/alice/ledger/times')).json()).toEqual([]);
    expectGiteaError(await get('reader', 'repos/alice/ledger/times?user=writer'), 403, 'query by user not allowed; not enough rights');
    expect((await get('alice', 'repos/alice/ledger/times?user=writer&since=2011-01-01T00:00:00Z')).json().map((x: Json) => x.time)).toEqual(
      [3],
    );
    expectGiteaError(await get('alice', 'repos/alice/ledger/times?user=ghost'), 404, 'user does not exist [uid: 0, name: ghost]');
    expectGiteaError(await get('alice', 'repos/alice/off/times'), 400, 'time tracking disabled');
    expectGiteaError(await get('writer', 'repos/alice/ledger/times', tokenAuth(await t.createToken('writer', ['read:issue']))), 403);
    expect(
      (await get('writer', 'repos/alice/ledger/times', tokenAuth(await t.createToken('writer', ['read:repository'])))).statusCode,
    ).toBe(200);

    const byUser = await get('writer', 'repos/alice/ledger/times/writer');
    expect(byUser.statusCode).toBe(200);
    expect(byUser.headers['x-total-count']).toBeUndefined();
    expect((byUser.json() as Json[]).map((x) => x.time)).toEqual([1, 3]);
    expect(Object.keys((byUser.json() as Json[])[0]!)).toEqual(TIME_KEYS);
    expect((await get('repoadmin', 'repos/alice/ledger/times/writer')).json()).toHaveLength(2);
    expect((await get('admin', 'repos/alice/ledger/times/alice')).json()).toHaveLength(1);
    expectGiteaError(await get('reader', 'repos/alice/ledger/times/writer'), 403, 'query by user not allowed; not enough rights');
    expect((await get('reader', 'repos/alice/ledger/times/reader')).json()).toEqual([]);
    expectGiteaError(await get('writer', 'repos/alice/ledger/times/nobody'), 404, 'user does not exist [uid: 0, name: nobody]');
    expectGiteaError(await get('outsider', 'repos/alice/ledger/times/outsider'), 404);
    expectGiteaError(await get('alice', 'repos/alice/off/times/alice'), 400, 'time tracking disabled');
  });

  it("GET /user/times: the viewer's own times everywhere, filtered and paginated", async () => {
    const n = await newIssue('alice', 'alice/open');
    await addTime('lurker', 'alice/open', n, { time: 11, created: '2020-01-01T00:00:00Z' });
    await addTime('lurker', 'alice/open', n, { time: 12, created: '2021-01-01T00:00:00Z' });
    await addTime('alice', 'alice/open', n, { time: 13 });
    expectGiteaError(await get('anon', 'user/times'), 401);
    const mine = await get('lurker', 'user/times');
    expect(mine.headers['x-total-count']).toBe('2');
    expect((mine.json() as Json[]).map((x) => x.time)).toEqual([11, 12]);
    expect((await get('lurker', 'user/times?before=2020-06-01T00:00:00Z')).json().map((x: Json) => x.time)).toEqual([11]);
    expect((await get('lurker', 'user/times?limit=1&page=2')).json().map((x: Json) => x.time)).toEqual([12]);
    expectGiteaError(await get('lurker', 'user/times?since=nope'), 422);
  });

  it('the time lists cost the same statements for 2 and for 8 entries on different issues', async () => {
    await newRepo('alice', 'count', false);
    const add = async (k: number) => {
      for (let i = 0; i < k; i++) {
        const n = await newIssue('alice', 'alice/count', `c${i}`);
        expect((await addTime('alice', 'alice/count', n, { time: 10 + i })).statusCode).toBe(200);
      }
    };
    const measure = async (url: string) => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await get('alice', url);
      expect(res.statusCode, res.body).toBe(200);
      return t.queries.length;
    };
    const urls = ['repos/alice/count/times', 'repos/alice/count/times/alice', 'user/times?limit=50'];
    await add(2);
    for (const u of urls) await measure(u); // warm-up
    const smallSeq: number[] = [];
    for (const u of urls) smallSeq.push(await measure(u));
    await add(6);
    const largeSeq: number[] = [];
    for (const u of urls) largeSeq.push(await measure(u));
    expect(largeSeq).toEqual(smallSeq);
  });

  it('stopwatches: start 201 (409 again), listed under /user/stopwatches, stop books the time (409 when none), delete cancels (204)', async () => {
    const a = await newIssue('alice', 'alice/pub', 'first');
    const b = await newIssue('alice', 'alice/pub', 'second');
    const sw = (action: string, n: number, viewer = 'writer') =>
      t.request(action === 'delete' ? 'DELETE' : 'POST', `/api/v1/repos/alice/pub/issues/${n}/stopwatch/${action}`, {
        headers: as(viewer),
      });
    const started = await sw('start', a);
    expect(started.statusCode, started.body).toBe(201);
    expectGiteaError(await sw('start', a), 409, 'cannot start a stopwatch again if it already exists');
    const listed = await get('writer', 'user/stopwatches');
    expect(listed.headers['x-total-count']).toBe('1');
    const entry = (listed.json() as Json[])[0]!;
    expect(Object.keys(entry)).toEqual(STOPWATCH_KEYS);
    expect(entry).toMatchObject({ issue_index: a, issue_title: 'first', repo_owner_name: 'alice', repo_name: 'pub' });
    expect(entry.seconds).toBeGreaterThanOrEqual(0);

    // Backdate it, then start another one: the first is stopped and its time booked.
    await t.db.stopwatch.updateMany({ where: { userId: users.writer!.id }, data: { createdAt: new Date(Date.now() - 3_725_000) } });
    const aRow = await issueRow(repos.pub!, a);
    expect((await get('writer', 'user/stopwatches')).json()[0]).toMatchObject({ duration: '1 hour 2 minutes' });
    expect((await sw('start', b)).statusCode).toBe(201);
    const booked = await t.db.trackedTime.findFirstOrThrow({ where: { issueId: aRow.id, userId: users.writer!.id } });
    expect(booked.time).toBeGreaterThanOrEqual(3725);
    expect(await t.db.comment.findFirstOrThrow({ where: { issueId: aRow.id, type: 'STOP_TRACKING' } })).toMatchObject({
      content: '1 hour 2 minutes',
      timeId: booked.id,
    });
    expect((await get('writer', 'user/stopwatches')).json().map((x: Json) => x.issue_index)).toEqual([b]);

    const stopped = await sw('stop', b);
    expect(stopped.statusCode, stopped.body).toBe(201);
    expectGiteaError(await sw('stop', b), 409, 'cannot stop a non-existent stopwatch');
    expectGiteaError(await sw('delete', b), 409, 'cannot cancel a non-existent stopwatch');
    expect((await sw('start', b)).statusCode).toBe(201);
    expect((await sw('delete', b)).statusCode).toBe(204);
    const bRow = await issueRow(repos.pub!, b);
    const types = (await t.db.comment.findMany({ where: { issueId: bRow.id }, orderBy: { id: 'asc' } })).map((c) => c.type);
    expect(types).toEqual(['START_TRACKING', 'STOP_TRACKING', 'START_TRACKING', 'CANCEL_TRACKING']);
    expect((await get('writer', 'user/stopwatches')).json()).toEqual([]);

    bare403(await sw('start', a, 'reader'));
    const off = await newIssue('alice', 'alice/off');
    bare403(await t.request('POST', `/api/v1/repos/alice/off/issues/${off}/stopwatch/start`, { headers: as('alice') }));
    expectGiteaError(await sw('start', 9999), 404);
    expectGiteaError(await sw('start', a, 'anon'), 401);
    expectGiteaError(await t.request('POST', '/api/v1/repos/alice/priv/issues/1/stopwatch/start', { headers: as('outsider') }), 404);
    expectGiteaError(await get('anon', 'user/stopwatches'), 401);
  });
});
