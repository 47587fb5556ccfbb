import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';

// GitHub's Repository.refs(refPrefix, query, orderBy, direction), Ref nodes for branches and tags, and Query as a Node.

interface RefNode {
  id: string;
  name: string;
  prefix: string;
  targetOid: string;
  target: { __typename: string; oid: string } | null;
}
interface RefPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
  nodes: RefNode[];
}

const REF_FIELDS = 'id name prefix targetOid target { __typename oid }';
const QUERY_ID = 'MDU6UXVlcnk=';

describe.each(PROVIDERS)('GraphQL Repository.refs (%s)', (provider) => {
  let t: TestApp;
  const commits: Record<string, string> = {};
  let mainHead = '';

  /** A commit on main of rfowner/<repo> with the given committer date; its sha. */
  async function commitOn(repo: string, file: string, date: string): Promise<string> {
    const res = await t.request('POST', `/api/v1/repos/rfowner/${repo}/contents/${file}`, {
      headers: basic('rfowner'),
      body: {
        content: Buffer.from(`${file}\n`).toString('base64'),
        message: `add ${file}`,
        branch: 'main',
        dates: { author: date, committer: date },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { commit: { sha: string } }).commit.sha;
  }

  async function post(url: string, body: Record<string, unknown>): Promise<void> {
    const res = await t.request('POST', `/api/v1/repos/rfowner/${url}`, { headers: basic('rfowner'), body });
    expect(res.statusCode, res.body).toBe(201);
  }

  async function refs(args: string, login = 'rfowner', repo = 'app'): Promise<RefPage | null> {
    const res = await gql<{ repository: { refs: RefPage | null } | null }>(
      t,
      `{ repository(owner: "rfowner", name: "${repo}") { refs(${args}) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } nodes { ${REF_FIELDS} } } } }`,
      { headers: basic(login) },
    );
    expect(res.errors).toBeUndefined();
    return res.data?.repository?.refs ?? null;
  }

  const names = (page: RefPage | null) => page?.nodes.map((n) => n.name);

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('rfowner');
    await t.createUser('rfoutsider');
    for (const body of [
      { name: 'app', auto_init: true },
      { name: 'vault', auto_init: true, private: true },
      { name: 'counted', auto_init: true },
    ]) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('rfowner'), body });
      expect(res.statusCode, res.body).toBe(201);
    }
    // Commit dates out of name order: zeta's commit is the oldest, v2.0's the newest.
    commits.v1 = await commitOn('app', 'one.txt', '2021-01-01T00:00:00Z');
    commits.v2 = await commitOn('app', 'two.txt', '2022-01-01T00:00:00Z');
    commits.zeta = await commitOn('app', 'three.txt', '2020-06-01T00:00:00Z');
    mainHead = commits.zeta;
    await post('app/tags', { tag_name: 'v1.0', target: commits.v1 });
    await post('app/tags', { tag_name: 'v2.0', target: commits.v2, message: 'release two' });
    await post('app/tags', { tag_name: 'zeta', target: commits.zeta });
    for (const name of ['fix-1', 'feature/x']) await post('app/branches', { new_branch_name: name, old_branch_name: 'main' });
    await post('vault/tags', { tag_name: 'secret-1', target: 'main' });
    await t.app.deps.notifier.drain();
  });
  afterAll(() => t.close());

  it('refPrefix refs/heads/ lists the branches by name, as Ref nodes pointing at their commits', async () => {
    const page = await refs('refPrefix: "refs/heads/", first: 10');
    expect(page?.totalCount).toBe(3);
    expect(names(page)).toEqual(['feature/x', 'fix-1', 'main']);
    const main = page?.nodes.find((n) => n.name === 'main');
    expect(main).toMatchObject({ prefix: 'refs/heads/', targetOid: mainHead, target: { __typename: 'Commit', oid: mainHead } });
  });

  it('refPrefix refs/tags/ lists the tags: a lightweight tag targets its Commit, an annotated one its Tag object', async () => {
    const page = await refs('refPrefix: "refs/tags/", first: 10');
    expect(page?.totalCount).toBe(3);
    expect(names(page)).toEqual(['v1.0', 'v2.0', 'zeta']);
    const [v1, v2] = page?.nodes ?? [];
    expect(v1).toMatchObject({ prefix: 'refs/tags/', targetOid: commits.v1, target: { __typename: 'Commit', oid: commits.v1 } });
    expect(v2).toMatchObject({ prefix: 'refs/tags/', targetOid: commits.v2, target: { __typename: 'Tag' } });
    expect(v2?.target?.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(v2?.target?.oid).not.toBe(commits.v2);
  });

  it('another prefix answers an empty connection', async () => {
    for (const prefix of ['refs/pull/', 'refs/', 'heads']) {
      expect(await refs(`refPrefix: "${prefix}", first: 10`)).toEqual({
        totalCount: 0,
        pageInfo: { hasNextPage: false, hasPreviousPage: false, endCursor: null },
        nodes: [],
      });
    }
  });

  it('query keeps the refs whose name contains it, whatever the case; totalCount counts what it keeps', async () => {
    expect(names(await refs('refPrefix: "refs/heads/", query: "FI", first: 10'))).toEqual(['fix-1']);
    expect(names(await refs('refPrefix: "refs/heads/", query: "x", first: 10'))).toEqual(['feature/x', 'fix-1']);
    const tags = await refs('refPrefix: "refs/tags/", query: "v", first: 10');
    expect([tags?.totalCount, names(tags)]).toEqual([2, ['v1.0', 'v2.0']]);
    expect((await refs('refPrefix: "refs/tags/", query: "nothing", first: 10'))?.totalCount).toBe(0);
  });

  it('orderBy orders by name or by the commit date, both ways; the deprecated direction orders by name', async () => {
    const tags = (order: string) => refs(`refPrefix: "refs/tags/", first: 10, ${order}`).then(names);
    expect(await tags('orderBy: { field: TAG_COMMIT_DATE, direction: ASC }')).toEqual(['zeta', 'v1.0', 'v2.0']);
    expect(await tags('orderBy: { field: TAG_COMMIT_DATE, direction: DESC }')).toEqual(['v2.0', 'v1.0', 'zeta']);
    expect(await tags('orderBy: { field: ALPHABETICAL, direction: DESC }')).toEqual(['zeta', 'v2.0', 'v1.0']);
    expect(await tags('orderBy: { field: ALPHABETICAL, direction: ASC }')).toEqual(['v1.0', 'v2.0', 'zeta']);
    expect(await tags('direction: DESC')).toEqual(['zeta', 'v2.0', 'v1.0']);
    expect(names(await refs('refPrefix: "refs/heads/", first: 10, direction: DESC'))).toEqual(['main', 'fix-1', 'feature/x']);
  });

  it('pages forward with first/after and backward with last', async () => {
    const first = await refs('refPrefix: "refs/tags/", first: 2');
    expect([first?.totalCount, names(first), first?.pageInfo.hasNextPage]).toEqual([3, ['v1.0', 'v2.0'], true]);
    const next = await refs(`refPrefix: "refs/tags/", first: 2, after: "${first?.pageInfo.endCursor ?? ''}"`);
    expect([next?.totalCount, names(next), next?.pageInfo.hasNextPage]).toEqual([3, ['zeta'], false]);
    const last = await refs('refPrefix: "refs/tags/", last: 1, orderBy: { field: TAG_COMMIT_DATE, direction: ASC }');
    expect([names(last), last?.pageInfo.hasPreviousPage]).toEqual([['v2.0'], true]);
  });

  it('node(id:) and nodes(ids:) answer a tag ref and a branch ref by the ids refs gives', async () => {
    const tag = (await refs('refPrefix: "refs/tags/", query: "v2.0", first: 1'))?.nodes[0];
    const branch = (await refs('refPrefix: "refs/heads/", query: "main", first: 1'))?.nodes[0];
    if (!tag || !branch) throw new Error('no refs');
    expect(tag.id).not.toBe(branch.id);
    const res = await gql<{ node: RefNode | null; nodes: (RefNode | null)[] }>(
      t,
      `query($id: ID!, $ids: [ID!]!) { node(id: $id) { ... on Ref { ${REF_FIELDS} } } nodes(ids: $ids) { ... on Ref { ${REF_FIELDS} } } }`,
      { variables: { id: tag.id, ids: [branch.id, tag.id] }, headers: basic('rfowner') },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.node).toEqual(tag);
    expect(res.data?.nodes).toEqual([branch, tag]);
  });

  it('ref(qualifiedName:) finds refs/tags/x, refs/heads/x, and a short name as the branch, else the tag', async () => {
    const res = await gql<Record<string, { name: string; prefix: string } | null>>(
      t,
      `{ r: repository(owner: "rfowner", name: "app") {
          tag: ref(qualifiedName: "refs/tags/v2.0") { name prefix }
          head: ref(qualifiedName: "refs/heads/fix-1") { name prefix }
          short: ref(qualifiedName: "zeta") { name prefix }
          shortBranch: ref(qualifiedName: "main") { name prefix }
          missing: ref(qualifiedName: "refs/tags/fix-1") { name prefix }
        } }`,
      { headers: basic('rfowner') },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.r).toEqual({
      tag: { name: 'v2.0', prefix: 'refs/tags/' },
      head: { name: 'fix-1', prefix: 'refs/heads/' },
      short: { name: 'zeta', prefix: 'refs/tags/' },
      shortBranch: { name: 'main', prefix: 'refs/heads/' },
      missing: null,
    });
  });

  it("a private repository's refs are invisible to an outsider: the repository is null, its ref ids resolve to nothing", async () => {
    const own = await refs('refPrefix: "refs/tags/", first: 5', 'rfowner', 'vault');
    const tagId = own?.nodes[0]?.id ?? '';
    expect(names(own)).toEqual(['secret-1']);
    const branchId = (await refs('refPrefix: "refs/heads/", first: 5', 'rfowner', 'vault'))?.nodes[0]?.id ?? '';
    const res = await gql<{ repository: unknown; node: unknown; nodes: unknown[] }>(
      t,
      `query($id: ID!, $ids: [ID!]!) { repository(owner: "rfowner", name: "vault") { id } node(id: $id) { id } nodes(ids: $ids) { id } }`,
      { variables: { id: tagId, ids: [tagId, branchId] }, headers: basic('rfoutsider') },
    );
    expect(res.data?.repository).toBeNull();
    expect(res.data?.node).toBeNull();
    expect(res.data?.nodes).toEqual([null, null]);
    const anonymous = await gql<{ node: unknown }>(t, `query($id: ID!) { node(id: $id) { id } }`, { variables: { id: tagId } });
    expect(anonymous.data?.node).toBeNull();
  });

  it('costs the same SQL statements for 3 and for 13 branches and tags', async () => {
    const q = `{ repository(owner: "rfowner", name: "counted") {
        defaultBranchRef { name target { oid } }
        heads: refs(refPrefix: "refs/heads/", first: 50) { totalCount nodes { id name target { oid } branchProtectionRule { id } } }
        tags: refs(refPrefix: "refs/tags/", first: 50) { totalCount nodes { id name target { oid } } }
      } }`;
    const grow = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        await post('counted/branches', { new_branch_name: `b${i}`, old_branch_name: 'main' });
        await post('counted/tags', { tag_name: `t${i}`, target: 'main', ...(i % 2 ? { message: `tag ${i}` } : {}) });
      }
    };
    const measure = async () => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<{ repository: { heads: { totalCount: number }; tags: { totalCount: number } } }>(t, q, {
        headers: basic('rfowner'),
      });
      expect(res.errors).toBeUndefined();
      return { statements: t.queries.length, heads: res.data?.repository.heads.totalCount, tags: res.data?.repository.tags.totalCount };
    };
    await grow(0, 2);
    const small = await measure();
    await grow(2, 12);
    const large = await measure();
    expect([small.heads, small.tags, large.heads, large.tags]).toEqual([3, 2, 13, 12]);
    expect(large.statements).toBe(small.statements);
  });
});

describe.each(PROVIDERS)('GraphQL Query as a Node (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
  });
  afterAll(() => t.close());

  it("Query's id is GitHub's constant, and node(id:)/nodes(ids:) answer Query for it", async () => {
    const res = await gql<{ id: string; node: { __typename: string; id: string } | null; nodes: ({ __typename: string } | null)[] }>(
      t,
      `{ id node(id: "${QUERY_ID}") { __typename id ... on Query { viewerLogin: __typename } } nodes(ids: ["${QUERY_ID}"]) { __typename } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      id: QUERY_ID,
      node: { __typename: 'Query', id: QUERY_ID, viewerLogin: 'Query' },
      nodes: [{ __typename: 'Query' }],
    });
  });

  it('an id of our own encoding naming Query resolves to nothing (NOT_FOUND), not to an internal error', async () => {
    const forged = Buffer.from('Query:1').toString('base64');
    const res = await gql<{ node: unknown }>(t, `{ node(id: "${forged}") { id } }`);
    expect(res.data?.node).toBeNull();
    expect(res.errors?.[0]?.type).toBe('NOT_FOUND');
  });
});
