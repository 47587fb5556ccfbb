import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createOrgAs } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;
const loginsOf = (issue: Json): string[] => ((issue.assignees as Json[] | null) ?? []).map((u) => u.login as string);

describe.each(PROVIDERS)('REST issue assignees (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const events: DomainEvent[] = [];
  let org: Models.User;

  const url = (p: string, n: number | string) => `/api/v1/repos/${p}/issues/${n}/assignees`;
  const add = (viewer: string, p: string, n: number | string, body: unknown) => t.request('POST', url(p, n), { headers: as(viewer), body });
  const remove = (viewer: string, p: string, n: number | string, body: unknown) =>
    t.request('DELETE', url(p, n), { headers: as(viewer), body });
  const check = (viewer: string, p: string, n: number | string, user: string) =>
    t.request('GET', `${url(p, n)}/${user}`, { headers: as(viewer) });
  async function newIssue(p: string, poster = 'alice'): Promise<Json> {
    const res = await t.request('POST', `/api/v1/repos/${p}/issues`, { headers: as(poster), body: { title: `issue by ${poster}` } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function newRepo(owner: string, name: string, isPrivate: boolean): Promise<Models.Repository> {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  const assigneeComments = (issueId: number) =>
    t.db.comment.findMany({
      where: { issueId, type: 'ASSIGNEES' },
      orderBy: { id: 'asc' },
      select: { assigneeId: true, removedAssignee: true, posterId: true },
    });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'blocked', 'blocker', 'orgowner']) users[n] = await t.createUser(n);
    users.admin = await t.createUser('admin', { admin: true });
    repos.pub = await newRepo('alice', 'pub', false);
    repos.priv = await newRepo('alice', 'priv', true);
    repos.arch = await newRepo('alice', 'arch', false);
    org = await createOrgAs(t, users.orgowner!, 'acme');
    for (const r of [repos.pub, repos.priv, repos.arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
      await addCollaborator(t, r, users.blocked!, 'write');
    }
    await blockUser(t, users.alice!, users.blocked!);
    await blockUser(t, users.blocker!, users.writer!);
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('adds assignees (201, the Issue), skips those already assigned, records ASSIGNEES comments and an event', async () => {
    const issue = await newIssue('alice/pub');
    const n = issue.number as number;
    const res = await add('writer', 'alice/pub', n, { assignees: ['reader', 'alice'] });
    expect(res.statusCode, res.body).toBe(201);
    const j = res.json();
    expect(j.number).toBe(n);
    expect(loginsOf(j)).toEqual(['reader', 'alice']);
    expect(j.assignee.login).toBe('reader');
    const again = await add('alice', 'alice/pub', n, { assignees: ['ALICE', 'writer'] });
    expect(again.statusCode).toBe(201);
    expect(loginsOf(again.json())).toEqual(['reader', 'alice', 'writer']);
    expect(await assigneeComments(issue.id as number)).toEqual([
      { assigneeId: users.reader!.id, removedAssignee: false, posterId: users.writer!.id },
      { assigneeId: users.alice!.id, removedAssignee: false, posterId: users.writer!.id },
      { assigneeId: users.writer!.id, removedAssignee: false, posterId: users.alice!.id },
    ]);
    const empty = await add('writer', 'alice/pub', n, { assignees: [] });
    expect(loginsOf(empty.json())).toEqual(['reader', 'alice', 'writer']);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual({
      type: 'issue.updated',
      issueId: issue.id,
      repoId: repos.pub!.id,
      index: n,
      actorId: users.writer!.id,
      fields: ['assignees'],
      assignees: { added: expect.any(Array), removed: [] },
    });
    // Any signed-in user of a public repository can be assigned (read on pull requests).
    expect(loginsOf((await add('writer', 'alice/pub', n, { assignees: ['outsider'] })).json())).toContain('outsider');
    expect((await t.request('GET', `/api/v1/repos/alice/pub/issues/${n}`)).json().assignees).toHaveLength(4);
  });

  it('removes assignees (200, the Issue): unassigned users are skipped, removals are recorded; null when none is left', async () => {
    const issue = await newIssue('alice/pub');
    const n = issue.number as number;
    await add('alice', 'alice/pub', n, { assignees: ['reader', 'writer'] });
    const res = await remove('writer', 'alice/pub', n, { assignees: ['reader', 'outsider'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(loginsOf(res.json())).toEqual(['writer']);
    const none = await remove('writer', 'alice/pub', n, { assignees: ['writer'] });
    expect(none.json()).toMatchObject({ assignee: null, assignees: null });
    const comments = await assigneeComments(issue.id as number);
    expect(comments.filter((c) => c.removedAssignee).map((c) => c.assigneeId)).toEqual([users.reader!.id, users.writer!.id]);
    expectGiteaError(await remove('writer', 'alice/pub', n, { assignees: ['nobody'] }), 422, 'user does not exist [uid: 0, name: nobody]');
  });

  it("answers Gitea's errors for the users given: 422 unknown, 400 organization, 403 not assignable, 403 blocked by the assignee (all or nothing)", async () => {
    const pub = (await newIssue('alice/pub')).number as number;
    const priv = (await newIssue('alice/priv')).number as number;
    expectGiteaError(
      await add('writer', 'alice/pub', pub, { assignees: ['reader', 'nobody'] }),
      422,
      'user does not exist [uid: 0, name: nobody]',
    );
    expectGiteaError(
      await add('writer', 'alice/pub', pub, { assignees: ['acme'] }),
      400,
      `organization can't be added as assignee [user_id: ${org.id}, repo_id: ${repos.pub!.id}]`,
    );
    expectGiteaError(
      await add('writer', 'alice/priv', priv, { assignees: ['outsider'] }),
      403,
      `user doesn't have access to repo [user_id: ${users.outsider!.id}, repo_name: priv]`,
    );
    expectGiteaError(await add('writer', 'alice/pub', pub, { assignees: ['alice', 'blocker'] }), 403, 'user is blocked');
    const after = (await t.request('GET', `/api/v1/repos/alice/pub/issues/${pub}`)).json();
    expect(after.assignees).toBeNull();
    expect((await add('alice', 'alice/pub', pub, { assignees: ['blocker'] })).statusCode).toBe(201);
    expect(loginsOf((await add('writer', 'alice/priv', priv, { assignees: ['reader'] })).json())).toEqual(['reader']);
  });

  it('gates by role: anonymous 401/404, outsider on private 404, reader and poster 403 (empty body), blocked writer 403, writer/owner/admin 201, archived 423', async () => {
    const pub = (await newIssue('alice/pub', 'outsider')).number as number;
    const priv = (await newIssue('alice/priv')).number as number;
    const body = { assignees: ['alice'] };
    expectGiteaError(await add('anon', 'alice/pub', pub, body), 401);
    expectGiteaError(await add('anon', 'alice/priv', priv, body), 404);
    expectGiteaError(await add('outsider', 'alice/priv', priv, body), 404);
    expectGiteaError(await remove('outsider', 'alice/priv', priv, body), 404);
    for (const viewer of ['reader', 'outsider', 'blocked']) {
      const res = await add(viewer, 'alice/pub', pub, body);
      expect(res.statusCode, `${viewer}: ${res.body}`).toBe(403);
      expect(res.body).toBe('');
      expect((await remove(viewer, 'alice/pub', pub, body)).statusCode).toBe(403);
    }
    expect((await add('reader', 'alice/priv', priv, body)).statusCode).toBe(403);
    for (const viewer of ['writer', 'alice', 'admin']) {
      expect((await add(viewer, 'alice/pub', pub, { assignees: [viewer] })).statusCode, viewer).toBe(201);
      expect((await remove(viewer, 'alice/pub', pub, { assignees: [viewer] })).statusCode, viewer).toBe(200);
    }
    const archIssue = await t.db.issue.create({ data: { repoId: repos.arch!.id, index: 1, title: 'old', posterId: users.alice!.id } });
    await editRepo(t, repos.arch!, { archived: true });
    expectGiteaError(await add('writer', 'alice/arch', archIssue.index, body), 423, 'repo is archived');
    expectGiteaError(await remove('alice', 'alice/arch', archIssue.index, body), 423, 'repo is archived');
    const readOnly = await t.createToken('writer', ['read:issue']);
    expectGiteaError(await t.request('POST', url('alice/pub', pub), { headers: tokenAuth(readOnly), body }), 403);
    const writeToken = await t.createToken('writer', ['write:issue']);
    expect((await t.request('POST', url('alice/pub', pub), { headers: tokenAuth(writeToken), body })).statusCode).toBe(201);
  });

  it('bad input is a 4xx: unknown issue or index 404, non-list body 422', async () => {
    const n = (await newIssue('alice/pub')).number as number;
    expectGiteaError(await add('alice', 'alice/pub', 9999, { assignees: ['alice'] }), 404);
    expectGiteaError(await add('alice', 'alice/pub', 'abc', { assignees: ['alice'] }), 404);
    expectGiteaError(await add('alice', 'alice/nope', 1, { assignees: ['alice'] }), 404);
    expectGiteaError(await add('alice', 'alice/pub', n, { assignees: 5 }), 422);
    expectGiteaError(await add('alice', 'alice/pub', n, { assignees: [1, 2] }), 422);
    expect((await add('alice', 'alice/pub', n, {})).statusCode).toBe(201);
    expect(
      (
        await t.request('POST', url('alice/pub', n), {
          headers: { ...as('alice'), 'content-type': 'text/plain' },
          payload: '{"assignees":["alice"]}',
        })
      ).statusCode,
    ).toBe(201);
  });

  it('checks assignability: 204 assignable, 404 unknown or not assignable, 400 organization, 404 for invisible repositories', async () => {
    const priv = (await newIssue('alice/priv')).number as number;
    const pub = (await newIssue('alice/pub')).number as number;
    const res = await check('reader', 'alice/priv', priv, 'writer');
    expect(res.statusCode, res.body).toBe(204);
    expect((await check('reader', 'alice/priv', priv, 'reader')).statusCode).toBe(204);
    expect((await check('anon', 'alice/pub', pub, 'outsider')).statusCode).toBe(204);
    expectGiteaError(await check('alice', 'alice/priv', priv, 'outsider'), 404);
    expectGiteaError(await check('alice', 'alice/priv', priv, 'nobody'), 404);
    expectGiteaError(await check('alice', 'alice/priv', priv, 'acme'), 400);
    expectGiteaError(await check('outsider', 'alice/priv', priv, 'writer'), 404);
    expectGiteaError(await check('alice', 'alice/priv', 9999, 'writer'), 404);
  });
});
