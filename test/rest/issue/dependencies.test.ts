import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;
type Meta = { owner?: string; repo?: string; index?: unknown };

describe.each(PROVIDERS)('REST issue dependencies (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];

  const newRepo = async (owner: string, name: string, isPrivate = false): Promise<Models.Repository> => {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  };
  /** Opens an issue as `viewer` in `owner/repo`; returns its number. */
  const issue = async (viewer: string, p: string, title: string): Promise<number> => {
    const res = await t.request('POST', `/api/v1/repos/${p}/issues`, { headers: as(viewer), body: { title } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  };
  const idOf = async (p: string, n: number): Promise<number> => {
    const [owner, name] = p.split('/');
    const repo = await t.db.repository.findFirstOrThrow({ where: { ownerName: owner, name } });
    return (await t.db.issue.findUniqueOrThrow({ where: { repoId_index: { repoId: repo.id, index: n } } })).id;
  };
  const call = (method: string, viewer: string, p: string, n: number | string, kind: 'blocks' | 'dependencies', body?: Meta) =>
    t.request(method, `/api/v1/repos/${p}/issues/${n}/${kind}`, { headers: as(viewer), ...(body ? { body } : {}) });
  const meta = (p: string, index: unknown): Meta => {
    const [owner, repo] = p.split('/');
    return { owner, repo, index };
  };
  const numbers = (res: { json(): unknown }) => (res.json() as Json[]).map((i) => `${(i.repository as Json).full_name}#${i.number}`);
  const close = (viewer: string, p: string, n: number) =>
    t.request('PATCH', `/api/v1/repos/${p}/issues/${n}`, { headers: as(viewer), body: { state: 'closed' } });
  const setDependencies = async (p: string, enabled: boolean) => {
    const res = await t.request('PATCH', `/api/v1/repos/${p}`, {
      headers: as(p.split('/')[0]!),
      body: {
        has_issues: true,
        internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: enabled },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().internal_tracker.enable_issue_dependencies).toBe(enabled);
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'bob']) users[n] = await t.createUser(n);
    users.admin = await t.createUser('admin', { admin: true });
    const pub = await newRepo('alice', 'pub');
    const priv = await newRepo('alice', 'priv', true);
    const arch = await newRepo('alice', 'arch');
    await newRepo('alice', 'nodeps');
    await newRepo('bob', 'other');
    await newRepo('bob', 'secret', true);
    for (const r of [pub, priv, arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
    }
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('POST …/blocks: the URL issue blocks the body issue; 201 with the URL issue; both lists and both timelines show it', async () => {
    const blocker = await issue('alice', 'alice/pub', 'blocker');
    const blocked = await issue('alice', 'alice/pub', 'blocked');
    const res = await call('POST', 'alice', 'alice/pub', blocker, 'blocks', meta('alice/pub', blocked));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ number: blocker, title: 'blocker', state: 'open', repository: { full_name: 'alice/pub' } });
    const [blockerId, blockedId] = [await idOf('alice/pub', blocker), await idOf('alice/pub', blocked)];
    expect(
      await t.db.issueDependency.findMany({
        where: { issueId: { in: [blockerId, blockedId] } },
        select: { issueId: true, dependencyId: true, userId: true },
      }),
    ).toEqual([{ issueId: blockedId, dependencyId: blockerId, userId: users.alice!.id }]);
    expect(numbers(await call('GET', 'anon', 'alice/pub', blocked, 'dependencies'))).toEqual([`alice/pub#${blocker}`]);
    expect(numbers(await call('GET', 'anon', 'alice/pub', blocker, 'blocks'))).toEqual([`alice/pub#${blocked}`]);
    expect(await call('GET', 'anon', 'alice/pub', blocker, 'dependencies').then((r) => r.json())).toEqual([]);
    const comments = await t.db.comment.findMany({
      where: { issueId: { in: [blockerId, blockedId] }, type: 'ADD_DEPENDENCY' },
      orderBy: { id: 'asc' },
    });
    expect(comments.map((c) => [c.issueId, c.dependentIssueId, c.posterId])).toEqual([
      [blockedId, blockerId, users.alice!.id],
      [blockerId, blockedId, users.alice!.id],
    ]);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual({
      type: 'issue.dependencyAdded',
      issueId: blockedId,
      dependencyId: blockerId,
      repoId: (await t.db.repository.findFirstOrThrow({ where: { name: 'pub' } })).id,
      actorId: users.alice!.id,
    });
  });

  it('POST …/dependencies is the same relation seen from the blocked issue; the blocked issue cannot close while a blocker is open (412)', async () => {
    const a = await issue('alice', 'alice/pub', 'needs b');
    const b = await issue('alice', 'alice/pub', 'b');
    const res = await call('POST', 'writer', 'alice/pub', a, 'dependencies', meta('alice/pub', b));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().number).toBe(a);
    expectGiteaError(
      await close('alice', 'alice/pub', a),
      412,
      'cannot close this issue or pull request because it still has open dependencies',
    );
    expect((await close('alice', 'alice/pub', b)).statusCode).toBe(201);
    expect((await close('alice', 'alice/pub', a)).statusCode).toBe(201);
    // A closed blocker is still listed.
    expect(numbers(await call('GET', 'reader', 'alice/pub', a, 'dependencies'))).toEqual([`alice/pub#${b}`]);
  });

  it('refuses duplicates (409) and any cycle, direct, self or through other issues (409), never a 500', async () => {
    const [x, y, z] = [
      await issue('alice', 'alice/pub', 'x'),
      await issue('alice', 'alice/pub', 'y'),
      await issue('alice', 'alice/pub', 'z'),
    ];
    expect((await call('POST', 'alice', 'alice/pub', x, 'blocks', meta('alice/pub', y))).statusCode).toBe(201);
    const [xId, yId, zId] = [await idOf('alice/pub', x), await idOf('alice/pub', y), await idOf('alice/pub', z)];
    expectGiteaError(
      await call('POST', 'alice', 'alice/pub', x, 'blocks', meta('alice/pub', y)),
      409,
      `issue dependency does already exist [issue id: ${yId}, dependency id: ${xId}]`,
    );
    expectGiteaError(await call('POST', 'alice', 'alice/pub', y, 'dependencies', meta('alice/pub', x)), 409, /already exist/);
    expectGiteaError(await call('POST', 'alice', 'alice/pub', y, 'blocks', meta('alice/pub', x)), 409, /^circular dependencies exists/);
    expectGiteaError(await call('POST', 'alice', 'alice/pub', x, 'blocks', meta('alice/pub', x)), 409, /^circular dependencies exists/);
    expect((await call('POST', 'alice', 'alice/pub', y, 'blocks', meta('alice/pub', z))).statusCode).toBe(201);
    // x blocks y blocks z: z blocking x would close a three-issue cycle.
    expectGiteaError(
      await call('POST', 'alice', 'alice/pub', z, 'blocks', meta('alice/pub', x)),
      409,
      `circular dependencies exists (the issues would block each other) [issue id: ${xId}, dependency id: ${zId}]`,
    );
    expectGiteaError(await call('POST', 'alice', 'alice/pub', x, 'dependencies', meta('alice/pub', z)), 409, /^circular/);
    expect(await t.db.issueDependency.count({ where: { issueId: { in: [xId, yId, zId] } } })).toBe(2);
  });

  it('racing additions that together would close a cycle, or duplicate each other: exactly one wins, the rest 409', async () => {
    const n = [];
    for (let i = 0; i < 4; i++) n.push(await issue('alice', 'alice/pub', `race ${i}`));
    const [a, b, c, d] = n as [number, number, number, number];
    // b blocks c and d blocks a exist; a blocks b and c blocks d together would close a → b → c → d → a.
    expect((await call('POST', 'alice', 'alice/pub', b, 'blocks', meta('alice/pub', c))).statusCode).toBe(201);
    expect((await call('POST', 'alice', 'alice/pub', d, 'blocks', meta('alice/pub', a))).statusCode).toBe(201);
    for (let round = 0; round < 3; round++) {
      const racing = await Promise.all([
        call('POST', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', b)),
        call('POST', 'writer', 'alice/pub', c, 'blocks', meta('alice/pub', d)),
        call('POST', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', b)),
      ]);
      expect(racing.map((r) => r.statusCode).sort(), racing.map((r) => r.body).join('\n')).toEqual([201, 409, 409]);
      const removed = racing.find((r) => r.statusCode === 201)!.json().number as number;
      const other = removed === a ? b : d;
      expect((await call('DELETE', 'alice', 'alice/pub', removed, 'blocks', meta('alice/pub', other))).statusCode).toBe(201);
    }
  });

  it('gates each role: anonymous 401 (404 on private), outsider 404, reader 404 (cannot write the target), writer and admin 201', async () => {
    const [p1, p2] = [await issue('alice', 'alice/priv', 'p1'), await issue('alice', 'alice/priv', 'p2')];
    const [q1, q2] = [await issue('alice', 'alice/pub', 'q1'), await issue('reader', 'alice/pub', 'q2 by reader')];
    expectGiteaError(await call('POST', 'anon', 'alice/pub', q1, 'blocks', meta('alice/pub', q2)), 401);
    expectGiteaError(await call('POST', 'anon', 'alice/priv', p1, 'blocks', meta('alice/priv', p2)), 404);
    expectGiteaError(await call('POST', 'outsider', 'alice/priv', p1, 'blocks', meta('alice/priv', p2)), 404);
    expectGiteaError(await call('GET', 'outsider', 'alice/priv', p1, 'blocks'), 404);
    expectGiteaError(await call('GET', 'anon', 'alice/priv', p1, 'dependencies'), 404);
    // Reading is enough for the lists but not to add: the target must be writable (404, as Gitea) — even for its poster.
    expect((await call('GET', 'reader', 'alice/priv', p1, 'blocks')).statusCode).toBe(200);
    expectGiteaError(await call('POST', 'reader', 'alice/priv', p1, 'blocks', meta('alice/priv', p2)), 404, 'not found');
    expectGiteaError(await call('POST', 'reader', 'alice/pub', q1, 'blocks', meta('alice/pub', q2)), 404);
    expectGiteaError(await call('POST', 'outsider', 'alice/pub', q1, 'blocks', meta('alice/pub', q2)), 404);
    expect((await call('POST', 'writer', 'alice/priv', p1, 'blocks', meta('alice/priv', p2))).statusCode).toBe(201);
    expect((await call('POST', 'admin', 'alice/pub', q1, 'blocks', meta('alice/pub', q2))).statusCode).toBe(201);
    expect((await call('DELETE', 'admin', 'alice/pub', q1, 'blocks', meta('alice/pub', q2))).statusCode).toBe(201);
    expectGiteaError(await call('DELETE', 'reader', 'alice/priv', p1, 'blocks', meta('alice/priv', p2)), 404);
    expectGiteaError(await call('DELETE', 'anon', 'alice/pub', q1, 'blocks', meta('alice/pub', q2)), 401);
  });

  it('404 when the referenced issue or its repository does not exist; bad bodies are 422, text/plain JSON is accepted', async () => {
    const [a, b] = [await issue('alice', 'alice/pub', 'a'), await issue('alice', 'alice/pub', 'b')];
    expectGiteaError(await call('POST', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', 9999)), 404, /^issue does not exist/);
    expectGiteaError(await call('POST', 'alice', 'alice/pub', 9999, 'blocks', meta('alice/pub', b)), 404, /^issue does not exist/);
    expectGiteaError(await call('POST', 'alice', 'alice/pub', 'abc', 'blocks', meta('alice/pub', b)), 404);
    expectGiteaError(await call('POST', 'alice', 'alice/pub', a, 'blocks', meta('alice/nope', b)), 404, 'repository does not exist');
    expectGiteaError(await call('POST', 'alice', 'nobody/pub', a, 'blocks', meta('alice/pub', b)), 404);
    // Gitea compares owner/name with the URL's repository; omitted names name a repository that does not exist.
    expectGiteaError(await call('POST', 'alice', 'alice/pub', a, 'blocks', { index: b }), 404);
    expectGiteaError(await call('POST', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', 'x')), 422);
    expectGiteaError(
      await call('DELETE', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', b)),
      404,
      /^issue dependency does not exist/,
    );
    const plain = await t.request('POST', `/api/v1/repos/alice/pub/issues/${a}/blocks`, {
      headers: { ...as('alice'), 'content-type': 'text/plain' },
      payload: JSON.stringify(meta('alice/pub', b)),
    });
    expect(plain.statusCode, plain.body).toBe(201);
    // Names are matched case-insensitively when looking the repository up.
    expectGiteaError(await call('POST', 'alice', 'alice/pub', a, 'blocks', meta('Alice/PUB', b)), 409, /already exist/);
  });

  it('DELETE removes through either route (201 with the URL issue, as Gitea), with REMOVE_DEPENDENCY on both issues', async () => {
    const [a, b] = [await issue('alice', 'alice/pub', 'del a'), await issue('alice', 'alice/pub', 'del b')];
    const [aId, bId] = [await idOf('alice/pub', a), await idOf('alice/pub', b)];
    expect((await call('POST', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', b))).statusCode).toBe(201);
    const del = await call('DELETE', 'writer', 'alice/pub', b, 'dependencies', meta('alice/pub', a));
    expect(del.statusCode, del.body).toBe(201);
    expect(del.json().number).toBe(b);
    expect(await t.db.issueDependency.count({ where: { issueId: bId } })).toBe(0);
    const removed = await t.db.comment.findMany({
      where: { type: 'REMOVE_DEPENDENCY', issueId: { in: [aId, bId] } },
      orderBy: { id: 'asc' },
    });
    expect(removed.map((c) => [c.issueId, c.dependentIssueId])).toEqual([
      [bId, aId],
      [aId, bId],
    ]);
    expect((await call('POST', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', b))).statusCode).toBe(201);
    expect((await call('DELETE', 'alice', 'alice/pub', a, 'blocks', meta('alice/pub', b))).json().number).toBe(a);
    expect((await close('alice', 'alice/pub', b)).statusCode).toBe(201);
    await t.app.deps.notifier.drain();
    expect(events.filter((e) => e.type === 'issue.dependencyRemoved' && e.issueId === bId)).toHaveLength(2);
  });

  it('cross-repository: allowed with write on the target and read on the blocker; a private repository the viewer cannot see is 404', async () => {
    const mine = await issue('alice', 'alice/pub', 'mine');
    const theirs = await issue('bob', 'bob/other', 'theirs');
    const hidden = await issue('bob', 'bob/secret', 'hidden');
    // bob writes bob/other and reads alice/pub (public): alice/pub#mine blocks bob/other#theirs.
    const res = await call('POST', 'bob', 'alice/pub', mine, 'blocks', meta('bob/other', theirs));
    expect(res.statusCode, res.body).toBe(201);
    expect(numbers(await call('GET', 'anon', 'bob/other', theirs, 'dependencies'))).toEqual([`alice/pub#${mine}`]);
    expect(numbers(await call('GET', 'anon', 'alice/pub', mine, 'blocks'))).toEqual([`bob/other#${theirs}`]);
    // alice cannot write bob/other: 404, not 403.
    expectGiteaError(
      await call('POST', 'alice', 'bob/other', theirs, 'dependencies', meta('alice/pub', await issue('alice', 'alice/pub', 'n'))),
      404,
    );
    // alice cannot see bob/secret at all: the same 404 whether or not the issue exists.
    const invisible = await call('POST', 'alice', 'alice/pub', mine, 'dependencies', meta('bob/secret', hidden));
    const missing = await call('POST', 'alice', 'alice/pub', mine, 'dependencies', meta('bob/secret', 999));
    expectGiteaError(invisible, 404, 'repository does not exist');
    expect(missing.body).toBe(invisible.body);
    expectGiteaError(
      await call('POST', 'alice', 'alice/pub', mine, 'blocks', meta('bob/secret', hidden)),
      404,
      'repository does not exist',
    );
    // The admin can link a private blocker; alice's lists then skip it, but it still keeps her issue open.
    expect((await call('POST', 'admin', 'alice/pub', mine, 'dependencies', meta('bob/secret', hidden))).statusCode).toBe(201);
    expect(numbers(await call('GET', 'alice', 'alice/pub', mine, 'dependencies'))).toEqual([]);
    expect(numbers(await call('GET', 'admin', 'alice/pub', mine, 'dependencies'))).toEqual([`bob/secret#${hidden}`]);
    expect(numbers(await call('GET', 'outsider', 'bob/other', theirs, 'dependencies'))).toEqual([`alice/pub#${mine}`]);
    expectGiteaError(await close('alice', 'alice/pub', mine), 412);
    expect(numbers(await call('GET', 'bob', 'bob/secret', hidden, 'blocks'))).toEqual([`alice/pub#${mine}`]);
  });

  it('archived: …/dependencies on an archived repository is 423; …/blocks only reads its URL issue; an archived target is 404', async () => {
    const [ar1, ar2] = [await issue('alice', 'alice/arch', 'ar1'), await issue('alice', 'alice/arch', 'ar2')];
    const live = await issue('alice', 'alice/pub', 'live');
    await t.db.repository.updateMany({ where: { name: 'arch' }, data: { isArchived: true, archivedAt: new Date() } });
    expectGiteaError(await call('POST', 'writer', 'alice/arch', ar1, 'dependencies', meta('alice/arch', ar2)), 423, 'repo is archived');
    expectGiteaError(await call('POST', 'writer', 'alice/arch', ar1, 'blocks', meta('alice/arch', ar2)), 404, 'not found');
    expectGiteaError(await call('POST', 'writer', 'alice/pub', live, 'blocks', meta('alice/arch', ar1)), 404, 'not found');
    const res = await call('POST', 'writer', 'alice/arch', ar1, 'blocks', meta('alice/pub', live));
    expect(res.statusCode, res.body).toBe(201);
    expect(numbers(await call('GET', 'reader', 'alice/pub', live, 'dependencies'))).toEqual([`alice/arch#${ar1}`]);
  });

  it('enable_issue_dependencies off: adding to that repository and listing its blockers are 404, closing is not held back', async () => {
    const [d1, d2] = [await issue('alice', 'alice/nodeps', 'd1'), await issue('alice', 'alice/nodeps', 'd2')];
    expect((await call('POST', 'alice', 'alice/nodeps', d1, 'blocks', meta('alice/nodeps', d2))).statusCode).toBe(201);
    await setDependencies('alice/nodeps', false);
    expectGiteaError(await call('POST', 'alice', 'alice/nodeps', d2, 'blocks', meta('alice/nodeps', d1)), 404, 'not found');
    expectGiteaError(await call('DELETE', 'alice', 'alice/nodeps', d1, 'blocks', meta('alice/nodeps', d2)), 404);
    expectGiteaError(await call('GET', 'alice', 'alice/nodeps', d2, 'dependencies'), 404);
    expect(numbers(await call('GET', 'alice', 'alice/nodeps', d1, 'blocks'))).toEqual([`alice/nodeps#${d2}`]);
    expect((await close('alice', 'alice/nodeps', d2)).statusCode).toBe(201);
    // A blocker elsewhere may still point into it only while it accepts dependencies.
    expectGiteaError(
      await call('POST', 'alice', 'alice/pub', await issue('alice', 'alice/pub', 'e'), 'blocks', meta('alice/nodeps', d1)),
      404,
    );
    await setDependencies('alice/nodeps', true);
    expect(
      (await call('POST', 'alice', 'alice/nodeps', d2, 'dependencies', meta('alice/nodeps', await issue('alice', 'alice/nodeps', 'd3'))))
        .statusCode,
    ).toBe(201);
  });

  it('lists are paginated (page/limit, X-Total-Count, Link) in Gitea order: own repository first, newest first', async () => {
    const hub = await issue('alice', 'alice/pub', 'hub');
    const blocked: number[] = [];
    for (let i = 0; i < 3; i++) {
      const n = await issue('alice', 'alice/pub', `leaf ${i}`);
      blocked.push(n);
      expect((await call('POST', 'alice', 'alice/pub', hub, 'blocks', meta('alice/pub', n))).statusCode).toBe(201);
    }
    const far = await issue('bob', 'bob/other', 'far');
    expect((await call('POST', 'bob', 'alice/pub', hub, 'blocks', meta('bob/other', far))).statusCode).toBe(201);
    const all = await t.request('GET', `/api/v1/repos/alice/pub/issues/${hub}/blocks`);
    expect(numbers(all)).toEqual([...blocked.reverse().map((n) => `alice/pub#${n}`), `bob/other#${far}`]);
    const page = await t.request('GET', `/api/v1/repos/alice/pub/issues/${hub}/blocks?limit=2&page=2`);
    expect(page.statusCode).toBe(200);
    expect(numbers(page)).toEqual([`alice/pub#${blocked[2]}`, `bob/other#${far}`]);
    expect(page.headers['x-total-count']).toBe('4');
    expect(page.headers.link).toBe(
      linkHeader(`repos/alice/pub/issues/${hub}/blocks`, { limit: '2' }, [
        ['first', 1],
        ['prev', 1],
      ]),
    );
  });
});
