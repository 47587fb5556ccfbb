import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';
import { createOrgAs } from '../helpers/org.ts';

interface Node {
  opType: string;
  content: string;
  isPrivate: boolean;
  refName: string | null;
  actor: { login: string };
  repository: { nameWithOwner: string };
}
interface Conn {
  totalCount: number;
  nodes: Node[];
}

const FIELDS = 'totalCount nodes { opType content isPrivate refName actor { login } repository { nameWithOwner } }';

/** User.activity, Organization.activity and Repository.activity: the feeds of REST through the same read policy. */
describe.each(PROVIDERS)('GraphQL activity connections (%s)', (provider) => {
  let t: TestApp;
  let alice: Models.User;

  const query = async (q: string, user?: string) => {
    const res = await t.graphql(q, {}, user ? basic(user) : {});
    const body = res.json() as { data: Record<string, { activity: Conn } | null>; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body.data;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    alice = await t.createUser('alice');
    await t.createUser('bob');
    await createRepo(t, alice, 'pub');
    await createRepo(t, alice, 'secret', { private: true });
    const org = await createOrgAs(t, alice, 'acme');
    await createRepo(t, alice, 'orgsecret', { org, private: true });
    for (let i = 0; i < 6; i++) {
      await t.request('POST', '/api/v1/repos/alice/pub/issues', { headers: basic('alice'), body: { title: `bug ${i}` } });
    }
    await t.request('POST', '/api/v1/repos/alice/secret/issues', { headers: basic('alice'), body: { title: 'hidden' } });
    await t.app.deps.notifier.drain();
  });
  afterAll(async () => {
    await t.close();
  });

  it('User.activity: private rows for the user only, newest first', async () => {
    const q = `{ user(login: "alice") { activity(first: 3) { ${FIELDS} } } }`;
    const own = (await query(q, 'alice')).user?.activity;
    expect(own?.totalCount).toBe(10);
    expect(own?.nodes.map((n) => [n.opType, n.content, n.isPrivate])).toEqual([
      ['CREATE_ISSUE', '1|hidden', true],
      ['CREATE_ISSUE', '6|bug 5', false],
      ['CREATE_ISSUE', '5|bug 4', false],
    ]);
    expect(own?.nodes[0]).toMatchObject({ actor: { login: 'alice' }, repository: { nameWithOwner: 'alice/secret' }, refName: null });
    const other = (await query(q, 'bob')).user?.activity;
    expect(other?.totalCount).toBe(7);
    expect(other?.nodes.every((n) => !n.isPrivate)).toBe(true);
    const anon = (await query(q)).user?.activity;
    expect(anon?.totalCount).toBe(7);
  });

  it('Organization.activity and Repository.activity', async () => {
    const org = (await query(`{ organization(login: "acme") { activity(first: 10) { ${FIELDS} } } }`, 'alice')).organization?.activity;
    expect(org?.nodes.map((n) => [n.opType, n.repository.nameWithOwner])).toEqual([['CREATE_REPO', 'acme/orgsecret']]);
    const outside = (await query(`{ organization(login: "acme") { activity(first: 10) { ${FIELDS} } } }`, 'bob')).organization?.activity;
    expect(outside?.totalCount).toBe(0);
    const repo = (await query(`{ repository(owner: "alice", name: "pub") { activity(first: 2) { ${FIELDS} } } }`)).repository?.activity;
    expect(repo?.totalCount).toBe(7);
    expect(repo?.nodes.map((n) => n.content)).toEqual(['6|bug 5', '5|bug 4']);
    expect(
      (await query(`{ repository(owner: "alice", name: "secret") { activity(first: 2) { totalCount } } }`, 'bob')).repository,
    ).toBeNull();
  });

  it('the statement count of a feed page does not depend on its size (REST and GraphQL)', async () => {
    const count = async (run: () => Promise<unknown>) => {
      t.queries.length = 0;
      await run();
      return t.queries.length;
    };
    const rest = async (limit: number) =>
      count(() => t.request('GET', `/api/v1/users/alice/activities/feeds?limit=${limit}`, { headers: basic('alice') }));
    const gql = async (first: number) =>
      count(() => query(`{ user(login: "alice") { activity(first: ${first}) { ${FIELDS} } } }`, 'alice'));
    // Pages of 2 and 7 rows over the same two repositories (alice/secret, alice/pub): only the row count differs.
    const [r2, r7, g2, g7] = [await rest(2), await rest(7), await gql(2), await gql(7)];
    expect(r7).toBe(r2);
    expect(g7).toBe(g2);
    console.log(`feed statements per page (${provider}): REST ${r7}, GraphQL ${g7}`);
  });
});
