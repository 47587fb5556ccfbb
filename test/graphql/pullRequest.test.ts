import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

describe.each(PROVIDERS)('GraphQL pull requests (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let head: string;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob', 'reader', 'outsider']) await t.createUser(u);
    await f.createRepo('alice', 'demo');
    await f.createRepo('alice', 'secret', { private: true });
    expect(
      (await t.request('PUT', '/api/v1/repos/alice/secret/collaborators/reader', { headers: basic('alice'), body: { permission: 'read' } }))
        .statusCode,
    ).toBe(204);
    const label = await t.request('POST', '/api/v1/repos/alice/demo/labels', {
      headers: basic('alice'),
      body: { name: 'bug', color: 'ff0000' },
    });
    head = await f.push('alice', 'demo', 'alice', 'feature', { 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' });
    await f.open('alice', 'demo', 'alice', {
      head: 'feature',
      base: 'main',
      title: 'First',
      body: 'the body',
      labels: [label.json().id],
      assignees: ['alice'],
    });
    await f.pushAndOpen('alice', 'secret', 'alice', 'hidden', { 'h.txt': 'h\n' });
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const PR_FIELDS = `id number title body state closed merged mergedAt mergeable additions deletions changedFiles baseRefName headRefName
    baseRefOid headRefOid isCrossRepository isDraft url author { login } labels(first: 5) { totalCount nodes { name } }
    assignees(first: 5) { nodes { login } } comments(first: 5) { totalCount } baseRepository { nameWithOwner } headRepository { nameWithOwner }
    files(first: 10) { totalCount nodes { path additions deletions changeType } }
    commits(first: 10) { totalCount nodes { commit { oid messageHeadline authoredDate author { name email } } } }`;

  it('Repository.pullRequest(number:) with GitHub field names, git-derived fields, node(id:)', async () => {
    const res = await gql<{ repository: { pullRequest: Record<string, unknown> } }>(
      t,
      `{ repository(owner: "alice", name: "demo") { pullRequest(number: 1) { ${PR_FIELDS} } } }`,
    );
    expect(res.errors).toBeUndefined();
    const pr = res.data?.repository.pullRequest ?? {};
    expect(pr).toMatchObject({
      number: 1,
      title: 'First',
      body: 'the body',
      state: 'OPEN',
      closed: false,
      merged: false,
      mergedAt: null,
      mergeable: 'MERGEABLE',
      additions: 3,
      deletions: 0,
      changedFiles: 2,
      baseRefName: 'main',
      headRefName: 'feature',
      headRefOid: head,
      isCrossRepository: false,
      isDraft: false,
      url: 'http://localhost:3000/alice/demo/pulls/1',
      author: { login: 'alice' },
      labels: { totalCount: 1, nodes: [{ name: 'bug' }] },
      assignees: { nodes: [{ login: 'alice' }] },
      comments: { totalCount: 0 },
      baseRepository: { nameWithOwner: 'alice/demo' },
      headRepository: { nameWithOwner: 'alice/demo' },
      files: {
        totalCount: 2,
        nodes: [
          { path: 'a.txt', additions: 2, deletions: 0, changeType: 'ADDED' },
          { path: 'b.txt', additions: 1, deletions: 0, changeType: 'ADDED' },
        ],
      },
      commits: {
        totalCount: 2,
        nodes: [
          { commit: { messageHeadline: 'change a.txt', author: { name: 'Test Pusher' } } },
          { commit: { oid: head, messageHeadline: 'change b.txt' } },
        ],
      },
    });
    expect(pr.baseRefOid).toMatch(/^[0-9a-f]{40}$/);
    const node = await gql<{ node: { number: number } | null }>(t, `{ node(id: "${String(pr.id)}") { ... on PullRequest { number } } }`);
    expect(node.data?.node).toEqual({ number: 1 });
    const paged = await gql<{ repository: { pullRequest: { files: { nodes: { path: string }[]; pageInfo: { hasNextPage: boolean } } } } }>(
      t,
      '{ repository(owner: "alice", name: "demo") { pullRequest(number: 1) { files(first: 1) { nodes { path } pageInfo { hasNextPage } } } } }',
    );
    expect(paged.data?.repository.pullRequest.files).toEqual({ nodes: [{ path: 'a.txt' }], pageInfo: { hasNextPage: true } });
  });

  it('PullRequest.timelineItems lists the issue timeline (labels, assignees, close/reopen), filtered by itemTypes', async () => {
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/demo/pulls/1', { headers: basic('alice'), body: { state: 'closed' } })).statusCode,
    ).toBe(201);
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/demo/pulls/1', { headers: basic('alice'), body: { state: 'open' } })).statusCode,
    ).toBe(201);
    const q = (types: string) =>
      gql<{ repository: { pullRequest: { timelineItems: { totalCount: number; nodes: { __typename: string }[] } } } }>(
        t,
        `{ repository(owner: "alice", name: "demo") { pullRequest(number: 1) { timelineItems(first: 20${types}) { totalCount nodes { __typename ... on ClosedEvent { actor { login } } } } } } }`,
      );
    const all = (await q('')).data?.repository.pullRequest.timelineItems;
    expect(all?.nodes.map((n) => n.__typename)).toEqual(
      expect.arrayContaining(['LabeledEvent', 'AssignedEvent', 'ClosedEvent', 'ReopenedEvent']),
    );
    expect(all?.totalCount).toBe(all?.nodes.length);
    const closed = (await q(', itemTypes: [CLOSED_EVENT, REOPENED_EVENT]')).data?.repository.pullRequest.timelineItems;
    expect(closed).toMatchObject({
      totalCount: 2,
      nodes: [{ __typename: 'ClosedEvent', actor: { login: 'alice' } }, { __typename: 'ReopenedEvent' }],
    });
  });

  it('private repositories: invisible to anonymous and outsiders on every path, visible to readers', async () => {
    const q = '{ repository(owner: "alice", name: "secret") { pullRequest(number: 1) { id title files(first: 5) { totalCount } } } }';
    expect((await gql<{ repository: unknown }>(t, q)).data?.repository).toBeNull();
    expect((await gql<{ repository: unknown }>(t, q, { headers: basic('outsider') })).data?.repository).toBeNull();
    const asReader = await gql<{ repository: { pullRequest: { id: string; title: string; files: { totalCount: number } } } }>(t, q, {
      headers: basic('reader'),
    });
    expect(asReader.data?.repository.pullRequest).toMatchObject({ title: 'pull hidden', files: { totalCount: 1 } });
    const id = asReader.data?.repository.pullRequest.id ?? '';
    expect((await gql<{ node: unknown }>(t, `{ node(id: "${id}") { id } }`, { headers: basic('outsider') })).data?.node).toBeNull();
    expect((await gql<{ node: unknown }>(t, `{ node(id: "${id}") { id } }`)).data?.node).toBeNull();
  });

  it('Repository.pullRequests filters by state, base and head branch, labels; orderBy', async () => {
    await f.push('alice', 'demo', 'alice', 'second', { 'c.txt': 'c\n' });
    await f.open('alice', 'demo', 'alice', { head: 'second', base: 'main', title: 'Second' });
    await t.request('PATCH', '/api/v1/repos/alice/demo/issues/2', { headers: basic('alice'), body: { state: 'closed' } });
    const list = async (args: string) =>
      (
        await gql<{ repository: { pullRequests: { totalCount: number; nodes: { number: number }[] } } }>(
          t,
          `{ repository(owner: "alice", name: "demo") { pullRequests(${args}) { totalCount nodes { number } } } }`,
        )
      ).data?.repository.pullRequests;
    expect(await list('first: 10')).toEqual({ totalCount: 2, nodes: [{ number: 2 }, { number: 1 }] });
    expect(await list('first: 10, states: [OPEN]')).toEqual({ totalCount: 1, nodes: [{ number: 1 }] });
    expect(await list('first: 10, states: [CLOSED]')).toEqual({ totalCount: 1, nodes: [{ number: 2 }] });
    expect(await list('first: 10, states: [MERGED]')).toEqual({ totalCount: 0, nodes: [] });
    expect(await list('first: 10, headRefName: "second"')).toEqual({ totalCount: 1, nodes: [{ number: 2 }] });
    expect(await list('first: 10, baseRefName: "other"')).toEqual({ totalCount: 0, nodes: [] });
    expect(await list('first: 10, labels: ["bug"]')).toEqual({ totalCount: 1, nodes: [{ number: 1 }] });
    expect(await list('first: 10, orderBy: { field: CREATED_AT, direction: ASC }')).toEqual({
      totalCount: 2,
      nodes: [{ number: 1 }, { number: 2 }],
    });
  });

  it('createPullRequest calls the same service: payload, typed errors, anonymous refused', async () => {
    await f.push('alice', 'demo', 'alice', 'third', { 'd.txt': 'd\n' });
    const repo = await gql<{ repository: { id: string } }>(t, '{ repository(owner: "alice", name: "demo") { id } }');
    const m = `mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) {
      __typename pullRequest { number title headRefName changedFiles } } }`;
    type Created = { createPullRequest: { __typename: string; pullRequest: Record<string, unknown> } | null };
    const ok = await gql<Created>(t, m, {
      headers: basic('bob'),
      variables: { input: { repositoryId: repo.data?.repository.id, baseRefName: 'main', headRefName: 'third', title: 'Third' } },
    });
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.createPullRequest?.pullRequest).toMatchObject({ title: 'Third', headRefName: 'third', changedFiles: 1 });
    // GitHub's headRepositoryId (here the base itself: Gitea's owner/repo:branch head).
    await f.push('alice', 'demo', 'alice', 'fourth', { 'e.txt': 'e\n' });
    const viaHeadRepo = await gql<Created>(t, m, {
      headers: basic('bob'),
      variables: {
        input: {
          repositoryId: repo.data?.repository.id,
          headRepositoryId: repo.data?.repository.id,
          baseRefName: 'main',
          headRefName: 'fourth',
          title: 'Fourth',
        },
      },
    });
    expect(viaHeadRepo.data?.createPullRequest?.pullRequest).toMatchObject({ title: 'Fourth', headRefName: 'fourth', changedFiles: 1 });
    const qualified = await gql<Created>(t, m, {
      headers: basic('bob'),
      variables: {
        input: {
          repositoryId: repo.data?.repository.id,
          headRepositoryId: repo.data?.repository.id,
          baseRefName: 'main',
          headRefName: 'alice:fourth',
          title: 'x',
        },
      },
    });
    expect(mutationError(qualified, 'createPullRequest')).toMatchObject({ code: 'VALIDATION', field: 'headRefName' });
    const dup = await gql<Created>(t, m, {
      headers: basic('bob'),
      variables: { input: { repositoryOwner: 'alice', repositoryName: 'demo', baseRefName: 'main', headRefName: 'third', title: 'again' } },
    });
    expect(mutationError(dup, 'createPullRequest')).toMatchObject({ code: 'ALREADY_EXISTS' });
    const same = await gql<Created>(t, m, {
      headers: basic('bob'),
      variables: { input: { repositoryOwner: 'alice', repositoryName: 'demo', baseRefName: 'main', headRefName: 'main', title: 'x' } },
    });
    expect(mutationError(same, 'createPullRequest')).toMatchObject({ code: 'VALIDATION' });
    const anon = await gql<Created>(t, m, {
      variables: { input: { repositoryOwner: 'alice', repositoryName: 'demo', baseRefName: 'main', headRefName: 'third', title: 'x' } },
    });
    expect(mutationError(anon, 'createPullRequest')).toMatchObject({ code: 'UNAUTHENTICATED' });
    const hidden = await gql<Created>(t, m, {
      headers: basic('outsider'),
      variables: { input: { repositoryOwner: 'alice', repositoryName: 'secret', baseRefName: 'main', headRefName: 'hidden', title: 'x' } },
    });
    expect(mutationError(hidden, 'createPullRequest')).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('pullRequests → author, files: the statement count does not grow with the number of pull requests', async () => {
    const repo = await f.createRepo('alice', 'busy');
    const dir = await f.workTree('alice', 'busy', 'alice');
    let made = 0;
    const add = async (n: number) => {
      const branches: string[] = [];
      for (let i = 0; i < n; i++) {
        const b = `b${++made}`;
        await f.git.ok(['checkout', '-q', '-B', b, 'origin/main'], { cwd: dir });
        await f.git.commit(dir, `${b}.txt`, `${b}\n`);
        branches.push(b);
      }
      await f.git.ok(['push', '-q', 'origin', ...branches.map((b) => `${b}:refs/heads/${b}`)], { cwd: dir });
      for (const b of branches) await f.open('alice', 'busy', 'alice', { head: b, base: 'main' });
    };
    const q =
      '{ repository(owner: "alice", name: "busy") { pullRequests(first: 30) { totalCount nodes { number author { login } files(first: 20) { nodes { path } } } } } }';
    type Shape = {
      repository: { pullRequests: { totalCount: number; nodes: { author: { login: string }; files: { nodes: { path: string }[] } }[] } };
    };
    const measure = async () => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<Shape>(t, q, { headers: basic('alice') });
      expect(res.errors).toBeUndefined();
      return { statements: t.queries.length, data: res.data?.repository.pullRequests };
    };
    await add(2);
    await measure();
    const small = await measure();
    await add(18);
    const large = await measure();
    expect(small.data?.totalCount).toBe(2);
    expect(large.data?.totalCount).toBe(20);
    expect(large.data?.nodes[0]?.files.nodes).toEqual([{ path: 'b20.txt' }]);
    expect(large.data?.nodes.every((n) => n.author.login === 'alice')).toBe(true);
    console.log(
      `[${provider}] pullRequests → author, files: ${small.statements} statements for 2 pull requests, ${large.statements} for 20`,
    );
    expect(large.statements).toBe(small.statements);
    expect(repo.id).toBeGreaterThan(0);
  });
});
