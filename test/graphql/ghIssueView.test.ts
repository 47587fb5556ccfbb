// What `gh issue view` (Debian's gh 2.23) selects on an issue or pull request and its comments (issue #32):
// projectCards, reactionGroups { users { totalCount } }, authorAssociation, includesCreatedEdit, isMinimized and
// minimizedReason.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';
import { PullFixture } from '../helpers/pull.ts';

type Json = Record<string, unknown>;

/** gh's comment fields (api/query_builder.go issueCommentFields). */
const COMMENT = `author { login } authorAssociation body createdAt includesCreatedEdit isMinimized minimizedReason
  reactionGroups { content users { totalCount } }`;

/** gh's fields of `gh issue view` with --comments, on an Issue or a PullRequest. */
const VIEW = `number url state createdAt title body author { login ... on User { id name } } authorAssociation
  milestone { number title description dueOn }
  assignees(first: 100) { nodes { id login name } totalCount }
  labels(first: 100) { nodes { id name description color } totalCount }
  projectCards(first: 100) { nodes { project { name } column { name } } totalCount }
  reactionGroups { content users { totalCount } }`;

const ISSUE_VIEW = `query IssueByNumber($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) { hasIssuesEnabled
    issue(number: $number) { ${VIEW} comments(first: 100) { nodes { ${COMMENT} } totalCount } } } }`;

interface View {
  authorAssociation: string;
  projectCards: { nodes: { project: { name: string }; column: { name: string } | null }[]; totalCount: number };
  reactionGroups: { content: string; users: { totalCount: number } }[];
}
interface Comment {
  author: { login: string } | null;
  authorAssociation: string;
  body: string;
  includesCreatedEdit: boolean;
  isMinimized: boolean;
  minimizedReason: string | null;
  reactionGroups: { content: string; users: { totalCount: number } }[];
}
type IssueView = View & { comments: { nodes: Comment[]; totalCount: number } };

/** The reaction counts of a subject, only the contents someone used. */
const counts = (groups: View['reactionGroups']): Record<string, number> =>
  Object.fromEntries(groups.filter((g) => g.users.totalCount > 0).map((g) => [g.content, g.users.totalCount]));

describe.each(PROVIDERS)('gh issue view fields (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  const users: Record<string, Models.User> = {};
  let pull = 0;

  const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
  async function rest(viewer: string, method: string, path: string, body?: unknown): Promise<Json> {
    const res = await t.request(method, `/api/v1/${path}`, { headers: as(viewer), ...(body === undefined ? {} : { body }) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.body ? (res.json() as Json) : {};
  }
  async function view(viewer: string, owner: string, repo: string, number: number) {
    const res = await gql<{ repository: { hasIssuesEnabled: boolean; issue: IssueView | null } | null }>(t, ISSUE_VIEW, {
      headers: as(viewer),
      variables: { owner, repo, number },
    });
    return res;
  }
  async function issueView(viewer: string, owner: string, repo: string, number: number): Promise<IssueView> {
    const res = await view(viewer, owner, repo, number);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const issue = res.data?.repository?.issue;
    if (!issue) throw new Error(`no issue ${owner}/${repo}#${number}`);
    return issue;
  }
  async function mutate(viewer: string, query: string, variables: Json, name: string): Promise<Json> {
    const res = await gql<Record<string, Json>>(t, query, { headers: as(viewer), variables });
    expect(mutationError(res, name)).toBeNull();
    return res.data?.[name] as Json;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const login of ['alice', 'bob', 'carol', 'dave', 'erin']) users[login] = await t.createUser(login);
    const acme = await createOrgAs(t, users.alice!, 'acme');
    await addMember(t, acme, users.bob!, { isPublic: false });
    await addMember(t, acme, users.erin!, { isPublic: true });
    await f.createRepo('alice', 'app');
    await rest('alice', 'POST', 'orgs/acme/repos', { name: 'tool' });
    await rest('alice', 'PUT', 'repos/acme/tool/collaborators/carol', { permission: 'read' });
    await rest('alice', 'POST', 'user/repos', { name: 'secret', private: true });
    pull = await f.pushAndOpen('alice', 'app', 'alice', 'topic', { 'a.txt': 'a\n' });
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('projectCards: the projects an issue is on, with the column it sits in (the default one when its column is gone)', async () => {
    const board = (await rest('alice', 'POST', 'repos/alice/app/projects', { title: 'Board' })) as { id: number };
    const roadmap = (await rest('alice', 'POST', 'repos/alice/app/projects', { title: 'Roadmap' })) as { id: number };
    const repo = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', lowerName: 'app' } });
    const created = await mutate(
      'alice',
      'mutation($input: CreateIssueInput!) { createIssue(input: $input) { issue { number } } }',
      {
        input: {
          repositoryId: encodeGlobalID('Repository', repo.id),
          title: 'planned',
          projectIds: [encodeGlobalID('Project', board.id), encodeGlobalID('Project', roadmap.id)],
        },
      },
      'createIssue',
    );
    const number = (created.issue as { number: number }).number;
    // No service moves a card between columns yet: the column and the move are written directly.
    const doing = await t.db.projectColumn.create({ data: { projectId: board.id, title: 'Doing', sorting: 1 } });
    await t.db.projectIssue.updateMany({ where: { projectId: board.id }, data: { projectColumnId: doing.id } });

    const cards = async () => (await issueView('dave', 'alice', 'app', number)).projectCards;
    expect(await cards()).toEqual({
      totalCount: 2,
      nodes: [
        { project: { name: 'Board' }, column: { name: 'Doing' } },
        { project: { name: 'Roadmap' }, column: { name: 'Uncategorized' } },
      ],
    });
    await t.db.projectColumn.delete({ where: { id: doing.id } });
    expect((await cards()).nodes[0]).toEqual({ project: { name: 'Board' }, column: { name: 'Uncategorized' } });

    // Paging and archivedStates (no card is archived); node(id:) answers a card.
    const q = `{ repository(owner: "alice", name: "app") { issue(number: ${number}) {
      page: projectCards(first: 1) { totalCount pageInfo { hasNextPage } nodes { id databaseId isArchived project { name } } }
      archived: projectCards(first: 5, archivedStates: [ARCHIVED]) { totalCount nodes { id } }
      live: projectCards(first: 5, archivedStates: [NOT_ARCHIVED]) { totalCount } } } }`;
    type Out = {
      repository: {
        issue: {
          page: { totalCount: number; pageInfo: { hasNextPage: boolean }; nodes: { id: string; isArchived: boolean; project: Json }[] };
          archived: { totalCount: number; nodes: unknown[] };
          live: { totalCount: number };
        };
      };
    };
    const res = await gql<Out>(t, q, { headers: basic('dave') });
    expect(res.errors).toBeUndefined();
    const issue = res.data!.repository.issue;
    expect(issue.page).toMatchObject({
      totalCount: 2,
      pageInfo: { hasNextPage: true },
      nodes: [{ isArchived: false, project: { name: 'Board' } }],
    });
    expect(issue.archived).toEqual({ totalCount: 0, nodes: [] });
    expect(issue.live.totalCount).toBe(2);
    const card = issue.page.nodes[0]!.id;
    const node = await gql<{ node: Json | null }>(
      t,
      `{ node(id: "${card}") { __typename ... on ProjectCard { project { name } column { name } } } }`,
      {
        headers: basic('dave'),
      },
    );
    expect(node.data?.node).toEqual({ __typename: 'ProjectCard', project: { name: 'Board' }, column: { name: 'Uncategorized' } });
  });

  it('a pull request answers projectCards, reactionGroups and authorAssociation as an issue does', async () => {
    const project = (await rest('alice', 'POST', 'repos/alice/app/projects', { title: 'Reviews' })) as { id: number };
    const ids = await gql<{ repository: { pullRequest: { issue: { id: string } } } }>(
      t,
      `{ repository(owner: "alice", name: "app") { pullRequest(number: ${pull}) { issue { id } } } }`,
      { headers: basic('alice') },
    );
    await mutate(
      'alice',
      'mutation($issue: ID!, $project: ID!) { addIssueToProject(input: { issueId: $issue, projectId: $project }) { clientMutationId } }',
      { issue: ids.data?.repository.pullRequest.issue.id, project: encodeGlobalID('Project', project.id) },
      'addIssueToProject',
    );
    await rest('alice', 'POST', `repos/alice/app/issues/${pull}/reactions`, { content: 'rocket' });
    await rest('carol', 'POST', `repos/alice/app/issues/${pull}/reactions`, { content: 'rocket' });
    await rest('dave', 'POST', `repos/alice/app/issues/${pull}/reactions`, { content: 'eyes' });
    const res = await gql<{ repository: { pullRequest: View } }>(
      t,
      `{ repository(owner: "alice", name: "app") { pullRequest(number: ${pull}) {
        authorAssociation projectCards(first: 100) { nodes { project { name } column { name } } totalCount }
        reactionGroups { content users { totalCount } } } } }`,
      { headers: basic('dave') },
    );
    expect(res.errors).toBeUndefined();
    const pr = res.data!.repository.pullRequest;
    expect(pr.authorAssociation).toBe('OWNER');
    expect(pr.projectCards).toEqual({ totalCount: 1, nodes: [{ project: { name: 'Reviews' }, column: { name: 'Uncategorized' } }] });
    expect(counts(pr.reactionGroups)).toEqual({ ROCKET: 2, EYES: 1 });
    expect(pr.reactionGroups.map((g) => g.content)).toEqual([
      'THUMBS_UP',
      'THUMBS_DOWN',
      'LAUGH',
      'HOORAY',
      'CONFUSED',
      'HEART',
      'ROCKET',
      'EYES',
    ]);
  });

  it('authorAssociation: OWNER, MEMBER and COLLABORATOR, each only where the viewer may see the membership or collaboration', async () => {
    const issue = (await rest('alice', 'POST', 'repos/acme/tool/issues', { title: 'tool issue', body: 'by an owner' })) as {
      number: number;
    };
    const path = `repos/acme/tool/issues/${issue.number}/comments`;
    for (const who of ['bob', 'erin', 'carol', 'dave']) await rest(who, 'POST', path, { body: `from ${who}` });
    const own = (await rest('alice', 'POST', 'repos/alice/app/issues', { title: 'own' })) as { number: number };
    await rest('alice', 'POST', `repos/alice/app/issues/${own.number}/comments`, { body: 'from alice' });
    await rest('dave', 'POST', `repos/alice/app/issues/${own.number}/comments`, { body: 'from dave' });

    const associations = async (viewer: string) => {
      const v = await issueView(viewer, 'acme', 'tool', issue.number);
      return [v.authorAssociation, ...v.comments.nodes.map((c) => `${c.author?.login}:${c.authorAssociation}`)];
    };
    // A member of acme sees every membership; alice (of the Owners team) is a MEMBER of the organization that owns it.
    expect(await associations('bob')).toEqual(['MEMBER', 'bob:MEMBER', 'erin:MEMBER', 'carol:COLLABORATOR', 'dave:NONE']);
    // An outsider sees public memberships only (bob's is private, and so is alice's: Gitea's default), and
    // collaborators when signed in.
    expect(await associations('dave')).toEqual(['NONE', 'bob:NONE', 'erin:MEMBER', 'carol:COLLABORATOR', 'dave:NONE']);
    // Anonymous viewers may not list collaborators (Gitea's GET …/collaborators needs a signed-in viewer).
    expect(await associations('anon')).toEqual(['NONE', 'bob:NONE', 'erin:MEMBER', 'carol:NONE', 'dave:NONE']);

    const mine = await issueView('anon', 'alice', 'app', own.number);
    expect([mine.authorAssociation, ...mine.comments.nodes.map((c) => c.authorAssociation)]).toEqual(['OWNER', 'OWNER', 'NONE']);

    // A migrated comment is posted by the migrating user on behalf of the source's author: a mannequin. Migrations
    // write these columns (services/migration); the test writes them on a plain comment.
    const comment = await t.db.comment.findFirstOrThrow({ where: { content: 'from dave', issue: { repo: { lowerName: 'tool' } } } });
    await t.db.comment.update({ where: { id: comment.id }, data: { originalAuthor: 'someone', originalAuthorId: 42 } });
    expect((await associations('bob')).at(-1)).toBe('dave:MANNEQUIN');
  });

  it('comments: includesCreatedEdit once edited, never minimized, reactions counted per content', async () => {
    const issue = (await rest('alice', 'POST', 'repos/alice/app/issues', { title: 'talk' })) as { number: number };
    const first = (await rest('dave', 'POST', `repos/alice/app/issues/${issue.number}/comments`, { body: 'first' })) as { id: number };
    await rest('carol', 'POST', `repos/alice/app/issues/${issue.number}/comments`, { body: 'second' });
    await rest('dave', 'PATCH', `repos/alice/app/issues/comments/${first.id}`, { body: 'first, edited' });
    await rest('alice', 'POST', `repos/alice/app/issues/comments/${first.id}/reactions`, { content: 'heart' });
    await rest('carol', 'POST', `repos/alice/app/issues/comments/${first.id}/reactions`, { content: 'heart' });
    await rest('carol', 'POST', `repos/alice/app/issues/${issue.number}/reactions`, { content: '+1' });
    const v = await issueView('erin', 'alice', 'app', issue.number);
    expect(counts(v.reactionGroups)).toEqual({ THUMBS_UP: 1 });
    expect(v.comments.totalCount).toBe(2);
    expect(v.comments.nodes.map((c) => ({ ...c, reactionGroups: counts(c.reactionGroups) }))).toEqual([
      {
        author: { login: 'dave' },
        authorAssociation: 'NONE',
        body: 'first, edited',
        createdAt: expect.any(String) as string,
        includesCreatedEdit: true,
        isMinimized: false,
        minimizedReason: null,
        reactionGroups: { HEART: 2 },
      },
      {
        author: { login: 'carol' },
        authorAssociation: 'NONE',
        body: 'second',
        createdAt: expect.any(String) as string,
        includesCreatedEdit: false,
        isMinimized: false,
        minimizedReason: null,
        reactionGroups: {},
      },
    ]);
  });

  it('cards on projects the viewer may not see are left out of projectCards, its totalCount and node(id:)', async () => {
    await rest('alice', 'POST', 'user/repos', { name: 'boards' });
    const project = (await rest('alice', 'POST', 'repos/alice/boards/projects', { title: 'Soon gone' })) as { id: number };
    const issue = (await rest('alice', 'POST', 'repos/alice/boards/issues', { title: 'on a board', projects: [project.id] })) as {
      number: number;
    };
    const q = `{ repository(owner: "alice", name: "boards") { issue(number: ${issue.number}) { title projectCards(first: 5) { totalCount nodes { id } } } } }`;
    type Out = { repository: { issue: { title: string; projectCards: { totalCount: number; nodes: { id: string }[] } } } };
    const before = await gql<Out>(t, q, { headers: basic('dave') });
    const card = before.data?.repository.issue.projectCards.nodes[0]?.id;
    expect(before.data?.repository.issue.projectCards.totalCount).toBe(1);
    // Without the projects unit the repository's projects do not exist; the issue stays readable.
    await rest('alice', 'PATCH', 'repos/alice/boards', { has_projects: false });
    const after = await gql<Out>(t, q, { headers: basic('dave') });
    expect(after.data?.repository.issue).toEqual({ title: 'on a board', projectCards: { totalCount: 0, nodes: [] } });
    const node = await gql<{ node: unknown }>(t, `{ node(id: "${card}") { id } }`, { headers: basic('dave') });
    expect(node.data?.node).toBeNull();
  });

  it("a private repository's issue, its cards and its comments stay hidden from those who may not read it", async () => {
    const project = (await rest('alice', 'POST', 'repos/alice/secret/projects', { title: 'Hidden' })) as { id: number };
    const issue = (await rest('alice', 'POST', 'repos/alice/secret/issues', { title: 'secret', projects: [project.id] })) as {
      number: number;
    };
    await rest('alice', 'POST', `repos/alice/secret/issues/${issue.number}/comments`, { body: 'psst' });
    const owner = await issueView('alice', 'alice', 'secret', issue.number);
    expect(owner.projectCards.nodes).toEqual([{ project: { name: 'Hidden' }, column: { name: 'Uncategorized' } }]);
    expect(owner.comments.nodes.map((c) => c.authorAssociation)).toEqual(['OWNER']);
    const ids = await gql<{
      repository: { issue: { id: string; projectCards: { nodes: { id: string }[] }; comments: { nodes: { id: string }[] } } };
    }>(
      t,
      `{ repository(owner: "alice", name: "secret") { issue(number: ${issue.number}) { id projectCards(first: 5) { nodes { id } } comments(first: 5) { nodes { id } } } } }`,
      { headers: basic('alice') },
    );
    const secret = ids.data!.repository.issue;

    for (const viewer of ['dave', 'anon']) {
      const res = await view(viewer, 'alice', 'secret', issue.number);
      expect(res.data?.repository ?? null).toBeNull();
      expect((res.errors ?? []).every((e) => e.type === 'NOT_FOUND')).toBe(true);
      const nodes = await gql<{ nodes: unknown[] }>(t, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
        headers: as(viewer),
        variables: { ids: [secret.id, secret.projectCards.nodes[0]!.id, secret.comments.nodes[0]!.id] },
      });
      expect(nodes.data?.nodes).toEqual([null, null, null]);
    }
  });
});
