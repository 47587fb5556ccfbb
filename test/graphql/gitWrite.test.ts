import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';

const upper = (name: string) => `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(PROVIDERS)('GraphQL git writes: refs, createCommitOnBranch, Commit.history (%s)', (provider) => {
  let t: TestApp;
  let repoId = '';

  const run = async (name: string, input: Record<string, unknown>, selection: string, headers: Record<string, string>) => {
    const res = await gql<Record<string, Record<string, unknown> | null>>(
      t,
      `mutation($input: ${upper(name)}Input!) { ${name}(input: $input) { __typename ${selection} } }`,
      { variables: { input }, headers },
    );
    return { payload: res.data?.[name] ?? null, error: mutationError(res, name) };
  };
  /** A mutation that must succeed: its payload. */
  const mutate = async (name: string, input: Record<string, unknown>, selection: string, headers: Record<string, string>) => {
    const { payload, error } = await run(name, input, selection, headers);
    expect(error).toBeNull();
    return payload as Record<string, unknown>;
  };
  /** A mutation that must be refused: its error. */
  const refused = async (name: string, input: Record<string, unknown>, headers: Record<string, string>): Promise<MutationError | null> => {
    const { payload, error } = await run(name, input, '', headers);
    expect(payload).toBeNull();
    return error;
  };
  const head = async (branch = 'main') =>
    (await t.request('GET', `/api/v1/repos/gw/code/branches/${branch}`, { headers: basic('gw') })).json<{ commit: { id: string } }>().commit
      .id;

  /** The Ref id of a branch of gw's repository `repo` as the viewer sees it (null when they cannot). */
  const refIdOf = async (repo: string, branch: string, headers: Record<string, string>) => {
    const res = await gql<{ repository: { ref: { id: string } | null } | null }>(
      t,
      `{ repository(owner: "gw", name: "${repo}") { ref(qualifiedName: "refs/heads/${branch}") { id } } }`,
      { headers },
    );
    expect(res.errors).toBeUndefined();
    return res.data?.repository?.ref?.id ?? null;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('gw');
    await t.createUser('gwreader');
    await t.createUser('gwoutsider');
    for (const body of [
      { name: 'code', auto_init: true, default_branch: 'main' },
      { name: 'vault', auto_init: true, private: true, default_branch: 'main' },
    ]) {
      expect((await t.request('POST', '/api/v1/user/repos', { headers: basic('gw'), body })).statusCode).toBe(201);
    }
    await t.request('PUT', '/api/v1/repos/gw/code/collaborators/gwreader', { headers: basic('gw'), body: { permission: 'read' } });
    const ids = await gql<{ a: { id: string } }>(t, '{ a: repository(owner:"gw", name:"code") { id } }', {
      headers: basic('gw'),
    });
    repoId = ids.data?.a.id ?? '';
  });
  afterAll(() => t.close());

  it('createCommitOnBranch commits additions and deletions, checked against expectedHeadOid', async () => {
    const before = await head();
    const input = {
      branch: { repositoryNameWithOwner: 'gw/code', branchName: 'main' },
      message: { headline: 'graph commit', body: 'with a body' },
      fileChanges: { additions: [{ path: 'docs/new.md', contents: b64('# new\n') }], deletions: [{ path: 'README.md' }] },
      expectedHeadOid: before,
    };
    const r = await mutate('createCommitOnBranch', input, 'commit { oid message parentOids } ref { name targetOid }', basic('gw'));
    expect(r.__typename).toBe('CreateCommitOnBranchPayload');
    const commit = r.commit as { oid: string; message: string; parentOids: string[] };
    expect(commit.message).toBe('graph commit\n\nwith a body\n');
    expect(commit.parentOids).toEqual([before]);
    expect(r.ref).toEqual({ name: 'main', targetOid: commit.oid });
    const raw = await t.request('GET', '/api/v1/repos/gw/code/raw/docs/new.md', { headers: basic('gw') });
    expect(raw.body).toBe('# new\n');
    expect((await t.request('GET', '/api/v1/repos/gw/code/raw/README.md', { headers: basic('gw') })).statusCode).toBe(404);

    // GitHub's other form: the branch by its Ref id; neither form is INVALID_ARGUMENT.
    const byId = await mutate(
      'createCommitOnBranch',
      {
        branch: { id: await refIdOf('code', 'main', basic('gw')) },
        message: { headline: 'by ref id' },
        fileChanges: { additions: [{ path: 'byid.txt', contents: b64('id\n') }] },
        expectedHeadOid: commit.oid,
      },
      'commit { oid parentOids } ref { name }',
      basic('gw'),
    );
    expect(byId.ref).toEqual({ name: 'main' });
    expect((byId.commit as { parentOids: string[] }).parentOids).toEqual([commit.oid]);
    expect(
      await refused('createCommitOnBranch', { ...input, branch: { branchName: 'main' }, expectedHeadOid: await head() }, basic('gw')),
    ).toMatchObject({ code: 'INVALID_ARGUMENT' });

    const stale = await refused('createCommitOnBranch', input, basic('gw'));
    expect(stale).toMatchObject({ code: 'CONFLICT' });
    expect(await refused('createCommitOnBranch', { ...input, expectedHeadOid: await head() }, basic('gwreader'))).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(
      await refused(
        'createCommitOnBranch',
        { ...input, branch: { repositoryNameWithOwner: 'gw/vault', branchName: 'main' } },
        basic('gwoutsider'),
      ),
    ).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('createRef, updateRef (fast-forward unless force) and deleteRef move branches as pushes', async () => {
    const main = await head();
    const created = await mutate(
      'createRef',
      { repositoryId: repoId, name: 'refs/heads/topic', oid: main },
      'ref { name targetOid }',
      basic('gw'),
    );
    expect(created.ref).toEqual({ name: 'topic', targetOid: main });
    expect(await refused('createRef', { repositoryId: repoId, name: 'refs/heads/topic', oid: main }, basic('gw'))).toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    expect(await refused('createRef', { repositoryId: repoId, name: 'refs/tags/x', oid: main }, basic('gw'))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    // A commit on topic, then main is not a fast-forward of it.
    await t.request('POST', '/api/v1/repos/gw/code/contents/topic.txt', {
      headers: basic('gw'),
      body: { content: b64('t'), branch: 'topic' },
    });
    const topic = await head('topic');
    const topicRef = await refIdOf('code', 'topic', basic('gw'));
    expect(await refused('updateRef', { refId: topicRef, oid: main }, basic('gw'))).toMatchObject({
      code: 'CONFLICT',
    });
    const forced = await mutate('updateRef', { refId: topicRef, oid: main, force: true }, 'ref { targetOid }', basic('gw'));
    expect(forced.ref).toEqual({ targetOid: main });
    const ff = await mutate('updateRef', { refId: topicRef, oid: topic }, 'ref { targetOid }', basic('gw'));
    expect(ff.ref).toEqual({ targetOid: topic });
    expect(await refused('deleteRef', { refId: await refIdOf('code', 'main', basic('gw')) }, basic('gw'))).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    // A branch of a repository the viewer cannot read is NOT_FOUND, named by its id (read as its owner).
    expect(await refused('deleteRef', { refId: await refIdOf('vault', 'main', basic('gw')) }, basic('gwoutsider'))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await refIdOf('vault', 'main', basic('gwoutsider'))).toBeNull();
    expect(await mutate('deleteRef', { refId: topicRef }, 'deleted', basic('gw'))).toMatchObject({
      deleted: true,
    });
    expect((await t.request('GET', '/api/v1/repos/gw/code/branches/topic', { headers: basic('gw') })).statusCode).toBe(404);
  });

  it('Commit.history pages the history with totalCount and a path filter', async () => {
    const res = await gql<{
      repository: {
        object: { history: { totalCount: number; nodes: Array<{ messageHeadline: string }>; pageInfo: { hasNextPage: boolean } } };
      };
    }>(
      t,
      `{ repository(owner:"gw", name:"code") { object(expression:"main") { ... on Commit {
          history(first: 1) { totalCount nodes { messageHeadline } pageInfo { hasNextPage } }
          docs: history(path: "docs/new.md") { totalCount }
      } } } }`,
      { headers: basic('gw') },
    );
    expect(res.errors).toBeUndefined();
    const h = res.data?.repository.object.history;
    expect(h?.totalCount).toBe(3);
    expect(h?.nodes.map((n) => n.messageHeadline)).toEqual(['by ref id']);
    expect(h?.pageInfo.hasNextPage).toBe(true);
    expect((res.data?.repository.object as unknown as { docs: { totalCount: number } }).docs.totalCount).toBe(1);
  });
});
