import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createMilestone, createRepoLabel, editRepo } from '../helpers/fixtures.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { createOrgAs } from '../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;
interface Payload {
  __typename: string;
  assignable?: { number: number; assignees: { nodes: { login: string }[] } };
  labelable?: { number: number; labels: { totalCount: number; nodes: { name: string }[] } };
}
/** A mutation's payload (null when refused) and its refusal (null when it succeeded). */
interface Result {
  payload: Payload | null;
  error: MutationError | null;
}

describe.each(PROVIDERS)('GraphQL issue assignment and labels (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const labels: Record<string, Models.Label> = {};

  const issueId = (issue: Json) => encodeGlobalID('Issue', issue.id as number);
  const userId = (login: string) => encodeGlobalID('User', users[login]!.id);
  const labelId = (key: string) => encodeGlobalID('Label', labels[key]!.id);
  async function newIssue(p: string, poster = 'owner', body: Json = {}): Promise<Json> {
    const res = await t.request('POST', `/api/v1/repos/${p}/issues`, {
      headers: as(poster),
      body: { title: `issue by ${poster}`, ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function newRepo(owner: string, name: string, isPrivate: boolean, path = '/api/v1/user/repos'): Promise<Models.Repository> {
    const res = await t.request('POST', path, { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  const ASSIGNABLE = 'assignable { ... on Issue { number assignees(first: 10) { nodes { login } } } }';
  const LABELABLE = 'labelable { ... on Issue { number labels(first: 10) { totalCount nodes { name } } } }';
  async function mutate(name: string, input: Json, viewer: string): Promise<Result> {
    const payload = name.includes('Assignee') ? ASSIGNABLE : LABELABLE;
    const type = name.charAt(0).toUpperCase() + name.slice(1);
    const res = await gql<Record<string, Payload | null>>(
      t,
      `mutation($input: ${type}Input!) { ${name}(input: $input) { __typename ${payload} } }`,
      { headers: as(viewer), variables: { input } },
    );
    const error = mutationError(res, name);
    const result = res.data?.[name] ?? null;
    if (!error && !result) throw new Error(`no ${name} result: ${JSON.stringify(res)}`);
    return { payload: result, error };
  }
  const labelNames = (r: Result) => r.payload?.labelable?.labels.nodes.map((l) => l.name);

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'reader', 'writer', 'stranger', 'orgowner']) users[n] = await t.createUser(n);
    users.admin = await t.createUser('admin', { admin: true });
    repos.pub = await newRepo('owner', 'pub', false);
    repos.priv = await newRepo('owner', 'priv', true);
    repos.arch = await newRepo('owner', 'arch', false);
    const org = await createOrgAs(t, users.orgowner!, 'acme');
    repos.org = await newRepo('orgowner', 'orepo', false, '/api/v1/orgs/acme/repos');
    repos.orgPriv = await newRepo('orgowner', 'hidden', true, '/api/v1/orgs/acme/repos');
    for (const r of [repos.pub, repos.priv, repos.arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
    }
    const mk = async (key: string, data: { repoId?: number; orgId?: number; name: string; exclusive?: boolean }) => {
      labels[key] = await t.db.label.create({ data: { color: '00ff00', ...data } });
    };
    await mk('bug', { repoId: repos.pub.id, name: 'bug' });
    await mk('docs', { repoId: repos.pub.id, name: 'docs' });
    await mk('kindA', { repoId: repos.pub.id, name: 'kind/a', exclusive: true });
    await mk('kindB', { repoId: repos.pub.id, name: 'kind/b', exclusive: true });
    await mk('secret', { repoId: repos.priv.id, name: 'secret' });
    await mk('orgL', { orgId: org.id, name: 'org-l' });
  });
  afterAll(() => t.close());

  it('addAssigneesToAssignable / removeAssigneesFromAssignable call the REST service: same rules, typed errors', async () => {
    const issue = await newIssue('owner/pub');
    // GitHub's input: the users by global id.
    const added = await mutate(
      'addAssigneesToAssignable',
      { assignableId: issueId(issue), assigneeIds: [userId('reader'), userId('owner')] },
      'writer',
    );
    expect(added.payload).toMatchObject({
      __typename: 'AddAssigneesToAssignablePayload',
      assignable: { number: issue.number, assignees: { nodes: [{ login: 'reader' }, { login: 'owner' }] } },
    });
    expect(await t.db.comment.count({ where: { issueId: issue.id as number, type: 'ASSIGNEES' } })).toBe(2);
    const removed = await mutate(
      'removeAssigneesFromAssignable',
      { assignableId: issueId(issue), assigneeIds: [userId('reader')], assigneeLogins: ['stranger'] },
      'owner',
    );
    expect(removed.payload?.assignable?.assignees.nodes).toEqual([{ login: 'owner' }]);
    expect((await t.request('GET', `/api/v1/repos/owner/pub/issues/${issue.number}`)).json().assignees.map((u: Json) => u.login)).toEqual([
      'owner',
    ]);

    const input = { assignableId: issueId(issue), assigneeIds: [userId('owner')] };
    expect((await mutate('addAssigneesToAssignable', input, 'reader')).error).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect((await mutate('addAssigneesToAssignable', input, 'anon')).error).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(
      (await mutate('addAssigneesToAssignable', { ...input, assigneeIds: [], assigneeLogins: ['nobody'] }, 'writer')).error,
    ).toMatchObject({
      code: 'VALIDATION',
      message: 'user does not exist [uid: 0, name: nobody]',
    });
    const ghost = encodeGlobalID('User', 987654);
    expect((await mutate('addAssigneesToAssignable', { ...input, assigneeIds: [ghost] }, 'writer')).error).toMatchObject({
      code: 'VALIDATION',
      message: 'user does not exist [uid: 987654]',
    });
    expect((await mutate('addAssigneesToAssignable', { ...input, assigneeIds: [labelId('bug')] }, 'writer')).error).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(
      (await mutate('addAssigneesToAssignable', { ...input, assigneeIds: [], assigneeLogins: ['acme'] }, 'writer')).error,
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect((await mutate('addAssigneesToAssignable', { ...input, assignableId: labelId('bug') }, 'writer')).error).toMatchObject({
      code: 'NOT_FOUND',
    });
    const secret = await newIssue('owner/priv');
    const hidden = { assignableId: issueId(secret), assigneeIds: [userId('owner')] };
    expect((await mutate('addAssigneesToAssignable', hidden, 'stranger')).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await mutate('removeAssigneesFromAssignable', hidden, 'anon')).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await mutate('addAssigneesToAssignable', { ...hidden, assigneeIds: [userId('stranger')] }, 'writer')).error).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect((await mutate('addAssigneesToAssignable', hidden, 'admin')).payload?.assignable?.assignees.nodes).toEqual([{ login: 'owner' }]);
  });

  it('addLabelsToLabelable / removeLabelsFromLabelable / clearLabelsFromLabelable: exclusive scopes, foreign labels, roles', async () => {
    const issue = await newIssue('owner/pub');
    const id = issueId(issue);
    const added = await mutate(
      'addLabelsToLabelable',
      { labelableId: id, labelIds: [labelId('bug'), labelId('kindA'), labelId('secret'), labelId('orgL')] },
      'writer',
    );
    expect(added.payload?.__typename).toBe('AddLabelsToLabelablePayload');
    expect(labelNames(added)).toEqual(['bug', 'kind/a']);
    expect(
      labelNames(await mutate('addLabelsToLabelable', { labelableId: id, labelIds: [labelId('kindB'), labelId('docs')] }, 'owner')),
    ).toEqual(['bug', 'kind/b', 'docs']);
    expect((await t.request('GET', `/api/v1/repos/owner/pub/issues/${issue.number}/labels`)).json().map((l: Json) => l.name)).toEqual([
      'bug',
      'docs',
      'kind/b',
    ]);
    expect(
      labelNames(await mutate('removeLabelsFromLabelable', { labelableId: id, labelIds: [labelId('bug'), labelId('kindA')] }, 'writer')),
    ).toEqual(['kind/b', 'docs']);
    expect((await mutate('removeLabelsFromLabelable', { labelableId: id, labelIds: [labelId('secret')] }, 'writer')).error).toMatchObject({
      code: 'VALIDATION',
      message: `label does not exist [label_id: ${labels.secret!.id}]`,
    });
    expect(
      (await mutate('removeLabelsFromLabelable', { labelableId: id, labelIds: [encodeGlobalID('User', 1)] }, 'writer')).error,
    ).toMatchObject({
      code: 'NOT_FOUND',
    });
    const cleared = await mutate('clearLabelsFromLabelable', { labelableId: id }, 'admin');
    expect(cleared.payload?.labelable?.labels).toEqual({ totalCount: 0, nodes: [] });
    expect(await t.db.label.findUniqueOrThrow({ where: { id: labels.kindB!.id } })).toMatchObject({ numIssues: 0 });

    for (const viewer of ['reader', 'stranger']) {
      expect((await mutate('addLabelsToLabelable', { labelableId: id, labelIds: [labelId('bug')] }, viewer)).error).toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      expect((await mutate('clearLabelsFromLabelable', { labelableId: id }, viewer)).error).toMatchObject({ code: 'PERMISSION_DENIED' });
    }
    expect((await mutate('clearLabelsFromLabelable', { labelableId: id }, 'anon')).error).toMatchObject({ code: 'UNAUTHENTICATED' });
    const secret = await newIssue('owner/priv');
    for (const viewer of ['stranger', 'anon']) {
      expect(
        (await mutate('addLabelsToLabelable', { labelableId: issueId(secret), labelIds: [labelId('secret')] }, viewer)).error,
      ).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect((await mutate('clearLabelsFromLabelable', { labelableId: issueId(secret) }, viewer)).error).toMatchObject({
        code: 'NOT_FOUND',
      });
    }
    expect((await mutate('clearLabelsFromLabelable', { labelableId: encodeGlobalID('Issue', 999999) }, 'owner')).error).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(
      labelNames(await mutate('addLabelsToLabelable', { labelableId: issueId(secret), labelIds: [labelId('secret')] }, 'writer')),
    ).toEqual(['secret']);
    const old = await newIssue('owner/arch');
    await editRepo(t, repos.arch!, { archived: true });
    expect((await mutate('addLabelsToLabelable', { labelableId: issueId(old), labelIds: [] }, 'owner')).error).toMatchObject({
      code: 'REPO_ARCHIVED',
    });
    expect((await mutate('addAssigneesToAssignable', { assignableId: issueId(old), assigneeIds: [] }, 'owner')).error).toMatchObject({
      code: 'REPO_ARCHIVED',
    });
  });

  it('Label.issues lists the visible issues carrying the label, with states, orderBy, pagination and totalCount', async () => {
    const repo = await newRepo('owner', 'lab', false);
    const hot = await createRepoLabel(t, repo, { name: 'hot', color: 'ff0000' });
    const nums: number[] = [];
    for (let i = 0; i < 4; i++) nums.push((await newIssue('owner/lab', 'owner', { labels: [hot.id], closed: i === 3 })).number as number);
    await newIssue('owner/lab');
    type Conn = { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: { number: number }[] };
    const q = `query($after: String, $states: [IssueState!], $order: IssueOrder) { node(id: "${encodeGlobalID('Label', hot.id)}") { ... on Label { issues(first: 2, after: $after, states: $states, orderBy: $order) { totalCount pageInfo { hasNextPage endCursor } nodes { number } } } } }`;
    const run = async (variables: Json, viewer = 'anon') => {
      const res = await gql<{ node: { issues: Conn } | null }>(t, q, { headers: as(viewer), variables });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data!.node!.issues;
    };
    const first = await run({});
    expect(first.totalCount).toBe(4);
    expect(first.nodes.map((n) => n.number)).toEqual([nums[3], nums[2]]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await run({ after: first.pageInfo.endCursor });
    expect(second.nodes.map((n) => n.number)).toEqual([nums[1], nums[0]]);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const open = await run({ states: ['OPEN'], order: { field: 'CREATED_AT', direction: 'ASC' } });
    expect(open.totalCount).toBe(3);
    expect(open.nodes.map((n) => n.number)).toEqual([nums[0], nums[1]]);
    const next = await run({ states: ['OPEN'], order: { field: 'CREATED_AT', direction: 'ASC' }, after: open.pageInfo.endCursor });
    expect(next.nodes.map((n) => n.number)).toEqual([nums[2]]);

    // An organization label on issues of a public and a private repository: strangers see only the public one.
    const orgLabel = labels.orgL!;
    await newIssue('acme/orepo', 'orgowner', { labels: [orgLabel.id] });
    await newIssue('acme/hidden', 'orgowner', { labels: [orgLabel.id] });
    const oq = `{ node(id: "${encodeGlobalID('Label', orgLabel.id)}") { ... on Label { issues(first: 10) { totalCount nodes { repository { name } } } } } }`;
    const seen = async (viewer: string) =>
      (await gql<{ node: { issues: { totalCount: number; nodes: { repository: { name: string } }[] } } }>(t, oq, { headers: as(viewer) }))
        .data!.node.issues;
    expect(await seen('stranger')).toEqual({ totalCount: 1, nodes: [{ repository: { name: 'orepo' } }] });
    expect((await seen('orgowner')).totalCount).toBe(2);
    expect((await seen('admin')).totalCount).toBe(2);
  });

  it('Repository.issues takes labels, orderBy and filterBy (assignee, createdBy, mentioned, milestoneNumber, states, since)', async () => {
    const repo = await newRepo('owner', 'filters', false);
    const red = await createRepoLabel(t, repo, { name: 'red', color: '0000ff' });
    const blue = await createRepoLabel(t, repo, { name: 'blue', color: '0000ff' });
    const ms = await createMilestone(t, repo, { title: 'v1' });
    const i1 = await newIssue('owner/filters', 'owner', { labels: [red!.id, blue!.id], assignees: ['writer'], milestone: ms.id });
    const i2 = await newIssue('owner/filters', 'stranger');
    const i3 = await newIssue('owner/filters', 'owner', { labels: [red!.id], closed: true });
    await t.db.issue.update({ where: { id: i2.id as number }, data: { numComments: 5 } });
    await t.db.issueUser.create({ data: { issueId: i3.id as number, userId: users.reader!.id, isMentioned: true } });
    const numbers = async (args: string, viewer = 'anon'): Promise<number[]> => {
      const res = await gql<{ repository: { issues: { totalCount: number; nodes: { number: number }[] } } }>(
        t,
        `{ repository(owner: "owner", name: "filters") { issues(first: 10, ${args}) { totalCount nodes { number } } } }`,
        { headers: as(viewer) },
      );
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      const conn = res.data!.repository.issues;
      expect(conn.totalCount).toBe(conn.nodes.length);
      return conn.nodes.map((n) => n.number);
    };
    const [n1, n2, n3] = [i1.number, i2.number, i3.number] as number[];
    expect(await numbers('states: [OPEN, CLOSED]')).toEqual([n3, n2, n1]);
    expect(await numbers('labels: ["red"]')).toEqual([n3, n1]);
    expect(await numbers('labels: ["red", "blue"]')).toEqual([n1]);
    expect(await numbers('labels: ["red", "nope"]')).toEqual([]);
    expect(await numbers('orderBy: { field: CREATED_AT, direction: ASC }')).toEqual([n1, n2, n3]);
    expect(await numbers('orderBy: { field: COMMENTS, direction: DESC }, states: [OPEN]')).toEqual([n2, n1]);
    expect(await numbers('orderBy: { field: UPDATED_AT, direction: DESC }')).toHaveLength(3);
    expect(await numbers('filterBy: { assignee: "WRITER" }')).toEqual([n1]);
    expect(await numbers('filterBy: { assignee: "*" }')).toEqual([n1]);
    expect(await numbers('filterBy: { assignee: null }')).toEqual([n3, n2]);
    expect(await numbers('filterBy: { createdBy: "stranger" }')).toEqual([n2]);
    expect(await numbers('filterBy: { createdBy: "ghost" }')).toEqual([]);
    expect(await numbers('filterBy: { mentioned: "reader" }')).toEqual([n3]);
    expect(await numbers(`filterBy: { milestoneNumber: "${ms.id}" }`)).toEqual([n1]);
    expect(await numbers('filterBy: { milestoneNumber: "*" }')).toEqual([n1]);
    expect(await numbers('filterBy: { milestoneNumber: null }')).toEqual([n3, n2]);
    expect(await numbers('filterBy: { milestoneNumber: "x" }')).toEqual([]);
    expect(await numbers('filterBy: { states: [CLOSED], labels: ["red"] }')).toEqual([n3]);
    expect(await numbers('states: [OPEN], filterBy: { states: [CLOSED] }')).toEqual([]);
    expect(await numbers('filterBy: { since: "2999-01-01T00:00:00Z" }')).toEqual([]);
    expect(await numbers('filterBy: { since: "2000-01-01T00:00:00Z" }')).toHaveLength(3);
    // viewerSubscribed: Gitea's subscription rule (poster, participant, repository watcher, explicit subscription,
    // unless explicitly unsubscribed); nothing for an anonymous viewer.
    const subscription = (n: number | undefined, login: string, method: 'PUT' | 'DELETE') =>
      t.request(method, `/api/v1/repos/owner/filters/issues/${n ?? 0}/subscriptions/${login}`, { headers: basic(login) });
    expect((await subscription(n1, 'reader', 'PUT')).statusCode).toBe(201);
    expect(await numbers('filterBy: { viewerSubscribed: true }', 'reader')).toEqual([n1]);
    expect(await numbers('filterBy: { viewerSubscribed: true }', 'stranger')).toEqual([n2]);
    expect(await numbers('filterBy: { viewerSubscribed: true }', 'owner')).toEqual([n3, n2, n1]);
    expect((await subscription(n3, 'owner', 'DELETE')).statusCode).toBe(201);
    expect(await numbers('filterBy: { viewerSubscribed: true }', 'owner')).toEqual([n2, n1]);
    expect(await numbers('filterBy: { viewerSubscribed: true }')).toEqual([]);
    expect(await numbers('filterBy: { viewerSubscribed: false }')).toHaveLength(3);
    // Issue.labels: the order they were added, unless orderBy says otherwise.
    const labelsOf = async (args: string): Promise<string[]> => {
      const res = await gql<{ repository: { issue: { labels: { nodes: { name: string }[] } } } }>(
        t,
        `{ repository(owner: "owner", name: "filters") { issue(number: ${n1}) { labels(first: 5${args}) { nodes { name } } } } }`,
        { headers: as('anon') },
      );
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data!.repository.issue.labels.nodes.map((l) => l.name);
    };
    expect(await labelsOf('')).toEqual(['red', 'blue']);
    expect(await labelsOf(', orderBy: { field: NAME, direction: ASC }')).toEqual(['blue', 'red']);
    expect(await labelsOf(', orderBy: { field: NAME, direction: DESC }')).toEqual(['red', 'blue']);
    expect(await labelsOf(', orderBy: { field: CREATED_AT, direction: DESC }')).toEqual(['blue', 'red']);
    // GitHub's filterBy.milestone: a database id, `*`, or `none`.
    expect(await numbers(`filterBy: { milestone: "${ms.id}" }`)).toEqual([n1]);
    expect(await numbers('filterBy: { milestone: "*" }')).toEqual([n1]);
    expect(await numbers('filterBy: { milestone: "none" }')).toEqual([n3, n2]);

    // Milestone.issues takes the same arguments (within the milestone).
    await t.request('PATCH', `/api/v1/repos/owner/filters/issues/${n3}`, { headers: basic('owner'), body: { milestone: ms.id } });
    const inMilestone = async (args: string): Promise<number[]> => {
      const res = await gql<{ repository: { milestone: { issues: { totalCount: number; nodes: { number: number }[] } } } }>(
        t,
        `{ repository(owner: "owner", name: "filters") { milestone(number: ${ms.id}) { issues(first: 10${args}) { totalCount nodes { number } } } } }`,
        { headers: as('anon') },
      );
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      const conn = res.data!.repository.milestone.issues;
      expect(conn.totalCount).toBe(conn.nodes.length);
      return conn.nodes.map((n) => n.number);
    };
    expect(await inMilestone('')).toEqual([n3, n1]);
    expect(await inMilestone(', orderBy: { field: CREATED_AT, direction: ASC }')).toEqual([n1, n3]);
    expect(await inMilestone(', labels: ["blue"]')).toEqual([n1]);
    expect(await inMilestone(', filterBy: { states: [CLOSED] }')).toEqual([n3]);
    expect(await inMilestone(', states: [OPEN], filterBy: { assignee: "writer" }')).toEqual([n1]);
  });

  it('Label { issues(first: 50) { author labels assignees } } costs the same statements for 2 and 20 issues', async () => {
    const repo = await newRepo('owner', 'many', false);
    const tag = await createRepoLabel(t, repo, { name: 'tag', color: '00ff00' });
    const other = await createRepoLabel(t, repo, { name: 'other', color: '00ff00' });
    const add = async (n: number) => {
      for (let i = 0; i < n; i++) await newIssue('owner/many', 'owner', { labels: [tag.id, other.id], assignees: ['writer'] });
    };
    const q = `{ node(id: "${encodeGlobalID('Label', tag.id)}") { ... on Label { name issues(first: 50, states: [OPEN], orderBy: { field: UPDATED_AT, direction: DESC }) { totalCount nodes { number author { login } labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } } } } } }`;
    const measure = async () => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<{ node: { issues: { totalCount: number; nodes: unknown[] } } }>(t, q, { headers: basic('reader') });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return { statements: t.queries.length, total: res.data!.node.issues.totalCount, sql: [...t.queries] };
    };
    await add(2);
    await measure(); // warm-up (PostgreSQL type lookups once per connection)
    const small = await measure();
    await add(18);
    const large = await measure();
    // Logged so the figures are visible in CI output.
    console.info(
      `[${provider}] Label.issues(first: 50) with author/labels/assignees: ${small.statements} statements for 2 issues, ${large.statements} for 20`,
    );
    expect(small.total).toBe(2);
    expect(large.total).toBe(20);
    expect(large.statements, large.sql.join('\n')).toBe(small.statements);
  });
});
