import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

interface Ctx {
  context: string;
  state: string;
  description: string | null;
  targetUrl: string | null;
  creator: { login: string } | null;
}
interface CommitStatuses {
  status: { state: string; contexts: Ctx[]; context: Ctx | null } | null;
  statusCheckRollup: { state: string; contexts: { totalCount: number; nodes: Ctx[] } } | null;
}

const CTX = 'context state description targetUrl creator { login }';
const QUERY = (expr: string) => `{ repository(owner: "alice", name: "demo") { object(expression: "${expr}") { ... on Commit {
  status { state contexts { ${CTX} } context(name: "ci/build") { ${CTX} } }
  statusCheckRollup { state contexts(first: 10) { totalCount nodes { ... on StatusContext { ${CTX} } } } } } } } }`;

describe.each(PROVIDERS)('GraphQL Commit.status / statusCheckRollup (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  const commit = async (expr: string, user = 'alice') => {
    const res = await gql<{ repository: { object: CommitStatuses } | null }>(t, QUERY(expr), { headers: basic(user) });
    expect(res.errors).toBeUndefined();
    return res.data!.repository?.object ?? null;
  };
  const post = (sha: string, body: Record<string, unknown>) =>
    t.request('POST', `/api/v1/repos/alice/demo/statuses/${sha}`, { headers: basic('alice'), body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'eve']) await t.createUser(u);
    await f.createRepo('alice', 'demo', { private: true });
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('shows the latest status of each context and their worst state, as GET …/commits/{ref}/status', async () => {
    const sha = await f.push('alice', 'demo', 'alice', 'main', { 'a.txt': 'a\n' });
    expect(await commit(sha)).toEqual({ status: null, statusCheckRollup: null });

    await post(sha, { state: 'pending', context: 'ci/build' });
    await post(sha, { state: 'success', context: 'ci/build', description: 'green', target_url: 'https://ci/1' });
    await post(sha, { state: 'failure', context: 'lint' });
    const c = await commit(sha);
    const build = { context: 'ci/build', state: 'SUCCESS', description: 'green', targetUrl: 'https://ci/1', creator: { login: 'alice' } };
    expect(c?.status).toEqual({
      state: 'FAILURE',
      contexts: [build, { context: 'lint', state: 'FAILURE', description: null, targetUrl: null, creator: { login: 'alice' } }],
      context: build,
    });
    expect(c?.statusCheckRollup?.state).toBe('FAILURE');
    expect(c?.statusCheckRollup?.contexts.totalCount).toBe(2);
    const rest = (await t.request('GET', `/api/v1/repos/alice/demo/commits/${sha}/status`, { headers: basic('alice') })).json() as {
      state: string;
      total_count: number;
    };
    expect(rest).toMatchObject({ state: 'failure', total_count: 2 });
    // A private repository's commits (and their statuses) are invisible to others.
    expect(await commit(sha, 'eve')).toBeNull();
  });

  it('history { nodes { status } } costs the same statements for 2 commits as for 4', async () => {
    for (let i = 0; i < 4; i++) {
      const sha = await f.push('alice', 'demo', 'alice', 'main', { [`h${i}.txt`]: `${i}\n` });
      await post(sha, { state: i % 2 ? 'success' : 'failure', context: 'ci/build' });
    }
    const count = async (n: number) => {
      t.queries.length = 0;
      const res = await gql<{ repository: { object: { history: { nodes: { status: { state: string } | null }[] } } } }>(
        t,
        `{ repository(owner: "alice", name: "demo") { object(expression: "main") { ... on Commit { history(first: ${n}) { nodes { status { state } } } } } } }`,
        { headers: basic('alice') },
      );
      expect(res.errors).toBeUndefined();
      expect(res.data!.repository.object.history.nodes.every((c) => c.status !== null)).toBe(true);
      return t.queries.length;
    };
    const small = await count(2);
    const large = await count(4);
    console.info(`[${provider}] Commit.history { status }: ${small} statements for 2 commits, ${large} for 4`);
    expect(large).toBe(small);
  });
});
