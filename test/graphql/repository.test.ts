import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { addCollaborator, createRepo, createRepoLabel } from '../helpers/fixtures.ts';
import { mutationError, gql as rawGql, repoGlobalId } from '../helpers/graphql.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';

/** Runs an operation that must succeed and returns its data. */
async function gql<T>(t: TestApp, query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<T> {
  const res = await rawGql<T>(t, query, { variables, headers });
  expect(res.errors).toBeUndefined();
  return res.data as T;
}

describe.each(PROVIDERS)('GraphQL repositories (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let outsider: Models.User;
  let org: Models.User;

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('owner');
    outsider = await t.createUser('outsider');
    org = await createOrgAs(t, owner, 'acme');
    // auto_init: the default branch `main` exists.
    const pub = await createRepo(t, owner, 'public-repo', { org, autoInit: true, defaultBranch: 'main' });
    await createRepo(t, owner, 'secret-repo', { org, private: true });
    await createRepoLabel(t, pub, { name: 'bug', color: 'ee0701' });
    await addCollaborator(t, pub, outsider, 'write');
  });
  afterAll(() => t.close());

  it('repository(owner:, name:) answers the visible repository with viewer fields', async () => {
    const data = await gql<{
      repository: {
        nameWithOwner: string;
        viewerPermission: string | null;
        defaultBranchRef: { name: string } | null;
        labels: { totalCount: number };
        collaborators: { edges: { permission: string; node: { login: string } }[] };
      } | null;
    }>(
      t,
      '{ repository(owner: "acme", name: "public-repo") { nameWithOwner viewerPermission defaultBranchRef { name } labels(first: 5) { totalCount } collaborators(first: 5) { edges { permission node { login } } } } }',
      {},
      basic('outsider'),
    );
    expect(data.repository?.nameWithOwner).toBe('acme/public-repo');
    expect(data.repository?.viewerPermission).toBe('WRITE');
    expect(data.repository?.defaultBranchRef?.name).toBe('main');
    expect(data.repository?.labels.totalCount).toBe(1);
    expect(data.repository?.collaborators.edges).toEqual([{ permission: 'WRITE', node: { login: 'outsider' } }]);
  });

  it("collaborators takes GitHub's affiliation, login and query, filtered in SQL with a matching totalCount", async () => {
    const guild = await createOrgAs(t, owner, 'guild');
    const repo = await createRepo(t, owner, 'collab-repo', { org: guild, private: true });
    const insider = await t.createUser('insider', { fullName: 'Ina Sider' });
    await addMember(t, guild, insider);
    await addCollaborator(t, repo, insider, 'read');
    await addCollaborator(t, repo, await t.createUser('visitor', { fullName: 'Vic Itor' }), 'admin');
    type Out = { repository: { collaborators: { totalCount: number; edges: { permission: string; node: { login: string } }[] } } };
    const list = async (args: string) =>
      (
        await gql<Out>(
          t,
          `{ repository(owner: "guild", name: "collab-repo") { collaborators(first: 1${args}) { totalCount edges { permission node { login } } } } }`,
          {},
          basic('owner'),
        )
      ).repository.collaborators;
    const row = (login: string, permission: string) => ({ permission, node: { login } });
    expect(await list('')).toEqual({ totalCount: 2, edges: [row('insider', 'READ')] });
    expect(await list(', affiliation: ALL')).toEqual({ totalCount: 2, edges: [row('insider', 'READ')] });
    expect(await list(', affiliation: DIRECT')).toEqual({ totalCount: 2, edges: [row('insider', 'READ')] });
    // OUTSIDE leaves out members of the owning organization.
    expect(await list(', affiliation: OUTSIDE')).toEqual({ totalCount: 1, edges: [row('visitor', 'ADMIN')] });
    expect(await list(', affiliation: OUTSIDE, login: "insider"')).toEqual({ totalCount: 0, edges: [] });
    expect(await list(', login: "Visitor"')).toEqual({ totalCount: 1, edges: [row('visitor', 'ADMIN')] });
    expect(await list(', login: "visit"')).toEqual({ totalCount: 0, edges: [] });
    // query: a substring of the login or of the full name, any case.
    expect(await list(', query: "SIDER"')).toEqual({ totalCount: 1, edges: [row('insider', 'READ')] });
    expect(await list(', query: "itor"')).toEqual({ totalCount: 1, edges: [row('visitor', 'ADMIN')] });
    expect(await list(', query: "i", affiliation: OUTSIDE')).toEqual({ totalCount: 1, edges: [row('visitor', 'ADMIN')] });
    // Paging OUTSIDE pages past the first.
    const page2 = await gql<{ repository: { collaborators: { pageInfo: { hasNextPage: boolean }; nodes: { login: string }[] } } }>(
      t,
      '{ repository(owner: "guild", name: "collab-repo") { collaborators(first: 5, affiliation: OUTSIDE) { pageInfo { hasNextPage } nodes { login } } } }',
      {},
      basic('owner'),
    );
    expect(page2.repository.collaborators).toEqual({ pageInfo: { hasNextPage: false }, nodes: [{ login: 'visitor' }] });
  });

  it('a private repository is simply absent for outsiders, on every path', async () => {
    const q =
      '{ repository(owner: "acme", name: "secret-repo") { id } organization(login: "acme") { repositories(first: 10) { totalCount nodes { name } } } }';
    const asOutsider = await gql<{
      repository: { id: string } | null;
      organization: { repositories: { totalCount: number; nodes: { name: string }[] } };
    }>(t, q, {}, basic('outsider'));
    expect(asOutsider.repository).toBeNull();
    expect(asOutsider.organization.repositories.nodes.map((r) => r.name)).toEqual(['public-repo']);
    expect(asOutsider.organization.repositories.totalCount).toBe(1);
    const asOwner = await gql<{ repository: { id: string } | null; organization: { repositories: { totalCount: number } } }>(
      t,
      q,
      {},
      basic('owner'),
    );
    expect(asOwner.repository).not.toBeNull();
    expect(asOwner.organization.repositories.totalCount).toBe(2);
    const node = await gql<{ node: { name: string } | null }>(
      t,
      'query($id: ID!) { node(id: $id) { ... on Repository { name } } }',
      { id: asOwner.repository?.id },
      basic('outsider'),
    );
    expect(node.node).toBeNull();
  });

  it('deployKeys are for repository admins only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deploykey-'));
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'deploy', '-f', path.join(dir, 'k')]);
    const pub = readFileSync(path.join(dir, 'k.pub'), 'utf8').trim();
    rmSync(dir, { recursive: true, force: true });
    const added = await t.request('POST', '/api/v1/repos/acme/public-repo/keys', {
      headers: basic('owner'),
      body: { title: 'deploy', key: pub },
    });
    expect(added.statusCode, added.body).toBe(201);
    const q = '{ repository(owner: "acme", name: "public-repo") { deployKeys(first: 5) { totalCount nodes { title } } } }';
    // GitHub's DeployKeyConnection! is never null: everyone but an admin gets none.
    expect((await gql<{ repository: { deployKeys: unknown } }>(t, q, {}, basic('outsider'))).repository.deployKeys).toEqual({
      totalCount: 0,
      nodes: [],
    });
    expect((await gql<{ repository: { deployKeys: unknown } }>(t, q, {}, basic('owner'))).repository.deployKeys).toEqual({
      totalCount: 1,
      nodes: [{ title: 'deploy' }],
    });
    // A DeployKey is a Node: node(id:) answers it to the repository's admins and to no one else.
    const idQuery = '{ repository(owner: "acme", name: "public-repo") { deployKeys(first: 1) { nodes { id } } } }';
    type Ids = { repository: { deployKeys: { nodes: { id: string }[] } } };
    const id = (await gql<Ids>(t, idQuery, {}, basic('owner'))).repository.deployKeys.nodes[0]!.id;
    const byNode = `query($id: ID!) { node(id: $id) { __typename ... on DeployKey { id title readOnly } } }`;
    expect((await gql<{ node: unknown }>(t, byNode, { id }, basic('owner'))).node).toEqual({
      __typename: 'DeployKey',
      id,
      title: 'deploy',
      readOnly: false,
    });
    expect((await gql<{ node: unknown }>(t, byNode, { id }, basic('outsider'))).node).toBeNull();
    expect((await gql<{ node: unknown }>(t, byNode, { id }, {})).node).toBeNull();
  });

  it('organization { repositories { owner labels collaborators } } costs the same SQL statements for 2 and for 12 repositories', async () => {
    const q =
      '{ organization(login: "counting") { repositories(first: 50) { totalCount nodes { name owner { login } labels(first: 10) { nodes { name } } collaborators(first: 10) { edges { permission node { login } } } } } } }';
    const countingOrg = await createOrgAs(t, owner, 'counting');
    const member = await t.createUser('member-counting');
    await addMember(t, countingOrg, member);
    const grow = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const r = await createRepo(t, owner, `r${i}`, { org: countingOrg, private: i % 2 === 1 });
        await createRepoLabel(t, r, { name: 'bug', color: 'ee0701' });
        await createRepoLabel(t, r, { name: 'feature', color: '00ff00' });
        await addCollaborator(t, r, outsider, 'read');
      }
    };
    const measure = async () => {
      await t.app.deps.notifier.drain(); // nothing may run in the background while counting
      t.queries.length = 0;
      const data = await gql<{ organization: { repositories: { totalCount: number } } }>(t, q, {}, basic('member-counting'));
      return { statements: t.queries.length, total: data.organization.repositories.totalCount };
    };
    await grow(0, 2);
    const small = await measure();
    await grow(2, 12);
    const large = await measure();
    expect(small.total).toBe(1); // the member sees public repositories only (no team grants): r0
    expect(large.total).toBe(6);
    expect(large.statements).toBe(small.statements);
  });
});

describe.each(PROVIDERS)('GraphQL repository mutations (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
  });
  afterAll(() => t.close());

  it('createRepository → updateRepository → addCollaborator → deleteRepository, through the REST services', async () => {
    const created = await rawGql<{
      createRepository: {
        repository: { nameWithOwner: string; isEmpty: boolean; defaultBranchRef: { name: string } | null };
      } | null;
    }>(
      t,
      'mutation { createRepository(input: { name: "graph", autoInit: true, description: "via GraphQL" }) { repository { nameWithOwner isEmpty defaultBranchRef { name } } } }',
      { headers: basic('alice') },
    );
    expect(mutationError(created, 'createRepository')).toBeNull();
    expect(created.data?.createRepository?.repository).toEqual({
      nameWithOwner: 'alice/graph',
      isEmpty: false,
      defaultBranchRef: { name: 'main' },
    });
    const rest = await t.request('GET', '/api/v1/repos/alice/graph', { headers: basic('alice') });
    expect(rest.json().description).toBe('via GraphQL');

    const graphId = await repoGlobalId(t, 'alice', 'graph');
    const updated = await rawGql<{ updateRepository: { repository: { isPrivate: boolean; squashMergeAllowed: boolean } } | null }>(
      t,
      `mutation { updateRepository(input: { repositoryId: "${graphId}", isPrivate: true, squashMergeAllowed: false }) { repository { isPrivate squashMergeAllowed } } }`,
      { headers: basic('alice') },
    );
    expect(mutationError(updated, 'updateRepository')).toBeNull();
    expect(updated.data?.updateRepository?.repository).toEqual({ isPrivate: true, squashMergeAllowed: false });
    expect((await t.request('GET', '/api/v1/repos/alice/graph', { headers: basic('bob') })).statusCode).toBe(404);

    const denied = await rawGql<{ updateRepository: { __typename: string } | null }>(
      t,
      `mutation { updateRepository(input: { repositoryId: "${graphId}", description: "x" }) { __typename } }`,
      { headers: basic('bob') },
    );
    expect(mutationError(denied, 'updateRepository')?.code).toBe('NOT_FOUND');

    const added = await rawGql<{
      addCollaborator: { repository: { collaborators: { edges: { permission: string; node: { login: string } }[] } } } | null;
    }>(
      t,
      'mutation { addCollaborator(input: { owner: "alice", name: "graph", login: "bob", permission: READ }) { repository { collaborators(first: 5) { edges { permission node { login } } } } } }',
      { headers: basic('alice') },
    );
    expect(mutationError(added, 'addCollaborator')).toBeNull();
    expect(added.data?.addCollaborator?.repository.collaborators.edges).toEqual([{ permission: 'READ', node: { login: 'bob' } }]);
    expect((await t.request('GET', '/api/v1/repos/alice/graph', { headers: basic('bob') })).statusCode).toBe(200);

    const deleted = await rawGql<{ deleteRepository: { deletedNameWithOwner: string } | null }>(
      t,
      'mutation { deleteRepository(input: { owner: "alice", name: "graph" }) { deletedNameWithOwner } }',
      { headers: basic('alice') },
    );
    expect(mutationError(deleted, 'deleteRepository')).toBeNull();
    expect(deleted.data?.deleteRepository?.deletedNameWithOwner).toBe('alice/graph');
    expect((await t.request('GET', '/api/v1/repos/alice/graph', { headers: basic('alice') })).statusCode).toBe(404);
  });

  it('createRepository reports a duplicate name as a typed error', async () => {
    await t.request('POST', '/api/v1/user/repos', { headers: basic('bob'), body: { name: 'dup' } });
    const res = await rawGql<{ createRepository: { __typename: string } | null }>(
      t,
      'mutation { createRepository(input: { name: "dup" }) { __typename } }',
      { headers: basic('bob') },
    );
    expect(mutationError(res, 'createRepository')?.code).toBe('ALREADY_EXISTS');
  });
});

describe.each(PROVIDERS)('GraphQL git objects (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('carol');
    await t.createUser('dave');
    expect(
      (
        await t.request('POST', '/api/v1/user/repos', {
          headers: basic('carol'),
          body: { name: 'code', auto_init: true, description: 'hello', license: 'MIT' },
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('carol'), body: { name: 'hush', auto_init: true, private: true } }))
        .statusCode,
    ).toBe(201);
  });
  afterAll(() => t.close());

  it('object(expression:) reads commits, trees and blobs through the git layer', async () => {
    const data = await gql<{
      repository: {
        head: { __typename: string; oid: string; messageHeadline: string; treeOid: string };
        root: { entries: { name: string; type: string }[] };
        readme: { text: string; byteSize: number; isBinary: boolean };
        missing: null;
      };
    }>(
      t,
      `{ repository(owner: "carol", name: "code") {
          head: object(expression: "main") { __typename oid ... on Commit { messageHeadline treeOid } }
          root: object(expression: "main:") { ... on Tree { entries { name type } } }
          readme: object(expression: "main:README.md") { ... on Blob { text byteSize isBinary } }
          missing: object(expression: "main:nope.txt") { oid }
        } }`,
      {},
      basic('carol'),
    );
    expect(data.repository.head.__typename).toBe('Commit');
    expect(data.repository.head.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(data.repository.head.messageHeadline).toBe('Initial commit');
    expect(data.repository.root.entries.map((e) => e.name).sort()).toEqual(['LICENSE', 'README.md']);
    expect(data.repository.readme.text).toBe('# code\n\nhello\n');
    expect(data.repository.readme.byteSize).toBe(Buffer.byteLength('# code\n\nhello\n'));
    expect(data.repository.readme.isBinary).toBe(false);
    expect(data.repository.missing).toBeNull();
  });

  it('a private repository’s objects are unreachable for outsiders', async () => {
    const res = await gql<{ repository: null }>(
      t,
      '{ repository(owner: "carol", name: "hush") { object(expression: "main") { oid } } }',
      {},
      basic('dave'),
    );
    expect(res.repository).toBeNull();
  });
});

describe.each(PROVIDERS)('GraphQL repository labels (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('erin');
    await t.createUser('frank');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: basic('erin'), body: { name: 'tracker' } })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('createLabel, updateLabel and deleteLabel work on repository labels with the REST rules', async () => {
    const created = await rawGql<{ createLabel: { label: { id: string; name: string; color: string } } | null }>(
      t,
      'mutation { createLabel(input: { repositoryOwner: "erin", repositoryName: "tracker", name: "bug", color: "#EE0701" }) { label { id name color } } }',
      { headers: basic('erin') },
    );
    expect(mutationError(created, 'createLabel')).toBeNull();
    const label = created.data?.createLabel?.label;
    expect(label).toMatchObject({ name: 'bug', color: 'ee0701' });
    // GitHub's form: the repository by its global id (frank may not write its labels).
    const byId = `mutation($id: ID!) { createLabel(input: { repositoryId: $id, name: "docs", color: "0000ff" }) { label { name color } } }`;
    const variables = { id: await repoGlobalId(t, 'erin', 'tracker') };
    const viaId = await rawGql<{ createLabel: { label: { name: string; color: string } } | null }>(t, byId, {
      headers: basic('erin'),
      variables,
    });
    expect(viaId.data?.createLabel?.label).toEqual({ name: 'docs', color: '0000ff' });
    const frankId = await rawGql<{ createLabel: unknown }>(t, byId, { headers: basic('frank'), variables });
    expect(mutationError(frankId, 'createLabel')?.code).toBe('PERMISSION_DENIED');
    const rest = await t.request('GET', '/api/v1/repos/erin/tracker/labels');
    expect(rest.json().map((l: { name: string }) => l.name)).toEqual(['bug', 'docs']);

    const denied = await rawGql<{ updateLabel: { __typename: string } | null }>(
      t,
      `mutation { updateLabel(input: { id: "${label?.id}", name: "x" }) { __typename } }`,
      { headers: basic('frank') },
    );
    expect(mutationError(denied, 'updateLabel')?.code).toBe('PERMISSION_DENIED');

    const renamed = await rawGql<{ updateLabel: { label: { name: string } } | null }>(
      t,
      `mutation { updateLabel(input: { id: "${label?.id}", name: "defect" }) { label { name } } }`,
      { headers: basic('erin') },
    );
    expect(mutationError(renamed, 'updateLabel')).toBeNull();
    expect(renamed.data?.updateLabel?.label.name).toBe('defect');

    await rawGql(t, `mutation { deleteLabel(input: { id: "${label?.id}" }) { __typename } }`, { headers: basic('erin') });
    expect((await t.request('GET', '/api/v1/repos/erin/tracker/labels')).json().map((l: { name: string }) => l.name)).toEqual(['docs']);
  });
});
