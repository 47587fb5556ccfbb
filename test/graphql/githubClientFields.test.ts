// Fields GitHub's clients select that the graph lacked (issue #32): `gh repo view` selects `owner { id }`,
// `gh label list` passes `labels(query:, orderBy:)`, `gh pr list` selects `headRepositoryOwner`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoLabel } from '../helpers/fixtures.ts';
import { gql } from '../helpers/graphql.ts';
import { createOrgAs } from '../helpers/org.ts';
import { PullFixture } from '../helpers/pull.ts';

describe.each(PROVIDERS)("fields GitHub's clients select (%s)", (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let fromFork: number;
  let sameRepo: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    const alice = await t.createUser('alice');
    await t.createUser('bob');
    await createOrgAs(t, alice, 'acme');
    await f.createRepo('alice', 'app');
    await f.createRepo('acme', 'tool', { as: 'alice', org: true });
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'app' } });
    for (const name of ['bug', 'debug-only', 'feature', 'docs']) await createRepoLabel(t, repo, { name, color: 'ee0701' });
    sameRepo = await f.pushAndOpen('alice', 'app', 'alice', 'topic', { 'a.txt': 'a\n' });
    await f.fork('alice', 'app', 'bob');
    await f.push('bob', 'app', 'bob', 'fix', { 'b.txt': 'b\n' });
    const { json } = await f.open('alice', 'app', 'bob', { head: 'bob:fix', base: 'main' });
    fromFork = json.number as number;
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('RepositoryOwner.id is the owner’s node id, for users and organizations', async () => {
    const res = await gql<{
      a: { owner: { id: string; login: string } };
      b: { owner: { id: string } };
      u: { id: string };
      o: { id: string };
    }>(
      t,
      `{ a: repository(owner: "alice", name: "app") { owner { id login } }
         b: repository(owner: "acme", name: "tool") { owner { id } }
         u: user(login: "alice") { id } o: organization(login: "acme") { id } }`,
      { headers: basic('alice') },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.a.owner).toEqual({ id: res.data?.u.id, login: 'alice' });
    expect(res.data?.b.owner.id).toBe(res.data?.o.id);
    const node = await gql<{ node: { login: string } }>(t, `{ node(id: "${res.data?.b.owner.id}") { ... on Organization { login } } }`, {
      headers: basic('alice'),
    });
    expect(node.data?.node.login).toBe('acme');
  });

  it('Repository.labels filters by query and orders as asked (GitHub’s default: creation, ascending)', async () => {
    const res = await gql<{ repository: { all: { nodes: { name: string }[] }; bug: { nodes: { name: string }[]; totalCount: number } } }>(
      t,
      `{ repository(owner: "alice", name: "app") {
           all: labels(first: 10) { nodes { name } }
           bug: labels(first: 10, query: "BUG", orderBy: { field: NAME, direction: DESC }) { nodes { name } totalCount } } }`,
      { headers: basic('alice') },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.repository.all.nodes.map((l) => l.name)).toEqual(['bug', 'debug-only', 'feature', 'docs']);
    expect(res.data?.repository.bug).toEqual({ nodes: [{ name: 'debug-only' }, { name: 'bug' }], totalCount: 2 });
  });

  it('PullRequest.headRepositoryOwner is the head repository’s owner, null once it is gone', async () => {
    const query = `{ repository(owner: "alice", name: "app") {
        same: pullRequest(number: ${sameRepo}) { headRepositoryOwner { login } }
        fork: pullRequest(number: ${fromFork}) { headRepositoryOwner { __typename login } } } }`;
    const before = await gql<{
      repository: { same: { headRepositoryOwner: { login: string } }; fork: { headRepositoryOwner: { login: string } | null } };
    }>(t, query, { headers: basic('alice') });
    expect(before.errors).toBeUndefined();
    expect(before.data?.repository.same.headRepositoryOwner.login).toBe('alice');
    expect(before.data?.repository.fork.headRepositoryOwner).toEqual({ __typename: 'User', login: 'bob' });
    const gone = await t.request('DELETE', '/api/v1/repos/bob/app', { headers: basic('bob') });
    expect(gone.statusCode).toBe(204);
    const after = await gql<{ repository: { fork: { headRepositoryOwner: unknown } } }>(t, query, { headers: basic('alice') });
    expect(after.data?.repository.fork.headRepositoryOwner).toBeNull();
  });
});
