import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { expectExactLabelCounters } from '../../helpers/labelCounters.ts';
import { createOrgAs } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;
const LABEL_KEYS = ['id', 'name', 'exclusive', 'is_archived', 'color', 'description', 'url'];

describe.each(PROVIDERS)('REST issue labels (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const labels: Record<string, Models.Label> = {};
  const events: DomainEvent[] = [];

  const url = (p: string, n: number | string) => `/api/v1/repos/${p}/issues/${n}/labels`;
  const list = (viewer: string, p: string, n: number | string) => t.request('GET', url(p, n), { headers: as(viewer) });
  const add = (viewer: string, p: string, n: number | string, body: unknown) => t.request('POST', url(p, n), { headers: as(viewer), body });
  const replace = (viewer: string, p: string, n: number | string, body: unknown) =>
    t.request('PUT', url(p, n), { headers: as(viewer), body });
  const clear = (viewer: string, p: string, n: number | string) => t.request('DELETE', url(p, n), { headers: as(viewer) });
  const removeOne = (viewer: string, p: string, n: number | string, id: number | string) =>
    t.request('DELETE', `${url(p, n)}/${id}`, { headers: as(viewer) });
  const names = (res: { json(): unknown }) => (res.json() as Json[]).map((l) => l.name);
  const ids = (...keys: string[]) => keys.map((k) => labels[k]!.id);
  async function newIssue(p: string, poster = 'alice', body: Json = {}): Promise<Json> {
    const res = await t.request('POST', `/api/v1/repos/${p}/issues`, {
      headers: as(poster),
      body: { title: `issue by ${poster}`, ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function newRepo(owner: string, name: string, isPrivate: boolean, path = '/api/v1/user/repos'): Promise<Models.Repository> {
    const res = await t.request('POST', path, { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  const expectExactCounters = () => expectExactLabelCounters(t);
  const labelComments = (issueId: number) =>
    t.db.comment.findMany({ where: { issueId, type: 'LABEL' }, orderBy: { id: 'asc' }, select: { labelId: true, content: true } });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'blocked', 'orgowner']) users[n] = await t.createUser(n);
    users.admin = await t.createUser('admin', { admin: true });
    repos.pub = await newRepo('alice', 'pub', false);
    repos.priv = await newRepo('alice', 'priv', true);
    repos.arch = await newRepo('alice', 'arch', false);
    const org = await createOrgAs(t, users.orgowner!, 'acme');
    repos.org = await newRepo('orgowner', 'orepo', false, '/api/v1/orgs/acme/repos');
    for (const r of [repos.pub, repos.priv, repos.arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
      await addCollaborator(t, r, users.blocked!, 'write');
    }
    await blockUser(t, users.alice!, users.blocked!);
    const mk = async (key: string, data: { repoId?: number; orgId?: number; name: string; exclusive?: boolean }) => {
      labels[key] = await t.db.label.create({ data: { color: 'ee0701', ...data } });
    };
    await mk('bug', { repoId: repos.pub.id, name: 'bug' });
    await mk('feature', { repoId: repos.pub.id, name: 'feature' });
    await mk('kindBug', { repoId: repos.pub.id, name: 'kind/bug', exclusive: true });
    await mk('kindFeature', { repoId: repos.pub.id, name: 'kind/feature', exclusive: true });
    await mk('kindLoose', { repoId: repos.pub.id, name: 'kind/loose' });
    await mk('prioHigh', { repoId: repos.pub.id, name: 'prio/high', exclusive: true });
    await mk('foreign', { repoId: repos.priv.id, name: 'foreign' });
    await mk('privBug', { repoId: repos.priv.id, name: 'bug' });
    await mk('orgLabel', { orgId: org.id, name: 'org-l' });
    await mk('orgKind', { orgId: org.id, name: 'kind/org', exclusive: true });
    await mk('orepoKind', { repoId: repos.org.id, name: 'kind/repo', exclusive: true });
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('lists, adds by id (200, the labels by name) and records LABEL comments, counters and an event; foreign and unknown ids are dropped', async () => {
    const issue = await newIssue('alice/pub');
    const n = issue.number as number;
    const empty = await list('anon', 'alice/pub', n);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    const res = await add('writer', 'alice/pub', n, { labels: [...ids('feature', 'bug', 'foreign'), 999999] });
    expect(res.statusCode, res.body).toBe(200);
    expect(names(res)).toEqual(['bug', 'feature']);
    const first = (res.json() as Json[])[0]!;
    expect(Object.keys(first)).toEqual(LABEL_KEYS);
    expect(first).toEqual({
      id: labels.bug!.id,
      name: 'bug',
      exclusive: false,
      is_archived: false,
      color: 'ee0701',
      description: '',
      url: `http://localhost:3000/api/v1/repos/alice/pub/labels/${labels.bug!.id}`,
    });
    const listed = await list('anon', 'alice/pub', n);
    expect(listed.json()).toEqual(res.json());
    expect(listed.headers['x-total-count']).toBeUndefined();
    expect(names(await add('writer', 'alice/pub', n, { labels: ids('bug') }))).toEqual(['bug', 'feature']);
    expect(await labelComments(issue.id as number)).toEqual([
      { labelId: labels.feature!.id, content: '1' },
      { labelId: labels.bug!.id, content: '1' },
    ]);
    expect((await t.request('GET', `/api/v1/repos/alice/pub/issues/${n}`)).json().labels.map((l: Json) => l.name)).toEqual([
      'bug',
      'feature',
    ]);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual({
      type: 'issue.updated',
      issueId: issue.id,
      repoId: repos.pub!.id,
      index: n,
      actorId: users.writer!.id,
      fields: ['labels'],
    });
    await t.request('PATCH', `/api/v1/repos/alice/pub/issues/${n}`, { headers: as('alice'), body: { state: 'closed' } });
    expect(await t.db.label.findUniqueOrThrow({ where: { id: labels.bug!.id } })).toMatchObject({ numIssues: 1, numClosedIssues: 1 });
    await expectExactCounters();
  });

  it('adds and replaces by name (repository and organization labels); rejects mixed or non-label items with 400 and non-lists with 422', async () => {
    const n = (await newIssue('alice/pub')).number as number;
    expect(names(await add('alice', 'alice/pub', n, { labels: ['feature', 'nope', 'foreign'] }))).toEqual(['feature']);
    expect(names(await replace('alice', 'alice/pub', n, { labels: ['bug', 'prio/high'] }))).toEqual(['bug', 'prio/high']);
    expectGiteaError(
      await add('alice', 'alice/pub', n, { labels: [labels.bug!.id, 'feature'] }),
      400,
      'labels should be an array of strings or integers',
    );
    expectGiteaError(await add('alice', 'alice/pub', n, { labels: [true] }), 400, 'a label must be an integer or a string');
    expectGiteaError(await replace('alice', 'alice/pub', n, { labels: [{ id: 1 }] }), 400, 'a label must be an integer or a string');
    expectGiteaError(await add('alice', 'alice/pub', n, { labels: 'bug' }), 422);
    expect(names(await add('alice', 'alice/pub', n, {}))).toEqual(['bug', 'prio/high']);
    const o = (await newIssue('acme/orepo', 'orgowner')).number as number;
    const orgRes = await add('orgowner', 'acme/orepo', o, { labels: ['org-l'] });
    expect(orgRes.json()).toEqual([
      expect.objectContaining({ name: 'org-l', url: `http://localhost:3000/api/v1/orgs/acme/labels/${labels.orgLabel!.id}` }),
    ]);
    expect(names(await add('orgowner', 'acme/orepo', o, { labels: ids('orepoKind', 'bug') }))).toEqual(['kind/repo', 'org-l']);
    // An organization label is usable only on that organization's repositories.
    expect(names(await add('alice', 'alice/pub', n, { labels: ids('orgLabel') }))).toEqual(['bug', 'prio/high']);
    await expectExactCounters();
  });

  it('exclusive (scoped) labels replace the issue labels of their scope on add, replace and create; the last of a scope wins', async () => {
    const issue = await newIssue('alice/pub');
    const n = issue.number as number;
    expect(names(await add('alice', 'alice/pub', n, { labels: ids('kindBug', 'kindLoose', 'bug') }))).toEqual([
      'bug',
      'kind/bug',
      'kind/loose',
    ]);
    expect(names(await add('alice', 'alice/pub', n, { labels: ids('kindFeature') }))).toEqual(['bug', 'kind/feature', 'kind/loose']);
    const comments = await labelComments(issue.id as number);
    expect(comments.slice(-2)).toEqual([
      { labelId: labels.kindBug!.id, content: '' },
      { labelId: labels.kindFeature!.id, content: '1' },
    ]);
    expect(names(await add('alice', 'alice/pub', n, { labels: ids('kindBug', 'prioHigh', 'kindFeature') }))).toEqual([
      'bug',
      'kind/feature',
      'kind/loose',
      'prio/high',
    ]);
    expect(names(await add('alice', 'alice/pub', n, { labels: ['kind/feature', 'kind/bug'] }))).toEqual([
      'bug',
      'kind/bug',
      'kind/loose',
      'prio/high',
    ]);
    expect(names(await replace('alice', 'alice/pub', n, { labels: ids('kindBug', 'kindFeature', 'feature') }))).toEqual([
      'feature',
      'kind/feature',
    ]);
    const o = (await newIssue('acme/orepo', 'orgowner')).number as number;
    expect(names(await add('orgowner', 'acme/orepo', o, { labels: ids('orgKind') }))).toEqual(['kind/org']);
    expect(names(await add('orgowner', 'acme/orepo', o, { labels: ids('orepoKind') }))).toEqual(['kind/repo']);
    const created = await newIssue('alice/pub', 'writer', { labels: ids('kindFeature', 'bug', 'kindBug') });
    expect((created.labels as Json[]).map((l) => l.name)).toEqual(['bug', 'kind/bug']);
    await expectExactCounters();
  });

  it('clears (204) and removes one label (204); an id that is not a label of the repository or its organization is a 422', async () => {
    const issue = await newIssue('alice/pub');
    const n = issue.number as number;
    await add('alice', 'alice/pub', n, { labels: ids('bug', 'feature', 'prioHigh') });
    const one = await removeOne('writer', 'alice/pub', n, labels.feature!.id);
    expect(one.statusCode, one.body).toBe(204);
    expect(one.body).toBe('');
    expect(names(await list('alice', 'alice/pub', n))).toEqual(['bug', 'prio/high']);
    expect((await removeOne('writer', 'alice/pub', n, labels.feature!.id)).statusCode).toBe(204);
    expectGiteaError(await removeOne('writer', 'alice/pub', n, 999999), 422, 'label does not exist [label_id: 999999]');
    expectGiteaError(
      await removeOne('writer', 'alice/pub', n, labels.foreign!.id),
      422,
      `label does not exist [label_id: ${labels.foreign!.id}]`,
    );
    expectGiteaError(await removeOne('writer', 'alice/pub', n, 'abc'), 422);
    const cleared = await clear('writer', 'alice/pub', n);
    expect(cleared.statusCode, cleared.body).toBe(204);
    expect(await list('alice', 'alice/pub', n).then((r) => r.json())).toEqual([]);
    expect((await clear('writer', 'alice/pub', n)).statusCode).toBe(204);
    expect(names(await replace('alice', 'alice/pub', n, { labels: ids('bug') }))).toEqual(['bug']);
    expect(names(await replace('alice', 'alice/pub', n, { labels: [] }))).toEqual([]);
    const comments = await labelComments(issue.id as number);
    expect(
      comments
        .filter((c) => c.content === '')
        .map((c) => c.labelId)
        .sort(),
    ).toEqual([...ids('feature', 'bug', 'prioHigh', 'bug')].sort());
    await expectExactCounters();
  });

  it('gates by role: readers list; only writers change (the poster and readers get 403), anonymous 401/404, outsiders 404 on private, archived 423', async () => {
    const pub = (await newIssue('alice/pub', 'outsider')).number as number;
    const priv = (await newIssue('alice/priv')).number as number;
    await add('alice', 'alice/priv', priv, { labels: ['bug'] });
    expect(names(await list('reader', 'alice/priv', priv))).toEqual(['bug']);
    expectGiteaError(await list('anon', 'alice/priv', priv), 404);
    expectGiteaError(await list('outsider', 'alice/priv', priv), 404);
    expectGiteaError(await list('alice', 'alice/priv', 9999), 404);
    expectGiteaError(await list('alice', 'alice/priv', 'abc'), 404);
    const body = { labels: ids('bug') };
    expectGiteaError(await add('anon', 'alice/pub', pub, body), 401);
    expectGiteaError(await add('anon', 'alice/priv', priv, body), 404);
    expectGiteaError(await add('outsider', 'alice/priv', priv, body), 404);
    expectGiteaError(await clear('outsider', 'alice/priv', priv), 404);
    expectGiteaError(await removeOne('outsider', 'alice/priv', priv, labels.privBug!.id), 404);
    for (const viewer of ['reader', 'outsider', 'blocked']) {
      expectGiteaError(await add(viewer, 'alice/pub', pub, body), 403, 'write permission is required');
      expectGiteaError(await replace(viewer, 'alice/pub', pub, body), 403, 'write permission is required');
      expectGiteaError(await add(viewer, 'alice/pub', pub, { labels: [true] }), 403);
      for (const res of [await clear(viewer, 'alice/pub', pub), await removeOne(viewer, 'alice/pub', pub, labels.bug!.id)]) {
        expect(res.statusCode, viewer).toBe(403);
        expect(res.body).toBe('');
      }
    }
    expectGiteaError(await add('reader', 'alice/priv', priv, body), 403);
    for (const viewer of ['writer', 'alice', 'admin']) {
      expect(names(await add(viewer, 'alice/pub', pub, body)), viewer).toEqual(['bug']);
      expect((await removeOne(viewer, 'alice/pub', pub, labels.bug!.id)).statusCode, viewer).toBe(204);
    }
    const archIssue = await t.db.issue.create({ data: { repoId: repos.arch!.id, index: 1, title: 'old', posterId: users.alice!.id } });
    await editRepo(t, repos.arch!, { archived: true });
    expectGiteaError(await add('alice', 'alice/arch', archIssue.index, body), 423, 'repo is archived');
    expectGiteaError(await clear('alice', 'alice/arch', archIssue.index), 423, 'repo is archived');
    expect((await list('anon', 'alice/arch', archIssue.index)).statusCode).toBe(200);
    const readOnly = await t.createToken('writer', ['read:issue']);
    expectGiteaError(await t.request('POST', url('alice/pub', pub), { headers: tokenAuth(readOnly), body }), 403);
    expect((await t.request('GET', url('alice/pub', pub), { headers: tokenAuth(readOnly) })).statusCode).toBe(200);
  });
});
