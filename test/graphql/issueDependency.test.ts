import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Conn = { totalCount: number; nodes: { number: number }[] };
type Deps = {
  blockedBy: Conn;
  blocking: Conn;
  issueDependenciesSummary: { blockedBy: number; blocking: number; totalBlockedBy: number; totalBlocking: number };
};
type Payload = { __typename: string; issue: { number: number }; blockingIssue: { number: number } };
type Result = { payload: Payload | null; error: MutationError | null };

const DEPS =
  'blockedBy(first: 10) { totalCount nodes { number } } blocking(first: 10) { totalCount nodes { number } } issueDependenciesSummary { blockedBy blocking totalBlockedBy totalBlocking }';

describe.each(PROVIDERS)('GraphQL issue dependencies (%s)', (provider) => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  const issue = async (p: string, title: string): Promise<number> => {
    const res = await t.request('POST', `/api/v1/repos/${p}/issues`, { headers: as('owner'), body: { title } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  };
  const idOf = async (p: string, n: number): Promise<string> => {
    const [owner, name] = p.split('/');
    const res = await gql<{ repository: { issue: { id: string } } }>(
      t,
      `{ repository(owner: "${owner}", name: "${name}") { issue(number: ${n}) { id } } }`,
      { headers: as('owner') },
    );
    return res.data!.repository.issue.id;
  };
  const mutate = async (
    name: 'addBlockedBy' | 'removeBlockedBy',
    viewer: string,
    issueId: string,
    blockingIssueId: string,
  ): Promise<Result> => {
    const res = await gql<Record<string, Payload | null>>(
      t,
      `mutation { ${name}(input: { issueId: "${issueId}", blockingIssueId: "${blockingIssueId}" }) { __typename issue { number } blockingIssue { number } } }`,
      { headers: as(viewer) },
    );
    return { payload: res.data?.[name] ?? null, error: mutationError(res, name) };
  };
  /** The error of a refused mutation. */
  const refused = async (...args: Parameters<typeof mutate>): Promise<MutationError | null> => {
    const r = await mutate(...args);
    expect(r.payload).toBeNull();
    return r.error;
  };
  const deps = async (viewer: string, id: string): Promise<Deps | null> => {
    const res = await gql<{ node: Deps | null }>(t, `{ node(id: "${id}") { ... on Issue { ${DEPS} } } }`, { headers: as(viewer) });
    expect(res.errors).toBeUndefined();
    return res.data!.node;
  };
  const numbers = (c: Conn) => c.nodes.map((n) => n.number);

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'reader', 'stranger']) await t.createUser(n);
    for (const [name, isPrivate] of [
      ['pub', false],
      ['priv', true],
      ['busy', false],
    ] as const) {
      expect((await t.request('POST', '/api/v1/user/repos', { headers: as('owner'), body: { name, private: isPrivate } })).statusCode).toBe(
        201,
      );
    }
    await t.request('PUT', '/api/v1/repos/owner/pub/collaborators/reader', { headers: as('owner'), body: { permission: 'read' } });
    for (const name of ['a', 'b', 'c']) ids[name] = await idOf('owner/pub', await issue('owner/pub', name));
    ids.p = await idOf('owner/priv', await issue('owner/priv', 'p'));
  });
  afterAll(() => t.close());

  it('addBlockedBy / removeBlockedBy use the REST rules; blockedBy and blocking are connections with totalCount', async () => {
    expect(await mutate('addBlockedBy', 'owner', ids.a!, ids.b!)).toEqual({
      payload: { __typename: 'AddBlockedByPayload', issue: { number: 1 }, blockingIssue: { number: 2 } },
      error: null,
    });
    expect(await mutate('addBlockedBy', 'owner', ids.a!, ids.c!)).toMatchObject({
      payload: { __typename: 'AddBlockedByPayload' },
      error: null,
    });
    const a = await deps('reader', ids.a!);
    expect(a?.blockedBy.totalCount).toBe(2);
    expect(numbers(a!.blockedBy)).toEqual([3, 2]); // most recently added first
    expect(a?.blocking).toEqual({ totalCount: 0, nodes: [] });
    expect(a?.issueDependenciesSummary).toEqual({ blockedBy: 2, blocking: 0, totalBlockedBy: 2, totalBlocking: 0 });
    expect((await deps('anon', ids.b!))?.blocking).toEqual({ totalCount: 1, nodes: [{ number: 1 }] });
    // The same row REST sees.
    expect(
      (await t.request('GET', '/api/v1/repos/owner/pub/issues/1/dependencies')).json().map((i: { number: number }) => i.number),
    ).toEqual([3, 2]);
    // Closing a blocker moves it out of the open counts only.
    expect(
      (await t.request('PATCH', '/api/v1/repos/owner/pub/issues/3', { headers: as('owner'), body: { state: 'closed' } })).statusCode,
    ).toBe(201);
    expect((await deps('owner', ids.a!))?.issueDependenciesSummary).toEqual({
      blockedBy: 1,
      blocking: 0,
      totalBlockedBy: 2,
      totalBlocking: 0,
    });
    expect(await mutate('removeBlockedBy', 'owner', ids.a!, ids.c!)).toEqual({
      payload: { __typename: 'RemoveBlockedByPayload', issue: { number: 1 }, blockingIssue: { number: 3 } },
      error: null,
    });
    expect(numbers((await deps('owner', ids.a!))!.blockedBy)).toEqual([2]);
    expect(await refused('removeBlockedBy', 'owner', ids.a!, ids.c!)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses duplicates (ALREADY_EXISTS), cycles (CONFLICT), and callers who cannot write the blocked issue', async () => {
    expect(await refused('addBlockedBy', 'owner', ids.a!, ids.b!)).toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(await refused('addBlockedBy', 'owner', ids.b!, ids.a!)).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^circular dependencies exists/),
    });
    expect(await refused('addBlockedBy', 'owner', ids.c!, ids.c!)).toMatchObject({ code: 'CONFLICT' });
    expect(await refused('addBlockedBy', 'reader', ids.c!, ids.a!)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refused('addBlockedBy', 'stranger', ids.c!, ids.a!)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refused('addBlockedBy', 'anon', ids.c!, ids.a!)).toMatchObject({ code: 'UNAUTHENTICATED' });
    // A repository id is no issue id.
    const repoId = (
      await gql<{ repository: { id: string } }>(t, '{ repository(owner: "owner", name: "pub") { id } }', { headers: as('owner') })
    ).data!.repository.id;
    expect(await refused('addBlockedBy', 'owner', ids.c!, repoId)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('private blockers are invisible to those who cannot see them: not in the connections, not in the counts, not addable', async () => {
    expect(await mutate('addBlockedBy', 'owner', ids.b!, ids.p!)).toMatchObject({
      payload: { __typename: 'AddBlockedByPayload' },
      error: null,
    });
    expect(numbers((await deps('owner', ids.b!))!.blockedBy)).toEqual([1]);
    const seen = await deps('owner', ids.b!);
    expect(seen?.blockedBy.totalCount).toBe(1);
    expect(seen?.issueDependenciesSummary.totalBlockedBy).toBe(1);
    for (const viewer of ['reader', 'stranger', 'anon']) {
      const b = await deps(viewer, ids.b!);
      expect(b?.blockedBy).toEqual({ totalCount: 0, nodes: [] });
      expect(b?.issueDependenciesSummary).toEqual({ blockedBy: 0, blocking: 1, totalBlockedBy: 0, totalBlocking: 1 });
    }
    // The private issue's own view lists what it blocks for those who may see it.
    expect((await deps('owner', ids.p!))?.blocking).toEqual({ totalCount: 1, nodes: [{ number: 2 }] });
    expect(await deps('stranger', ids.p!)).toBeNull();
    // reader writes nothing here, stranger cannot see the private issue: both NotFound.
    expect(await refused('addBlockedBy', 'stranger', ids.c!, ids.p!)).toMatchObject({ code: 'NOT_FOUND' });
    await t.request('PUT', '/api/v1/repos/owner/pub/collaborators/stranger', { headers: as('owner'), body: { permission: 'write' } });
    // A hidden blocker answers exactly as a missing one (no existence oracle).
    expect(await refused('addBlockedBy', 'stranger', ids.c!, ids.p!)).toMatchObject({ code: 'NOT_FOUND', message: 'issue does not exist' });
    expect(await mutate('addBlockedBy', 'stranger', ids.c!, ids.a!)).toMatchObject({
      payload: { __typename: 'AddBlockedByPayload' },
      error: null,
    });
  });

  it('issues { blockedBy blocking issueDependenciesSummary } costs the same statements for 2 and 10 issues', async () => {
    const add = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const blocked = await idOf('owner/busy', await issue('owner/busy', `blocked ${i}`));
        const blocker = await idOf('owner/busy', await issue('owner/busy', `blocker ${i}`));
        expect(await mutate('addBlockedBy', 'owner', blocked, blocker)).toMatchObject({
          payload: { __typename: 'AddBlockedByPayload' },
          error: null,
        });
        expect(await mutate('addBlockedBy', 'owner', blocked, ids.a!)).toMatchObject({
          payload: { __typename: 'AddBlockedByPayload' },
          error: null,
        });
      }
    };
    const q = `{ repository(owner: "owner", name: "busy") { issues(first: 50) { totalCount nodes { number ${DEPS} } } } }`;
    const measure = async () => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<{ repository: { issues: { totalCount: number; nodes: ({ number: number } & Deps)[] } } }>(t, q, {
        headers: as('reader'),
      });
      expect(res.errors).toBeUndefined();
      return { statements: t.queries.length, sql: [...t.queries], issues: res.data!.repository.issues };
    };
    await add(1);
    await measure(); // warm-up: the PostgreSQL driver looks up type information once per connection
    const small = await measure();
    await add(4);
    const large = await measure();
    expect(small.issues.totalCount).toBe(2);
    expect(large.issues.totalCount).toBe(10);
    const blockedNode = large.issues.nodes.find((n) => n.blockedBy.totalCount > 0)!;
    expect(blockedNode.blockedBy.totalCount).toBe(2);
    expect(blockedNode.issueDependenciesSummary).toEqual({ blockedBy: 2, blocking: 0, totalBlockedBy: 2, totalBlocking: 0 });
    if (large.statements !== small.statements) console.info(large.sql.join('\n---\n'));
    console.info(
      `[${provider}] issues with blockedBy/blocking/summary: ${small.statements} statements for 2 issues, ${large.statements} for 10`,
    );
    expect(large.statements).toBe(small.statements);
  });
});
