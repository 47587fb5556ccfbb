import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccessFixture, gid, type AccessFixture } from '../helpers/accessFixture.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';

type Headers = Record<string, string>;

/**
 * The read-policy defects of issue #10 (findings 3–5), each as it was found: GraphQL paths that decided access on
 * their own, filters that became "no filter", and answers that told hidden from missing.
 */
describe.each(PROVIDERS)('read policy findings (%s)', (provider) => {
  let t: TestApp;
  let f: AccessFixture;

  async function data<T>(query: string, headers: Headers, variables?: Record<string, unknown>): Promise<T> {
    const res = await gql<T>(t, query, { headers, variables });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data as T;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await buildAccessFixture(t);
  }, 120_000);

  afterAll(async () => {
    f.pulls.dispose();
    await t.close();
  });

  describe('finding 3: a private team and empty filters', () => {
    const q = `{ organization(login: "acorg") { team(slug: "hidden") { name description repositories { totalCount } } } }`;

    it('team(slug:) answers null to anonymous callers and outsiders, the team to its owners', async () => {
      type Out = { organization: { team: { name: string; description: string | null } | null } };
      expect((await data<Out>(q, f.headers.anonymous)).organization.team).toBeNull();
      expect((await data<Out>(q, f.headers.outsider)).organization.team).toBeNull();
      expect((await data<Out>(q, f.headers.reader)).organization.team).toBeNull();
      expect((await data<Out>(q, basic('acowner'))).organization.team).toEqual({
        name: 'hidden',
        description: 'classified',
        repositories: { totalCount: 2 },
      });
    });

    it('no team, team member or team repository reaches anonymous callers through any path', async () => {
      const list = `{ organization(login: "acorg") { teams(first: 50) { totalCount nodes { name members(first: 5) { totalCount } } } } }`;
      type Out = { organization: { teams: { totalCount: number; nodes: unknown[] } } };
      expect((await data<Out>(list, f.headers.anonymous)).organization.teams).toEqual({ totalCount: 0, nodes: [] });
      const byNode = `query($id: ID!) { node(id: $id) { ... on Team { name } } }`;
      const node = await data<{ node: unknown }>(byNode, f.headers.anonymous, { id: gid('Team', f.ids['team:hidden'] ?? 0) });
      expect(node.node).toBeNull();
    });

    it('an outsider sees the public team but none of its members (REST: 403 Must be an organization member)', async () => {
      const q2 = `{ organization(login: "acorg") { team(slug: "readers") { name members(first: 5) { totalCount nodes { login } } } } }`;
      type Out = { organization: { team: { name: string; members: { totalCount: number; nodes: unknown[] } } | null } };
      expect((await data<Out>(q2, f.headers.outsider)).organization.team).toEqual({
        name: 'readers',
        members: { totalCount: 0, nodes: [] },
      });
      expect((await data<Out>(q2, f.headers.reader)).organization.team?.members.totalCount).toBe(1);
    });
  });

  describe('finding 4: REST pull requests and private teams', () => {
    const teamsOf = (body: unknown): string[] =>
      ((body as { requested_reviewers_teams: { name: string }[] }).requested_reviewers_teams ?? []).map((x) => x.name).sort();

    it('GET …/pulls/{n} lists only the requested teams the viewer may read', async () => {
      const get = (headers: Headers) => t.request('GET', '/api/v1/repos/acorg/pub/pulls/2', { headers });
      expect(teamsOf((await get(f.headers.anonymous)).json())).toEqual([]);
      expect(teamsOf((await get(f.headers.outsider)).json())).toEqual(['readers']);
      expect(teamsOf((await get(f.headers.reader)).json())).toEqual(['readers']);
      expect(teamsOf((await get(basic('acowner'))).json())).toEqual(['hidden', 'readers']);
    });

    it('GET …/pulls lists the same', async () => {
      const res = await t.request('GET', '/api/v1/repos/acorg/pub/pulls?state=all', { headers: f.headers.outsider });
      expect((res.json() as unknown[]).map(teamsOf)).toEqual([['readers']]);
    });

    it('GraphQL reviewRequests agrees', async () => {
      const q = `{ repository(owner: "acorg", name: "pub") { pullRequest(number: 2) { reviewRequests(first: 10) { totalCount nodes { requestedReviewer { ... on Team { name } } } } } } }`;
      type Out = {
        repository: { pullRequest: { reviewRequests: { totalCount: number; nodes: { requestedReviewer: { name: string } }[] } } };
      };
      const conn = (await data<Out>(q, f.headers.anonymous)).repository.pullRequest.reviewRequests;
      expect(conn).toEqual({ totalCount: 0, nodes: [] });
      const names = (await data<Out>(q, f.headers.outsider)).repository.pullRequest.reviewRequests.nodes.map(
        (n) => n.requestedReviewer.name,
      );
      expect(names).toEqual(['readers']);
    });
  });

  describe('finding 5: GraphQL reads that disagreed with REST', () => {
    it('Repository.collaborators needs a signed-in viewer, as GET …/collaborators (401)', async () => {
      expect((await t.request('GET', '/api/v1/repos/acorg/pub/collaborators')).statusCode).toBe(401);
      const q = `{ repository(owner: "acorg", name: "pub") { collaborators(first: 5) { totalCount nodes { login } } } }`;
      type Out = { repository: { collaborators: { totalCount: number; nodes: { login: string }[] } } };
      expect((await data<Out>(q, f.headers.anonymous)).repository.collaborators).toEqual({ totalCount: 0, nodes: [] });
      expect((await data<Out>(q, f.headers.outsider)).repository.collaborators).toEqual({ totalCount: 1, nodes: [{ login: 'accollab' }] });
    });

    it('Repository.refs and defaultBranchRef need the code unit, as GET …/branches (404)', async () => {
      expect((await t.request('GET', '/api/v1/repos/acorg/secret/branches', { headers: f.headers.issuer })).statusCode).toBe(404);
      const q = `{ repository(owner: "acorg", name: "secret") { refs(refPrefix: "refs/heads/", first: 5) { totalCount nodes { name } } defaultBranchRef { name } } }`;
      type Out = { repository: { refs: { totalCount: number }; defaultBranchRef: { name: string } | null } };
      expect((await data<Out>(q, f.headers.issuer)).repository).toEqual({ refs: { totalCount: 0, nodes: [] }, defaultBranchRef: null });
      expect((await data<Out>(q, f.headers.coder)).repository.refs.totalCount).toBe(2);
    });

    it('Repository.labels and label(name:) need issues or pull requests, as GET …/labels (404)', async () => {
      expect((await t.request('GET', '/api/v1/repos/acorg/secret/labels', { headers: f.headers.coder })).statusCode).toBe(404);
      const q = `{ repository(owner: "acorg", name: "secret") { labels(first: 5) { totalCount } label(name: "secret-bug") { name } } }`;
      type Out = { repository: { labels: { totalCount: number }; label: unknown } };
      expect((await data<Out>(q, f.headers.coder)).repository).toEqual({ labels: { totalCount: 0 }, label: null });
      expect((await data<Out>(q, f.headers.issuer)).repository).toEqual({ labels: { totalCount: 1 }, label: { name: 'secret-bug' } });
    });

    it('issues, milestones and node(id:) honour the per-unit mode: a code-only team member sees none (REST: 404)', async () => {
      expect((await t.request('GET', '/api/v1/repos/acorg/secret/issues/1', { headers: f.headers.coder })).statusCode).toBe(404);
      expect((await t.request('GET', '/api/v1/repos/acorg/secret/milestones', { headers: f.headers.coder })).statusCode).toBe(404);
      const q = `query($issue: ID!, $milestone: ID!) {
        repository(owner: "acorg", name: "secret") { issues(first: 5) { totalCount } issue(number: 1) { title } milestones(first: 5) { totalCount } pullRequests(first: 5) { totalCount } }
        issue: node(id: $issue) { id } milestone: node(id: $milestone) { id } }`;
      const vars = {
        issue: gid('Issue', f.ids['issue:acorg/secret#1'] ?? 0),
        milestone: gid('Milestone', f.ids['milestone:acorg/secret'] ?? 0),
      };
      const coder = await data<Record<string, unknown>>(q, f.headers.coder, vars);
      expect(coder).toEqual({
        repository: { issues: { totalCount: 0 }, issue: null, milestones: { totalCount: 0 }, pullRequests: { totalCount: 0 } },
        issue: null,
        milestone: null,
      });
      const reader = await data<{ repository: { issues: { totalCount: number } }; issue: unknown }>(q, f.headers.reader, vars);
      expect(reader.repository.issues.totalCount).toBe(1);
      expect(reader.issue).not.toBeNull();
    });

    it('issue search honours the per-unit mode too', async () => {
      const res = await t.request('GET', '/api/v1/repos/issues/search?state=all&type=issues', { headers: f.headers.coder });
      expect((res.json() as { title: string }[]).map((i) => i.title)).toEqual(['pub issue']);
    });

    it('User visibility honours public-only tokens', async () => {
      const user = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'aclimuser' } });
      expect((await t.request('GET', '/api/v1/users/aclimuser', { headers: f.headers.publicOnly })).statusCode).toBe(403);
      const q = `query($id: ID!) { node(id: $id) { ... on User { login } } }`;
      expect((await data<{ node: unknown }>(q, f.headers.publicOnly, { id: gid('User', user.id) })).node).toBeNull();
      expect((await data<{ node: unknown }>(q, f.headers.outsider, { id: gid('User', user.id) })).node).toEqual({ login: 'aclimuser' });
    });

    it('Label.issueCount counts only issues the viewer may see', async () => {
      const q = `{ organization(login: "acorg") { label(name: "orglabel") { issueCount } } }`;
      type Out = { organization: { label: { issueCount: number } } };
      expect((await data<Out>(q, f.headers.anonymous)).organization.label.issueCount).toBe(1);
      expect((await data<Out>(q, f.headers.coder)).organization.label.issueCount).toBe(1);
      expect((await data<Out>(q, f.headers.reader)).organization.label.issueCount).toBe(2);
    });

    it('addBlockedBy answers a hidden issue exactly as a missing one', async () => {
      const m = `mutation($a: ID!, $b: ID!) { addBlockedBy(input: { issueId: $a, blockingIssueId: $b }) { __typename } }`;
      /** The refusal of addBlockedBy (the field is null beside it). */
      const refusal = async (variables: Record<string, unknown>) => {
        const res = await gql<{ addBlockedBy: unknown }>(t, m, { headers: f.headers.outsider, variables });
        expect(res.data?.addBlockedBy).toBeNull();
        const error = mutationError(res, 'addBlockedBy');
        expect(error).not.toBeNull();
        return error;
      };
      const pub = gid('Issue', f.ids['issue:acorg/pub#1'] ?? 0);
      const hidden = await refusal({ a: gid('Issue', f.ids['issue:acorg/secret#1'] ?? 0), b: pub });
      const missing = await refusal({ a: gid('Issue', 999_999), b: pub });
      expect(hidden).toEqual(missing);
      const hiddenBlocker = await refusal({ a: pub, b: gid('Issue', f.ids['issue:acorg/secret#1'] ?? 0) });
      const missingBlocker = await refusal({ a: pub, b: gid('Issue', 999_998) });
      expect(hiddenBlocker).toEqual(missingBlocker);
    });

    it('/repositories/{id} answers a hidden repository exactly as a missing one', async () => {
      const hidden = await t.request('GET', `/api/v1/repositories/${f.ids['acorg/secret']}`, { headers: f.headers.outsider });
      const missing = await t.request('GET', '/api/v1/repositories/999999', { headers: f.headers.outsider });
      expect(hidden.statusCode).toBe(404);
      const shape = (body: unknown, id: number) => JSON.stringify(body).replace(String(id), '<id>');
      expect(shape(hidden.json(), f.ids['acorg/secret'] ?? 0)).toEqual(shape(missing.json(), 999999));
    });
  });
});
