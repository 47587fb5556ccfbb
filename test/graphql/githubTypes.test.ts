// GitHub's scalars (URI, GitObjectID, GitTimestamp), the Actor interface and the Node types of issue #32 part A:
// what the schema now says, and that node(id:) of each new Node type goes through its parent's read policy.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql, repoGlobalId } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

type Node = Record<string, unknown> | null;
interface Id {
  id: string;
}
/** What the setup reads of each repository: the ids of the objects the node(id:) tests look up. */
interface SetupRepo {
  databaseId: number;
  defaultBranchRef: Id;
  commit: Id & { status: Id & { contexts: Id[] }; statusCheckRollup: Id };
  languages: { nodes: Id[] };
  tree: Id;
  blob: Id | null;
  pullRequest: { commits: { nodes: Id[] } };
  issue: Id;
  repositoryTopics: { nodes: (Id & { topic: Id })[] };
}
interface Shapes {
  url: string;
  object: { oid: string; entries: { name: string; mode: number; oid: string }[] };
  pullRequest: {
    url: string;
    baseRefOid: string;
    headRefOid: string;
    commits: { nodes: { url: string; commit: { oid: string; author: { date: string } } }[] };
  };
}

describe.each(PROVIDERS)("GitHub's scalars, Actor and Node types (%s)", (provider) => {
  let t: TestApp;
  let f: PullFixture;
  const ids: Record<string, string> = {};
  let pubDbId = 0;

  const node = async (id: string, selection: string, as?: string): Promise<Node> => {
    const res = await gql<{ node: Node }>(t, `query($id: ID!) { node(id: $id) { __typename ${selection} } }`, {
      variables: { id },
      headers: as ? basic(as) : {},
    });
    expect(res.errors).toBeUndefined();
    return res.data?.node ?? null;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['gt', 'gtout']) await t.createUser(u);
    await f.createRepo('gt', 'pub');
    await f.createRepo('gt', 'priv', { private: true });
    await f.pushAndOpen('gt', 'pub', 'gt', 'topic', { 'a.txt': 'a\n' }, { title: 'Public pull' });
    await f.pushAndOpen('gt', 'priv', 'gt', 'hidden', { 'h.txt': 'h\n' }, { title: 'Private pull' });
    for (const repo of ['pub', 'priv']) {
      const issue = await t.request('POST', `/api/v1/repos/gt/${repo}/issues`, { headers: basic('gt'), body: { title: 'An issue' } });
      expect(issue.statusCode).toBe(201);
      expect(
        (await t.request('PUT', `/api/v1/repos/gt/${repo}/topics`, { headers: basic('gt'), body: { topics: ['graph'] } })).statusCode,
      ).toBe(204);
    }
    for (const repo of ['pub', 'priv']) {
      await f.push('gt', repo, 'gt', 'main', { 'main.go': 'package main\n\nfunc main() {}\n' });
      const main = (await t.request('GET', `/api/v1/repos/gt/${repo}/branches/main`, { headers: basic('gt') })).json<{
        commit: { id: string };
      }>();
      const status = await t.request('POST', `/api/v1/repos/gt/${repo}/statuses/${main.commit.id}`, {
        headers: basic('gt'),
        body: { state: 'success', context: 'ci/test' },
      });
      expect(status.statusCode).toBe(201);
    }
    for (const repo of ['pub', 'priv']) {
      const res = await gql<{ repository: SetupRepo }>(
        t,
        `{ repository(owner: "gt", name: "${repo}") {
            databaseId
            defaultBranchRef { id }
            commit: object(expression: "main") { id ... on Commit { status { id contexts { id } } statusCheckRollup { id } } }
            languages(first: 1) { nodes { id } }
            tree: object(expression: "main:") { id }
            blob: object(expression: "topic:a.txt") { id }
            pullRequest(number: 1) { commits(first: 5) { nodes { id } } }
            issue(number: 2) { id }
            repositoryTopics(first: 1) { nodes { id topic { id } } }
          } }`,
        { headers: basic('gt') },
      );
      expect(res.errors).toBeUndefined();
      const r = res.data?.repository;
      if (!r) throw new Error(`no repository gt/${repo}`);
      if (repo === 'pub') pubDbId = r.databaseId;
      ids[`${repo}.ref`] = r.defaultBranchRef.id;
      ids[`${repo}.commit`] = r.commit.id;
      ids[`${repo}.tree`] = r.tree.id;
      ids[`${repo}.pullCommit`] = r.pullRequest.commits.nodes[0]?.id ?? '';
      const reacted = await gql<{ addReaction: { reaction: { id: string } } }>(
        t,
        'mutation($i: AddReactionInput!) { addReaction(input: $i) { reaction { id } } }',
        { variables: { i: { subjectId: r.issue.id, content: 'THUMBS_UP' } }, headers: basic('gt') },
      );
      expect(reacted.errors).toBeUndefined();
      ids[`${repo}.reaction`] = reacted.data?.addReaction.reaction.id ?? '';
      ids[`${repo}.topic`] = r.repositoryTopics.nodes[0]?.id ?? '';
      ids[`${repo}.topicName`] = r.repositoryTopics.nodes[0]?.topic.id ?? '';
      ids[`${repo}.language`] = r.languages.nodes[0]?.id ?? '';
      ids[`${repo}.status`] = r.commit.status.id;
      ids[`${repo}.statusContext`] = r.commit.status.contexts[0]?.id ?? '';
      ids[`${repo}.rollup`] = r.commit.statusCheckRollup.id;
      if (r.blob) ids[`${repo}.blob`] = r.blob.id;
    }
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('oids are GitObjectIDs, GitActor.date a GitTimestamp, TreeEntry.mode an Int as GitHub gives it, urls URIs', async () => {
    const res = await gql<{ repository: Shapes }>(
      t,
      `{ repository(owner: "gt", name: "pub") {
          url
          object(expression: "main:") { oid ... on Tree { entries { name mode oid } } }
          pullRequest(number: 1) { url baseRefOid headRefOid commits(first: 5) { nodes { url commit { oid author { date } } } } }
        } }`,
    );
    expect(res.errors).toBeUndefined();
    const repo = res.data?.repository;
    if (!repo) throw new Error('no repository gt/pub');
    expect(repo.url).toMatch(/^http.*\/gt\/pub$/);
    expect(repo.object.oid).toMatch(/^[0-9a-f]{40}$/);
    const readme = repo.object.entries.find((e) => e.name === 'README.md');
    expect(readme).toMatchObject({ mode: 0o100644 });
    expect(readme?.oid).toMatch(/^[0-9a-f]{40}$/);
    const pull = repo.pullRequest;
    const commit = pull.commits.nodes[0];
    if (!commit) throw new Error('no pull request commit');
    expect(commit.url).toBe(`${pull.url}/commits/${commit.commit.oid}`);
    expect(commit.commit.author.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    expect(pull.headRefOid).toBe(commit.commit.oid);
    expect(pull.baseRefOid).toMatch(/^[0-9a-f]{40}$/);
  });

  it('baseRefOid and headRefOid stay non-null once both branches are deleted (the merge base, the pull head)', async () => {
    await f.pushAndOpen('gt', 'pub', 'gt', 'gone-head', { 'g.txt': 'g\n' }, { title: 'Base goes' });
    const before = await gql<{ repository: { pullRequests: { nodes: { number: number; baseRefOid: string; headRefOid: string }[] } } }>(
      t,
      '{ repository(owner: "gt", name: "pub") { pullRequests(first: 1, headRefName: "gone-head") { nodes { number baseRefOid headRefOid } } } }',
    );
    const pr = before.data?.repository.pullRequests.nodes[0];
    expect(pr?.baseRefOid).toMatch(/^[0-9a-f]{40}$/);
    await f.deleteBranch('gt', 'pub', 'gt', 'gone-head');
    // A base branch of its own, pushed, used and deleted.
    await f.push('gt', 'pub', 'gt', 'gone-base', { 'b.txt': 'b\n' });
    await f.push('gt', 'pub', 'gt', 'on-base', { 'c.txt': 'c\n' }, { from: 'gone-base' });
    const { json } = await f.open('gt', 'pub', 'gt', { head: 'on-base', base: 'gone-base', title: 'On a base that goes' });
    const baseTip = (await t.request('GET', '/api/v1/repos/gt/pub/branches/gone-base', { headers: basic('gt') })).json<{
      commit: { id: string };
    }>().commit.id;
    await f.deleteBranch('gt', 'pub', 'gt', 'gone-base');
    const after = await gql<{ repository: Record<string, { baseRefOid: string; headRefOid: string }> }>(
      t,
      `{ repository(owner: "gt", name: "pub") {
          a: pullRequest(number: ${pr?.number ?? 0}) { baseRefOid headRefOid }
          b: pullRequest(number: ${json.number as number}) { baseRefOid headRefOid }
        } }`,
    );
    expect(after.errors).toBeUndefined();
    expect(after.data?.repository.a).toEqual({ baseRefOid: pr?.baseRefOid, headRefOid: pr?.headRefOid });
    expect(after.data?.repository.b?.baseRefOid).toBe(baseTip);
  });

  it('GitObjectID, URI and Base64String inputs are validated with a clear error', async () => {
    const repoId = encodeGlobalID('Repository', pubDbId);
    const bad = await gql(t, 'mutation($i: CreateRefInput!) { createRef(input: $i) { ref { name } } }', {
      variables: { i: { repositoryId: repoId, name: 'refs/heads/x', oid: 'main' } },
      headers: basic('gt'),
    });
    expect(bad.errors?.[0]?.message).toContain('GitObjectID must be a full hex object id (40 or 64 hex digits), got "main"');
    const url = await gql(t, 'mutation($i: UpdateRepositoryInput!) { updateRepository(input: $i) { repository { homepageUrl } } }', {
      variables: { i: { repositoryId: await repoGlobalId(t, 'gt', 'pub'), homepageUrl: 'not a url' } },
      headers: basic('gt'),
    });
    expect(url.errors?.[0]?.message).toContain('URI must be an absolute URI string, got "not a url"');
    const contents = await gql(t, 'mutation($i: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $i) { commit { oid } } }', {
      variables: {
        i: {
          branch: { repositoryNameWithOwner: 'gt/pub', branchName: 'main' },
          message: { headline: 'bad' },
          fileChanges: { additions: [{ path: 'x.txt', contents: 'not base64!' }] },
          expectedHeadOid: '0'.repeat(40),
        },
      },
      headers: basic('gt'),
    });
    expect(contents.errors?.[0]?.message).toContain('Base64String must be padded base64 (RFC 4648)');
    const good = await gql<{ updateRepository: { repository: { homepageUrl: string } } }>(
      t,
      'mutation($i: UpdateRepositoryInput!) { updateRepository(input: $i) { repository { homepageUrl } } }',
      {
        variables: { i: { repositoryId: await repoGlobalId(t, 'gt', 'pub'), homepageUrl: 'https://example.com/home' } },
        headers: basic('gt'),
      },
    );
    expect(good.errors).toBeUndefined();
    expect(good.data?.updateRepository.repository.homepageUrl).toBe('https://example.com/home');
  });

  it('authors are Actors (User here) with avatarUrl(size:), resourcePath and url; a bad size is refused', async () => {
    const res = await gql<{ repository: { issue: { author: Record<string, string> } } }>(
      t,
      `{ repository(owner: "gt", name: "pub") { issue(number: 2) { author {
          __typename login resourcePath url avatarUrl small: avatarUrl(size: 40) ... on User { databaseId }
        } } } }`,
    );
    expect(res.errors).toBeUndefined();
    const author = res.data?.repository.issue.author ?? {};
    expect(author).toMatchObject({ __typename: 'User', login: 'gt', resourcePath: '/gt' });
    expect(author.url).toMatch(/^http.*\/gt$/);
    expect(author.small).toBe(`${author.avatarUrl}?size=40`);
    const svg = await t.request('GET', new URL(author.small ?? '').pathname + '?size=40');
    expect(svg.body).toContain('width="40" height="40"');
    const bad = await gql(t, '{ user(login: "gt") { avatarUrl(size: 0) } }');
    expect(errorCodes(bad)).toEqual(['INVALID_ARGUMENT']);
  });

  it('git objects, refs, pull request commits, reactions and topics resolve through node(id:) for readers only', async () => {
    const kinds: [string, string, string][] = [
      ['ref', 'Ref', '... on Ref { name }'],
      ['commit', 'Commit', '... on Commit { oid messageHeadline }'],
      ['tree', 'Tree', '... on Tree { oid entries { name } }'],
      ['pullCommit', 'PullRequestCommit', '... on PullRequestCommit { commit { oid } }'],
      ['reaction', 'Reaction', '... on Reaction { content }'],
      ['topic', 'RepositoryTopic', '... on RepositoryTopic { topic { name } }'],
      ['status', 'Status', '... on Status { state }'],
      ['statusContext', 'StatusContext', '... on StatusContext { context state }'],
      ['rollup', 'StatusCheckRollup', '... on StatusCheckRollup { state }'],
    ];
    for (const [key, typename, selection] of kinds) {
      const pub = ids[`pub.${key}`] ?? '';
      const priv = ids[`priv.${key}`] ?? '';
      expect(await node(pub, selection), key).toMatchObject({ __typename: typename });
      expect(await node(priv, selection, 'gt'), key).toMatchObject({ __typename: typename });
      expect(await node(priv, selection, 'gtout'), key).toBeNull();
      expect(await node(priv, selection), key).toBeNull();
    }
    expect(await node(ids['pub.blob'] ?? '', '... on Blob { text }')).toEqual({ __typename: 'Blob', text: 'a\n' });
    // Topics are public (as Gitea's topic search); a language is known through a readable repository's code.
    expect(await node(ids['priv.topicName'] ?? '', '... on Topic { name }', 'gtout')).toEqual({ __typename: 'Topic', name: 'graph' });
    expect(await node(ids['pub.language'] ?? '', '... on Language { name }')).toMatchObject({ __typename: 'Language' });
    expect(await node(encodeGlobalID('Language', 'NoSuchLanguage'), 'id')).toBeNull();
  });

  it("a title event's subject is the issue, or the pull request when the issue is one (RenamedTitleSubject)", async () => {
    for (const n of [1, 2]) {
      const res = await t.request('PATCH', `/api/v1/repos/gt/pub/issues/${n}`, { headers: basic('gt'), body: { title: `Renamed ${n}` } });
      expect(res.statusCode).toBe(201);
    }
    const items = (kind: string) =>
      `timelineItems(first: 20, itemTypes: [RENAMED_TITLE_EVENT]) { nodes { ... on RenamedTitleEvent { currentTitle subject { __typename ... on ${kind} { number title } } } } }`;
    const res = await gql<{ repository: Record<string, { timelineItems: { nodes: unknown[] } }> }>(
      t,
      `{ repository(owner: "gt", name: "pub") { pullRequest(number: 1) { ${items('PullRequest')} } issue(number: 2) { ${items('Issue')} } } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.repository.pullRequest?.timelineItems.nodes).toEqual([
      { currentTitle: 'Renamed 1', subject: { __typename: 'PullRequest', number: 1, title: 'Renamed 1' } },
    ]);
    expect(res.data?.repository.issue?.timelineItems.nodes).toEqual([
      { currentTitle: 'Renamed 2', subject: { __typename: 'Issue', number: 2, title: 'Renamed 2' } },
    ]);
  });

  it('a git object id names one full oid of one kind: another kind, a revision or a foreign commit is null', async () => {
    const commit = (await node(ids['pub.commit'] ?? '', '... on Commit { oid treeOid }')) as { oid: string; treeOid: string };
    expect(await node(encodeGlobalID('Commit', `${pubDbId}:${commit.treeOid}`), 'id')).toBeNull();
    expect(await node(encodeGlobalID('Tree', `${pubDbId}:${commit.treeOid}`), 'id')).toMatchObject({ __typename: 'Tree' });
    expect(await node(encodeGlobalID('Commit', `${pubDbId}:main`), 'id')).toBeNull();
    // The base branch's commit is not one of the pull request's commits.
    const pullDbId = JSON.parse(
      Buffer.from(ids['pub.pullCommit'] ?? '', 'base64')
        .toString()
        .split(':')[1] ?? '0',
    ) as number;
    expect(await node(encodeGlobalID('PullRequestCommit', `${pullDbId}:${commit.oid}`), 'id')).toBeNull();
  });
});
