import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { gql, mutationError } from '../../helpers/graphql.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
const OPEN_DEPENDENCIES = 'cannot close this issue or pull request because it still has open dependencies';

/** Two rules of PATCH …/issues/{index}: 409 on a stale content_version, 412 when closing with open blockers. */
describe.each(PROVIDERS)('REST issue edit rules (%s)', (provider) => {
  let t: TestApp;

  const issue = async (viewer: string, p: string, title: string, body = ''): Promise<number> => {
    const res = await t.request('POST', `/api/v1/repos/${p}/issues`, { headers: as(viewer), body: { title, body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  };
  const edit = (viewer: string, p: string, n: number, body: unknown) =>
    t.request('PATCH', `/api/v1/repos/${p}/issues/${n}`, { headers: as(viewer), body });
  const get = async (p: string, n: number) => (await t.request('GET', `/api/v1/repos/${p}/issues/${n}`, { headers: as('owner') })).json();
  const block = async (p: string, blocker: number, blocked: number) => {
    const [owner, repo] = p.split('/');
    const res = await t.request('POST', `/api/v1/repos/${p}/issues/${blocker}/blocks`, {
      headers: as('owner'),
      body: { owner, repo, index: blocked },
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  const globalId = async (p: string, n: number): Promise<string> => {
    const [owner, name] = p.split('/');
    const res = await gql<{ repository: { issue: { id: string } } }>(
      t,
      `{ repository(owner: "${owner}", name: "${name}") { issue(number: ${n}) { id } } }`,
      { headers: as('owner') },
    );
    return res.data!.repository.issue.id;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'writer', 'poster', 'reader']) await t.createUser(n);
    for (const [name, isPrivate] of [
      ['repo', false],
      ['priv', true],
      ['nodeps', false],
    ] as const) {
      expect((await t.request('POST', '/api/v1/user/repos', { headers: as('owner'), body: { name, private: isPrivate } })).statusCode).toBe(
        201,
      );
    }
    for (const [user, permission] of [
      ['writer', 'write'],
      ['reader', 'read'],
    ]) {
      for (const repo of ['repo', 'priv'])
        await t.request('PUT', `/api/v1/repos/owner/${repo}/collaborators/${user}`, { headers: as('owner'), body: { permission } });
    }
    const res = await t.request('PATCH', '/api/v1/repos/owner/nodeps', {
      headers: as('owner'),
      body: {
        has_issues: true,
        internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: false },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => t.close());

  describe('content_version (409)', () => {
    it('a body with the current version is saved and bumps the version; a stale one is 409 and changes nothing', async () => {
      const n = await issue('owner', 'owner/repo', 'versioned', 'v0');
      const before = await get('owner/repo', n);
      expect(before.content_version).toBe(0);
      const ok = await edit('owner', 'owner/repo', n, { body: 'v1', content_version: 0 });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json()).toMatchObject({ body: 'v1', content_version: 1 });
      const stale = await edit('writer', 'owner/repo', n, { body: 'lost update', title: 'renamed', content_version: 0 });
      expectGiteaError(stale, 409, 'the issue is already changed');
      expect(await get('owner/repo', n)).toMatchObject({ body: 'v1', title: 'versioned', content_version: 1 });
      expectGiteaError(await edit('owner', 'owner/repo', n, { body: 'x', content_version: 99999 }), 409, 'the issue is already changed');
      // Form values are accepted too (Gitea's binding).
      expect((await edit('owner', 'owner/repo', n, { body: 'v2', content_version: '1' })).json()).toMatchObject({
        body: 'v2',
        content_version: 2,
      });
    });

    it('without content_version, or without a body, the version is not checked', async () => {
      const n = await issue('owner', 'owner/repo', 'free');
      expect((await edit('owner', 'owner/repo', n, { body: 'no version' })).json()).toMatchObject({
        body: 'no version',
        content_version: 1,
      });
      const titleOnly = await edit('owner', 'owner/repo', n, { title: 'renamed', content_version: 42 });
      expect(titleOnly.statusCode, titleOnly.body).toBe(201);
      expect(titleOnly.json()).toMatchObject({ title: 'renamed', content_version: 1 });
      expect((await edit('owner', 'owner/repo', n, { body: 'null version', content_version: null })).statusCode).toBe(201);
    });

    it('applies to the poster as to writers; the gates come first (404 outsider, 401 anonymous, 403 reader); bad values are 422', async () => {
      const n = await issue('poster', 'owner/repo', 'by poster', 'p0');
      expectGiteaError(await edit('poster', 'owner/repo', n, { body: 'p1', content_version: 5 }), 409);
      expect((await edit('poster', 'owner/repo', n, { body: 'p1', content_version: 0 })).statusCode).toBe(201);
      expectGiteaError(await edit('anon', 'owner/repo', n, { body: 'x', content_version: 1 }), 401);
      expectGiteaError(await edit('reader', 'owner/repo', n, { body: 'x', content_version: 0 }), 403);
      const p = await issue('owner', 'owner/priv', 'private');
      expectGiteaError(await edit('poster', 'owner/priv', p, { body: 'x', content_version: 99 }), 404);
      expectGiteaError(await edit('owner', 'owner/repo', n, { body: 'x', content_version: 'abc' }), 422);
    });

    it('two edits made from the same version: only one is saved', async () => {
      const n = await issue('owner', 'owner/repo', 'race', 'r0');
      const results = await Promise.all(['a', 'b', 'c'].map((b) => edit('owner', 'owner/repo', n, { body: b, content_version: 0 })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      const winner = results.find((r) => r.statusCode === 201)!.json().body as string;
      expect(await get('owner/repo', n)).toMatchObject({ body: winner, content_version: 1 });
    });

    it('GraphQL updateIssue(contentVersion:) answers CONFLICT for a stale version', async () => {
      const n = await issue('owner', 'owner/repo', 'gql versioned', 'g0');
      const id = await globalId('owner/repo', n);
      const q = (v: number) => `mutation { updateIssue(input: { id: "${id}", body: "g-${v}", contentVersion: ${v} }) { issue { body } } }`;
      const ok = await gql<{ updateIssue: { issue: { body: string } } | null }>(t, q(0), { headers: as('owner') });
      expect(mutationError(ok, 'updateIssue')).toBeNull();
      expect(ok.data?.updateIssue?.issue.body).toBe('g-0');
      const stale = await gql<{ updateIssue: { issue: { body: string } } | null }>(t, q(0), { headers: as('owner') });
      expect(mutationError(stale, 'updateIssue')).toMatchObject({ code: 'CONFLICT', message: 'the issue is already changed' });
      expect(stale.data?.updateIssue).toBeNull();
      expect(await get('owner/repo', n)).toMatchObject({ body: 'g-0' });
    });
  });

  describe('closing with open dependencies (412)', () => {
    it('refuses to close while a blocker is open, whoever closes; the whole edit is refused; reopening and other edits stay allowed', async () => {
      const [blocker, blocked] = [await issue('owner', 'owner/repo', 'blocker'), await issue('poster', 'owner/repo', 'blocked')];
      await block('owner/repo', blocker, blocked);
      for (const who of ['owner', 'writer', 'poster']) {
        expectGiteaError(await edit(who, 'owner/repo', blocked, { state: 'closed', title: 'changed too' }), 412, OPEN_DEPENDENCIES);
      }
      expect(await get('owner/repo', blocked)).toMatchObject({ state: 'open', title: 'blocked' });
      expect((await edit('owner', 'owner/repo', blocked, { title: 'still editable' })).statusCode).toBe(201);
      // The blocker itself closes freely; then the blocked issue can close and reopen.
      expect((await edit('owner', 'owner/repo', blocker, { state: 'closed' })).statusCode).toBe(201);
      expect((await edit('poster', 'owner/repo', blocked, { state: 'closed' })).json().state).toBe('closed');
      // Reopening the blocker does not reopen anything, and reopening a blocked issue is never refused.
      expect((await edit('owner', 'owner/repo', blocker, { state: 'open' })).statusCode).toBe(201);
      expect((await edit('owner', 'owner/repo', blocked, { state: 'open' })).json().state).toBe('open');
      expectGiteaError(await edit('owner', 'owner/repo', blocked, { state: 'closed' }), 412, OPEN_DEPENDENCIES);
    });

    it('does not apply when the repository has dependencies disabled', async () => {
      await issue('owner', 'owner/repo', 'other repo blocker');
      const blocked = await issue('owner', 'owner/nodeps', 'free to close');
      // Rows may predate disabling dependencies; they no longer hold the issue open.
      await t.db.issueDependency.create({
        data: {
          issueId: (await t.db.issue.findFirstOrThrow({ where: { title: 'free to close' } })).id,
          dependencyId: (await t.db.issue.findFirstOrThrow({ where: { title: 'other repo blocker' } })).id,
        },
      });
      const res = await edit('owner', 'owner/nodeps', blocked, { state: 'closed' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().state).toBe('closed');
    });

    it('counts blockers in repositories the closer cannot see', async () => {
      const hidden = await issue('owner', 'owner/priv', 'hidden blocker');
      const visible = await issue('poster', 'owner/repo', 'needs hidden');
      const res = await t.request('POST', `/api/v1/repos/owner/repo/issues/${visible}/dependencies`, {
        headers: as('owner'),
        body: { owner: 'owner', repo: 'priv', index: hidden },
      });
      expect(res.statusCode, res.body).toBe(201);
      expectGiteaError(await edit('poster', 'owner/repo', visible, { state: 'closed' }), 412, OPEN_DEPENDENCIES);
    });

    it('GraphQL closeIssue answers PRECONDITION_FAILED', async () => {
      const [blocker, blocked] = [await issue('owner', 'owner/repo', 'gql blocker'), await issue('owner', 'owner/repo', 'gql blocked')];
      await block('owner/repo', blocker, blocked);
      const id = await globalId('owner/repo', blocked);
      const res = await gql<{ closeIssue: { __typename: string } | null }>(
        t,
        `mutation { closeIssue(input: { issueId: "${id}" }) { __typename } }`,
        { headers: as('owner') },
      );
      expect(res.data?.closeIssue).toBeNull();
      expect(mutationError(res, 'closeIssue')).toMatchObject({ code: 'PRECONDITION_FAILED', message: OPEN_DEPENDENCIES });
    });
  });
});
