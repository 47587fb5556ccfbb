// GitHub's arguments on the graph's connections that gh and octokit send (issue #32): each filter keeps what it
// names, each order orders, and totalCount counts what the filters keep — repository(followRenames:), orderBy on
// languages, stargazers, comments, packages and projects, Commit.history's window and author, the team lists'
// filters, and the lists GitHub has that Gitea cannot fill (projectsV2, projectItems: empty).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addTeamMember, addTeamRepo, createRepo, createTeam } from '../helpers/fixtures.ts';
import { gql } from '../helpers/graphql.ts';
import { createOrgAs } from '../helpers/org.ts';

describe.each(PROVIDERS)('GraphQL: GitHub arguments of connections (%s)', (provider) => {
  let t: TestApp;

  /** The data of a query as alice (no errors). */
  async function data<T>(query: string, viewer = 'alice'): Promise<T> {
    const res = await gql<T>(t, query, { headers: basic(viewer) });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data!;
  }
  const post = async (url: string, body: object, as = 'alice', method = 'POST') => {
    const res = await t.request(method, `/api/v1${url}`, { headers: basic(as), body });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return (res.body ? res.json() : {}) as Record<string, unknown>;
  };
  /** Adds a file on main by `email` at `date`. */
  const commit = (path: string, text: string, email: string, date: string) =>
    post(`/repos/alice/demo/contents/${path}`, {
      content: Buffer.from(text).toString('base64'),
      message: `add ${path}`,
      author: { name: email.split('@')[0], email },
      dates: { author: date, committer: date },
    });

  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice = await t.createUser('alice');
    const bob = await t.createUser('bob');
    await t.createUser('carol');
    await createRepo(t, alice, 'demo', { autoInit: true });
    await commit('main.go', 'package main\n\nfunc main() {}\n'.repeat(30), 'bob@example.com', '2020-01-01T00:00:00Z');
    await commit('tool.py', 'print(1)\n', 'carol@example.com', '2021-06-01T00:00:00Z');
    for (const user of ['alice', 'bob']) await post('/user/starred/alice/demo', {}, user, 'PUT');
    await post('/repos/alice/demo/issues', { title: 'Talk' });
    const first = await post('/repos/alice/demo/issues/1/comments', { body: 'first' });
    await post('/repos/alice/demo/issues/1/comments', { body: 'second' });
    await new Promise((r) => setTimeout(r, 1100));
    await post(`/repos/alice/demo/issues/comments/${String(first.id)}`, { body: 'first, edited' }, 'alice', 'PATCH');
    for (const title of ['Roadmap', 'Bugs', 'Archive']) await post('/repos/alice/demo/projects', { title });

    const org = await createOrgAs(t, alice, 'acme');
    const devs = await createTeam(t, alice, org, { name: 'devs', permission: 'write', unitsMap: { 'repo.code': 'write' } });
    await createTeam(t, alice, org, { name: 'docs', permission: 'read', unitsMap: { 'repo.code': 'read' } });
    await addTeamMember(t, alice, devs, bob);
    const tools = await createRepo(t, alice, 'tools', { org });
    const api = await createRepo(t, alice, 'api', { org });
    for (const repo of [tools, api]) await addTeamRepo(t, alice, devs, repo);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('repository(followRenames:) finds a renamed repository by its old name unless told not to', async () => {
    await post('/repos/alice/demo', { name: 'demo2' }, 'alice', 'PATCH');
    try {
      expect(await data('{ repository(owner: "alice", name: "demo") { name } }')).toEqual({ repository: { name: 'demo2' } });
      expect(await data('{ repository(owner: "alice", name: "demo", followRenames: false) { name } }')).toEqual({ repository: null });
    } finally {
      await post('/repos/alice/demo2', { name: 'demo' }, 'alice', 'PATCH');
    }
  });

  it('languages, stargazers and comments take orderBy', async () => {
    const repo = await data<{
      repository: {
        asc: { nodes: { name: string }[] };
        desc: { nodes: { name: string }[] };
        starredFirst: { nodes: { login: string }[] };
        starredLast: { nodes: { login: string }[] };
        issue: { updated: { nodes: { body: string }[] }; plain: { nodes: { body: string }[] } };
      };
    }>(`{ repository(owner: "alice", name: "demo") {
      asc: languages(first: 5, orderBy: { field: SIZE, direction: ASC }) { nodes { name } }
      desc: languages(first: 5, orderBy: { field: SIZE, direction: DESC }) { nodes { name } }
      starredFirst: stargazers(first: 5, orderBy: { field: STARRED_AT, direction: ASC }) { nodes { login } }
      starredLast: stargazers(first: 5, orderBy: { field: STARRED_AT, direction: DESC }) { nodes { login } }
      issue(number: 1) {
        updated: comments(first: 5, orderBy: { field: UPDATED_AT, direction: ASC }) { nodes { body } }
        plain: comments(first: 5) { nodes { body } }
      }
    } }`);
    expect(repo.repository.desc.nodes.map((n) => n.name)).toEqual(['Go', 'Python']);
    expect(repo.repository.asc.nodes.map((n) => n.name)).toEqual(['Python', 'Go']);
    expect(repo.repository.starredFirst.nodes.map((n) => n.login)).toEqual(['alice', 'bob']);
    expect(repo.repository.starredLast.nodes.map((n) => n.login)).toEqual(['bob', 'alice']);
    expect(repo.repository.issue.plain.nodes.map((n) => n.body)).toEqual(['first, edited', 'second']);
    // The first comment was edited last.
    expect(repo.repository.issue.updated.nodes.map((n) => n.body)).toEqual(['second', 'first, edited']);
  });

  it('User.starredRepositories (orderBy, ownedByViewer), User.organizations (orderBy) and Repository.object(oid:)', async () => {
    await post('/user/starred/acme/api', {}, 'bob', 'PUT');
    await createOrgAs(t, await t.db.user.findUniqueOrThrow({ where: { lowerName: 'bob' } }), 'zeta');
    const { bob, repository } = await data<{
      bob: Record<string, { nodes: { nameWithOwner?: string; login?: string }[] }>;
      repository: { main: { oid: string }; byOid: { oid: string } | null };
    }>(
      `{
      bob: user(login: "bob") {
        latest: starredRepositories(first: 5, orderBy: { field: STARRED_AT, direction: DESC }) { nodes { nameWithOwner } }
        others: starredRepositories(first: 5, ownedByViewer: false) { nodes { nameWithOwner } }
        orgs: organizations(first: 5, orderBy: { field: LOGIN, direction: DESC }) { nodes { login } }
      }
      repository(owner: "alice", name: "demo") { main: object(expression: "main") { oid } byOid: object(oid: "${'0'.repeat(40)}") { oid } }
    }`,
      'bob',
    );
    expect(bob.latest?.nodes.map((n) => n.nameWithOwner)).toEqual(['acme/api', 'alice/demo']);
    expect(bob.others?.nodes.map((n) => n.nameWithOwner)).toEqual(['alice/demo', 'acme/api']);
    expect(bob.orgs?.nodes.map((n) => n.login)).toEqual(['zeta', 'acme']);
    expect(repository.byOid).toBeNull();
    const again = await data<{ repository: { object: { oid: string } } }>(
      `{ repository(owner: "alice", name: "demo") { object(oid: "${repository.main.oid}") { oid } } }`,
    );
    expect(again.repository.object.oid).toBe(repository.main.oid);
  });

  it('Commit.history keeps a time window and an author (by e-mail or by user id)', async () => {
    const bob = await data<{ user: { id: string } }>('{ user(login: "bob") { id } }');
    const history = async (args: string) =>
      (
        await data<{ repository: { object: { history: { totalCount: number; nodes: { message: string }[] } } } }>(
          `{ repository(owner: "alice", name: "demo") { object(expression: "main") { ... on Commit {
            history(first: 10${args}) { totalCount nodes { message } } } } } }`,
        )
      ).repository.object.history;
    const all = await history('');
    expect(all.totalCount).toBe(3);
    expect((await history(', since: "2021-01-01T00:00:00Z", until: "2021-12-31T00:00:00Z"')).nodes.map((n) => n.message.trim())).toEqual([
      'add tool.py',
    ]);
    expect((await history(', author: { emails: ["CAROL@example.com"] }')).nodes.map((n) => n.message.trim())).toEqual(['add tool.py']);
    expect((await history(`, author: { id: "${bob.user.id}" }`)).nodes.map((n) => n.message.trim())).toEqual(['add main.go']);
    expect((await history(', author: { emails: ["ob@example.com"] }')).totalCount).toBe(0);
  });

  it('projects take states, search and orderBy; projectsV2 and projectItems are empty', async () => {
    await post('/repos/alice/demo/projects/3', { state: 'closed' }, 'alice', 'PATCH');
    const { repository } = await data<{
      repository: Record<string, { totalCount: number; nodes: { name: string }[] }> & {
        issue: { projectItems: { totalCount: number; nodes: unknown[] } };
      };
    }>(`{ repository(owner: "alice", name: "demo") {
      byName: projects(first: 5, orderBy: { field: NAME, direction: ASC }) { totalCount nodes { name } }
      open: projects(first: 5, states: [OPEN], orderBy: { field: CREATED_AT, direction: ASC }) { totalCount nodes { name } }
      found: projects(first: 5, search: "ROAD") { totalCount nodes { name } }
      v2: projectsV2(first: 5, query: "is:open") { totalCount nodes { title } }
      issue(number: 1) { projectItems(first: 5) { totalCount nodes { id } } }
    } }`);
    expect(repository.byName).toEqual({ totalCount: 3, nodes: [{ name: 'Archive' }, { name: 'Bugs' }, { name: 'Roadmap' }] });
    expect(repository.open).toEqual({ totalCount: 2, nodes: [{ name: 'Roadmap' }, { name: 'Bugs' }] });
    expect(repository.found).toEqual({ totalCount: 1, nodes: [{ name: 'Roadmap' }] });
    expect(repository.v2).toEqual({ totalCount: 0, nodes: [] });
    expect(repository.issue.projectItems).toEqual({ totalCount: 0, nodes: [] });
  });

  it('Organization.teams, Team.members and Team.repositories take GitHub’s filters and orders', async () => {
    const teams = async (args: string, viewer = 'alice') =>
      (
        await data<{ organization: { teams: { totalCount: number; nodes: { slug: string }[] } } }>(
          `{ organization(login: "acme") { teams(first: 10${args}) { totalCount nodes { slug } } } }`,
          viewer,
        )
      ).organization.teams;
    expect((await teams(', orderBy: { field: NAME, direction: DESC }')).nodes.map((n) => n.slug)).toEqual(['owners', 'docs', 'devs']);
    expect(await teams(', query: "DO"')).toEqual({ totalCount: 1, nodes: [{ slug: 'docs' }] });
    expect(await teams(', userLogins: ["bob"]')).toEqual({ totalCount: 1, nodes: [{ slug: 'devs' }] });
    expect((await teams(', role: MEMBER', 'bob')).nodes.map((n) => n.slug)).toEqual(['devs']);
    expect((await teams(', role: ADMIN')).totalCount).toBe(3);
    expect((await teams(', role: ADMIN', 'bob')).totalCount).toBe(0);
    expect((await teams(', ldapMapped: true')).totalCount).toBe(0);
    const { organization } = await data<{
      organization: { team: Record<string, { totalCount: number; nodes: { login?: string; name?: string }[] }> };
    }>(`{ organization(login: "acme") { team(slug: "devs") {
      members(first: 5, orderBy: { field: LOGIN, direction: ASC }) { totalCount nodes { login } }
      maintainers: members(first: 5, role: MAINTAINER) { totalCount nodes { login } }
      found: members(first: 5, query: "bo") { totalCount nodes { login } }
      repos: repositories(first: 5, orderBy: { field: NAME, direction: ASC }) { totalCount nodes { name } }
      api: repositories(first: 5, query: "AP") { totalCount nodes { name } }
    } } }`);
    expect(organization.team.members).toEqual({ totalCount: 1, nodes: [{ login: 'bob' }] });
    expect(organization.team.maintainers).toEqual({ totalCount: 0, nodes: [] });
    expect(organization.team.found).toEqual({ totalCount: 1, nodes: [{ login: 'bob' }] });
    expect(organization.team.repos).toEqual({ totalCount: 2, nodes: [{ name: 'api' }, { name: 'tools' }] });
    expect(organization.team.api).toEqual({ totalCount: 1, nodes: [{ name: 'api' }] });
  });
});
