import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql } from '../helpers/graphql.ts';

/**
 * Token read scopes of object types (src/graphql/tokenReadScopes.ts): every field of a type answers FORBIDDEN to a
 * token without its category's read scope, the rest of the response still resolves; a type whose category depends
 * on the row (Label: organization labels need read:organization) is checked per object.
 */
describe.each(PROVIDERS)('GraphQL token read scopes (%s)', (provider) => {
  let t: TestApp;
  const query = `{ repository(owner: "scopeorg", name: "tracker") {
    name
    issues(first: 5) { nodes { title labels(first: 5) { nodes { name } } } }
  } }`;
  type Result = {
    repository: { name: string; issues: { nodes: ({ title: string; labels: { nodes: ({ name: string } | null)[] } } | null)[] } } | null;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('scopeowner');
    const as = basic('scopeowner');
    const post = async (url: string, payload: unknown) => {
      const res = await t.request('POST', url, { headers: as, body: payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number };
    };
    await post('/api/v1/orgs', { username: 'scopeorg' });
    await post('/api/v1/orgs/scopeorg/repos', { name: 'tracker' });
    const repoLabel = await post('/api/v1/repos/scopeorg/tracker/labels', { name: 'bug', color: '#ee0701' });
    const orgLabel = await post('/api/v1/orgs/scopeorg/labels', { name: 'org-wide', color: '#00aabb' });
    await post('/api/v1/repos/scopeorg/tracker/issues', { title: 'labelled', labels: [repoLabel.id, orgLabel.id] });
  });
  afterAll(async () => {
    await t?.close();
  });

  // Issue and Label are non-null in their lists, so a forbidden field nulls the nearest nullable parent: the repository.
  it('a token without read:issue is refused every Issue field, whatever reached it', async () => {
    const token = await t.createToken('scopeowner', ['read:repository'], 'repo-only');
    const res = await gql<Result>(t, query, { headers: tokenAuth(token) });
    expect(res.data?.repository).toBeNull();
    // One error per refused field of the issue (its title and its labels), each naming the type.
    expect(errorCodes(res)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(res.errors?.map((e) => e.message)).toEqual([
      'Not authorized to read fields for Issue',
      'Not authorized to read fields for Issue',
    ]);
    expect(res.errors?.map((e) => e.path)).toEqual([
      ['repository', 'issues', 'nodes', 0, 'title'],
      ['repository', 'issues', 'nodes', 0, 'labels'],
    ]);
    const repoOnly = await gql<Result>(t, '{ repository(owner: "scopeorg", name: "tracker") { name } }', { headers: tokenAuth(token) });
    expect(repoOnly.errors).toBeUndefined();
    expect(repoOnly.data?.repository?.name).toBe('tracker');
  });

  it('an organization label needs read:organization; the repository label does not', async () => {
    const token = await t.createToken('scopeowner', ['read:repository', 'read:issue'], 'no-org');
    const res = await gql<Result>(t, query, { headers: tokenAuth(token) });
    expect(errorCodes(res)).toEqual(['FORBIDDEN']);
    expect(res.errors?.[0]?.message).toBe('Not authorized to read fields for Label');
    // The second label (the organization's) only: the repository's label before it resolved.
    expect(res.errors?.[0]?.path).toEqual(['repository', 'issues', 'nodes', 0, 'labels', 'nodes', 1, 'name']);

    const all = await t.createToken('scopeowner', ['read:repository', 'read:issue', 'read:organization'], 'with-org');
    const ok = await gql<Result>(t, query, { headers: tokenAuth(all) });
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.repository?.issues.nodes[0]).toEqual({ title: 'labelled', labels: { nodes: [{ name: 'bug' }, { name: 'org-wide' }] } });
  });

  // The leaves compile as property reads only for credentials that read everything (src/graphql/plainLeaves.ts):
  // a document compiled for them first must still refuse a scoped token its guarded leaves.
  it('a document first run by credentials that read everything still refuses a scoped token', async () => {
    const document = `{ repository(owner: "scopeorg", name: "tracker") { issues(first: 5) { nodes { title number } } } }`;
    const first = await gql<Result>(t, document, { headers: basic('scopeowner') });
    expect(first.errors).toBeUndefined();
    expect(first.data?.repository?.issues.nodes[0]?.title).toBe('labelled');
    const token = await t.createToken('scopeowner', ['read:repository'], 'repo-only-after-session');
    const refused = await gql<Result>(t, document, { headers: tokenAuth(token) });
    expect(refused.errors?.map((e) => e.path)).toEqual([
      ['repository', 'issues', 'nodes', 0, 'title'],
      ['repository', 'issues', 'nodes', 0, 'number'],
    ]);
    expect(errorCodes(refused)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    const all = await t.createToken('scopeowner', ['read:repository', 'read:issue', 'read:organization', 'read:user'], 'reads-all');
    const allowed = await gql<Result>(t, document, { headers: tokenAuth(all) });
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data).toEqual(first.data);
  });

  it('sessions and basic auth are not limited by scopes', async () => {
    const res = await gql<Result>(t, query, { headers: basic('scopeowner') });
    expect(res.errors).toBeUndefined();
    expect(res.data?.repository?.issues.nodes[0]?.labels.nodes).toHaveLength(2);
  });
});
