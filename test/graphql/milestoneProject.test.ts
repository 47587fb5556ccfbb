import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

describe.each(PROVIDERS)('GraphQL milestones and projects (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  /** Runs a query as `viewer`, expects no top-level errors, returns `data`. */
  async function q<T = Json>(viewer: string, query: string, variables?: Record<string, unknown>): Promise<T> {
    const res = await gql<T>(t, query, { headers: as(viewer), variables });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data as T;
  }
  /** Runs `name(input: <input>)` as `viewer`, expects it refused, and returns the error at its path. */
  async function refused(viewer: string, name: string, input: string): Promise<MutationError> {
    const res = await gql<Json>(t, `mutation { ${name}(input: ${input}) { clientMutationId } }`, { headers: as(viewer) });
    const error = mutationError(res, name);
    if (!error) throw new Error(`${name} was not refused: ${JSON.stringify(res)}`);
    return error;
  }
  async function rest(viewer: string, method: string, path: string, body?: unknown): Promise<Json> {
    const res = await t.request(method, `/api/v1/${path}`, { headers: as(viewer), ...(body === undefined ? {} : { body }) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.body ? (res.json() as Json) : {};
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'reader', 'stranger', 'orgowner', 'planner']) users[n] = await t.createUser(n);
    await rest('owner', 'POST', 'user/repos', { name: 'pub' });
    await rest('owner', 'POST', 'user/repos', { name: 'priv', private: true });
    await rest('owner', 'PUT', 'repos/owner/priv/collaborators/reader', { permission: 'read' });
    const acme = await createOrgAs(t, users.orgowner!, 'acme');
    await createOrgAs(t, users.orgowner!, 'hidden', 'PRIVATE');
    const planners = await t.db.team.create({
      data: { orgId: acme.id, name: 'Planners', lowerName: 'planners', authorize: 'WRITE', includesAllRepositories: true },
    });
    await t.db.teamUnit.createMany({
      data: (['PROJECTS', 'ISSUES', 'CODE'] as const).map((type) => ({
        orgId: acme.id,
        teamId: planners.id,
        type,
        accessMode: 'WRITE' as const,
      })),
    });
    await addMember(t, acme, users.planner!, { team: 'Planners' });
    await rest('orgowner', 'POST', 'orgs/acme/repos', { name: 'orepo' });
  });
  afterAll(() => t.close());

  describe('milestones', () => {
    it('createMilestone → Repository.milestones/milestone(number:) → updateMilestone → deleteMilestone, over the REST service', async () => {
      const created = await q<{ createMilestone: Json }>(
        'owner',
        `mutation { createMilestone(input: { repositoryOwner: "owner", repositoryName: "pub", title: "v1", description: "first", dueOn: "2030-01-02T03:04:05Z" }) {
          milestone { id number databaseId title description state closed dueOn url progressPercentage openIssueCount closedIssueCount } } }`,
      );
      const m = created.createMilestone.milestone as Json;
      expect(m).toMatchObject({
        title: 'v1',
        description: 'first',
        state: 'OPEN',
        closed: false,
        dueOn: '2030-01-02T03:04:05.000Z',
        progressPercentage: 0,
        openIssueCount: 0,
      });
      expect(m.number).toBe(m.databaseId);
      expect(m.url).toBe(`http://localhost:3000/owner/pub/milestone/${m.number}`);
      expect((await rest('anon', 'GET', `repos/owner/pub/milestones/${m.number}`)).title).toBe('v1');

      const byNumber = await q<{ repository: { milestone: Json; milestones: Json } }>(
        'stranger',
        `{ repository(owner: "owner", name: "pub") { milestone(number: ${m.number}) { title } milestones(first: 5) { totalCount nodes { title } } } }`,
      );
      expect(byNumber.repository).toEqual({ milestone: { title: 'v1' }, milestones: { totalCount: 1, nodes: [{ title: 'v1' }] } });

      const denied = await refused('stranger', 'updateMilestone', `{ id: "${m.id}", title: "x" }`);
      expect(denied).toMatchObject({ code: 'PERMISSION_DENIED' });
      const anon = await refused('anon', 'updateMilestone', `{ id: "${m.id}", title: "x" }`);
      expect(anon).toMatchObject({ code: 'UNAUTHENTICATED' });

      const closed = await q<{ updateMilestone: { milestone: Json } }>(
        'owner',
        `mutation { updateMilestone(input: { id: "${m.id}", state: CLOSED, dueOn: "2030-05-06T10:00:00Z" }) { milestone { state closed closedAt dueOn title description } } }`,
      );
      expect(closed.updateMilestone.milestone).toMatchObject({
        state: 'CLOSED',
        closed: true,
        dueOn: '2030-05-06T23:59:59.000Z',
        title: 'v1',
        description: 'first',
      });
      expect(closed.updateMilestone.milestone.closedAt).toEqual(expect.any(String));
      const cleared = await q<{ updateMilestone: { milestone: Json } }>(
        'owner',
        `mutation { updateMilestone(input: { id: "${m.id}", clearDueOn: true, state: OPEN }) { milestone { state closedAt dueOn } } }`,
      );
      expect(cleared.updateMilestone.milestone).toEqual({ state: 'OPEN', closedAt: null, dueOn: null });

      const deleted = await q<{ deleteMilestone: Json }>(
        'owner',
        `mutation { deleteMilestone(input: { id: "${m.id}" }) { deletedMilestoneId } }`,
      );
      expect(deleted.deleteMilestone).toEqual({ deletedMilestoneId: m.id });
      expect((await q<{ node: unknown }>('owner', `{ node(id: "${m.id}") { id } }`)).node).toBeNull();
      const again = await refused('owner', 'deleteMilestone', `{ id: "${m.id}" }`);
      expect(again).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('Milestone.issues counts visible issues; filters, order and node(id:) visibility on a private repository', async () => {
      const ms = await rest('owner', 'POST', 'repos/owner/priv/milestones', { title: 'secret' });
      await rest('owner', 'POST', 'repos/owner/priv/milestones', { title: 'later', due_on: '2031-01-01T00:00:00Z' });
      await rest('owner', 'POST', 'repos/owner/priv/milestones', { title: 'sooner', due_on: '2030-01-01T00:00:00Z', state: 'closed' });
      for (const title of ['a', 'b', 'c'])
        await rest('owner', 'POST', 'repos/owner/priv/issues', { title, milestone: ms.id, closed: title === 'c' });
      const query = `{ repository(owner: "owner", name: "priv") {
        milestones(first: 10) { nodes { title } }
        open: milestones(first: 10, states: [OPEN]) { nodes { title } }
        all: milestones(first: 10, states: [OPEN, CLOSED]) { nodes { title } }
        closed: milestones(first: 10, states: [CLOSED]) { nodes { title } }
        byNumber: milestones(first: 10, orderBy: { field: NUMBER, direction: DESC }, states: [OPEN, CLOSED]) { nodes { title } }
        search: milestones(first: 10, query: "CRE") { nodes { title } }
        milestone(number: ${ms.id}) { id title progressPercentage openIssueCount closedIssueCount
          issues(first: 10) { totalCount nodes { title milestone { title } } }
          open: issues(first: 10, states: [OPEN]) { totalCount } } } }`;
      const reader = await q<{ repository: Record<string, Json> }>('reader', query);
      expect(reader.repository.milestones).toEqual({ nodes: [{ title: 'secret' }, { title: 'sooner' }, { title: 'later' }] });
      expect(reader.repository.open).toEqual({ nodes: [{ title: 'secret' }, { title: 'later' }] });
      expect(reader.repository.all).toEqual({ nodes: [{ title: 'secret' }, { title: 'sooner' }, { title: 'later' }] });
      expect(reader.repository.closed).toEqual({ nodes: [{ title: 'sooner' }] });
      expect(reader.repository.byNumber).toEqual({ nodes: [{ title: 'sooner' }, { title: 'later' }, { title: 'secret' }] });
      expect(reader.repository.search).toEqual({ nodes: [{ title: 'secret' }] });
      const milestone = reader.repository.milestone as Json;
      expect(milestone).toMatchObject({ title: 'secret', openIssueCount: 2, closedIssueCount: 1, open: { totalCount: 2 } });
      expect(milestone.progressPercentage).toBeCloseTo(100 / 3);
      expect(milestone.issues).toEqual({
        totalCount: 3,
        nodes: ['c', 'b', 'a'].map((title) => ({ title, milestone: { title: 'secret' } })),
      });
      expect((await q<{ repository: unknown }>('stranger', query)).repository).toBeNull();
      expect((await q<{ node: unknown }>('stranger', `{ node(id: "${milestone.id}") { ... on Milestone { title } } }`)).node).toBeNull();
      expect((await q<{ node: unknown }>('anon', `{ node(id: "${milestone.id}") { ... on Milestone { title } } }`)).node).toBeNull();
      expect((await q<{ node: unknown }>('reader', `{ node(id: "${milestone.id}") { ... on Milestone { title } } }`)).node).toEqual({
        title: 'secret',
      });
      const create = await refused('reader', 'createMilestone', `{ repositoryOwner: "owner", repositoryName: "priv", title: "x" }`);
      expect(create).toMatchObject({ code: 'PERMISSION_DENIED' });
      const hidden = await refused('stranger', 'createMilestone', `{ repositoryOwner: "owner", repositoryName: "priv", title: "x" }`);
      expect(hidden).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('repository { milestones { issues } } costs the same statements for 2 and 12 milestones', async () => {
      await rest('owner', 'POST', 'user/repos', { name: 'busy' });
      const add = async (from: number, to: number) => {
        for (let i = from; i < to; i++) {
          const m = await rest('owner', 'POST', 'repos/owner/busy/milestones', { title: `m${String(i).padStart(2, '0')}` });
          for (let j = 0; j < 2; j++) await rest('owner', 'POST', 'repos/owner/busy/issues', { title: `m${i}i${j}`, milestone: m.id });
        }
      };
      const query =
        '{ repository(owner: "owner", name: "busy") { milestones(first: 50) { totalCount nodes { title url progressPercentage issues(first: 10) { totalCount nodes { title author { login } } } } } } }';
      const measure = async () => {
        await t.app.deps.notifier.drain();
        t.queries.length = 0;
        const data = await q<{ repository: { milestones: { totalCount: number; nodes: { issues: { totalCount: number } }[] } } }>(
          'reader',
          query,
        );
        return { statements: t.queries.length, sql: [...t.queries], data: data.repository.milestones };
      };
      await add(0, 2);
      await measure();
      const small = await measure();
      await add(2, 12);
      const large = await measure();
      expect(small.data.totalCount).toBe(2);
      expect(large.data.totalCount).toBe(12);
      expect(large.data.nodes.every((n) => n.issues.totalCount === 2)).toBe(true);
      console.info(
        `[${provider}] repository { milestones { issues } }: ${small.statements} statements for 2 milestones, ${large.statements} for 12`,
      );
      expect(large.statements, large.sql.join('\n')).toBe(small.statements);
    });
  });

  describe('projects', () => {
    const PROJECT =
      'id number databaseId name body state closed closedAt url creator { login } owner { __typename ... on Repository { nameWithOwner } ... on Organization { login } } columns(first: 5) { totalCount nodes { name isDefault } }';

    it('createProject (repository and organization) → lists → updateProject → deleteProject, over the REST service', async () => {
      const repoProject = await q<{ createProject: { project: Json } }>(
        'owner',
        `mutation { createProject(input: { repositoryOwner: "owner", repositoryName: "pub", name: "Roadmap", body: "plans" }) { project { ${PROJECT} } } }`,
      );
      const p = repoProject.createProject.project;
      expect(p).toMatchObject({
        name: 'Roadmap',
        body: 'plans',
        state: 'OPEN',
        closed: false,
        closedAt: null,
        creator: { login: 'owner' },
        owner: { __typename: 'Repository', nameWithOwner: 'owner/pub' },
        columns: { totalCount: 1, nodes: [{ name: 'Uncategorized', isDefault: true }] },
      });
      expect(p.url).toBe(`http://localhost:3000/owner/pub/projects/${p.number}`);
      expect((await rest('anon', 'GET', `repos/owner/pub/projects/${p.number}`)).title).toBe('Roadmap');
      const orgProject = (
        await q<{ createProject: { project: Json } }>(
          'planner',
          `mutation { createProject(input: { organizationLogin: "acme", name: "Company" }) { project { ${PROJECT} } } }`,
        )
      ).createProject.project;
      expect(orgProject).toMatchObject({
        owner: { __typename: 'Organization', login: 'acme' },
        url: `http://localhost:3000/acme/-/projects/${orgProject.number}`,
      });
      const denied = await refused('stranger', 'createProject', `{ organizationLogin: "acme", name: "x" }`);
      expect(denied).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: 'user does not have organization project permission',
      });
      const invalid = await refused('owner', 'createProject', `{ repositoryOwner: "owner", repositoryName: "pub", name: " " }`);
      expect(invalid).toMatchObject({ code: 'VALIDATION', field: 'title' });

      const lists = await q<{ repository: Json; organization: Json }>(
        'stranger',
        `{ repository(owner: "owner", name: "pub") { projects(first: 5) { totalCount nodes { name } } project(number: ${p.number}) { name } }
           organization(login: "acme") { projects(first: 5) { totalCount nodes { name } } } }`,
      );
      expect(lists).toEqual({
        repository: { projects: { totalCount: 1, nodes: [{ name: 'Roadmap' }] }, project: { name: 'Roadmap' } },
        organization: { projects: { totalCount: 1, nodes: [{ name: 'Company' }] } },
      });

      const updated = await q<{ updateProject: { project: Json } }>(
        'owner',
        `mutation { updateProject(input: { projectId: "${p.id}", name: "Roadmap 2", state: CLOSED }) { project { name state closed closedAt body } } }`,
      );
      expect(updated.updateProject.project).toMatchObject({ name: 'Roadmap 2', state: 'CLOSED', closed: true, body: 'plans' });
      expect(updated.updateProject.project.closedAt).toEqual(expect.any(String));
      const openOnly = await q<{ repository: Json }>(
        'owner',
        '{ repository(owner: "owner", name: "pub") { open: projects(first: 5, states: [OPEN]) { totalCount } closed: projects(first: 5, states: [CLOSED]) { totalCount } } }',
      );
      expect(openOnly.repository).toEqual({ open: { totalCount: 0 }, closed: { totalCount: 1 } });
      const strangerEdit = await refused('stranger', 'updateProject', `{ projectId: "${p.id}", name: "x" }`);
      expect(strangerEdit).toMatchObject({ code: 'PERMISSION_DENIED' });

      const deleted = await q<{ deleteProject: Json }>(
        'planner',
        `mutation { deleteProject(input: { projectId: "${orgProject.id}" }) { deletedProjectId } }`,
      );
      expect(deleted.deleteProject).toEqual({ deletedProjectId: orgProject.id });
      expect((await q<{ node: unknown }>('orgowner', `{ node(id: "${orgProject.id}") { id } }`)).node).toBeNull();
    });

    it("createProject takes GitHub's ownerId and template (Gitea's templates), refuses what Gitea lacks; REST takes template_type", async () => {
      const ids = await q<{ repository: { id: string }; organization: { id: string }; user: { id: string } }>(
        'owner',
        '{ repository(owner: "owner", name: "pub") { id } organization(login: "acme") { id } user(login: "owner") { id } }',
      );
      const columns = (p: Json) => (p.columns as { nodes: { name: string }[] }).nodes.map((c) => c.name);
      const kanban = await q<{ createProject: { project: Json } }>(
        'owner',
        `mutation { createProject(input: { ownerId: "${ids.repository.id}", name: "Kanban", template: BASIC_KANBAN }) { project { ${PROJECT} } } }`,
      );
      expect(kanban.createProject.project.owner).toEqual({ __typename: 'Repository', nameWithOwner: 'owner/pub' });
      expect(columns(kanban.createProject.project)).toEqual(['Uncategorized', 'To Do', 'In Progress', 'Done']);
      const triage = await q<{ createProject: { project: Json } }>(
        'planner',
        `mutation { createProject(input: { ownerId: "${ids.organization.id}", name: "Bugs", template: BUG_TRIAGE }) { project { ${PROJECT} } } }`,
      );
      expect(triage.createProject.project.owner).toEqual({ __typename: 'Organization', login: 'acme' });
      expect(columns(triage.createProject.project)).toEqual(['Uncategorized', 'Needs Triage', 'High Priority', 'Low Priority', 'Closed']);
      const hiddenOrg = await t.db.user.findFirstOrThrow({ where: { lowerName: 'hidden' } });
      const hidden = encodeGlobalID('Organization', hiddenOrg.id);
      expect(await refused('stranger', 'createProject', `{ ownerId: "${hidden}", name: "x" }`)).toMatchObject({ code: 'NOT_FOUND' });
      expect(await refused('owner', 'createProject', `{ ownerId: "${ids.user.id}", name: "x" }`)).toMatchObject({ field: 'ownerId' });
      expect(
        await refused('owner', 'createProject', `{ ownerId: "${ids.repository.id}", name: "x", template: AUTOMATED_KANBAN_V2 }`),
      ).toMatchObject({ code: 'VALIDATION', field: 'template' });
      expect(
        await refused('owner', 'createProject', `{ ownerId: "${ids.repository.id}", name: "x", repositoryIds: ["${ids.repository.id}"] }`),
      ).toMatchObject({ code: 'VALIDATION', field: 'repositoryIds' });
      const kanbanId = kanban.createProject.project.id as string;
      expect(await refused('owner', 'updateProject', `{ projectId: "${kanbanId}", public: true }`)).toMatchObject({ field: 'public' });
      const viaRest = (await rest('owner', 'POST', 'repos/owner/pub/projects', { title: 'Triage', template_type: 2 })) as { id: number };
      const restColumns = await q<{ repository: { project: Json } }>(
        'owner',
        `{ repository(owner: "owner", name: "pub") { project(number: ${viaRest.id}) { ${PROJECT} } } }`,
      );
      expect(columns(restColumns.repository.project)).toHaveLength(5);
      const bad = await t.request('POST', '/api/v1/repos/owner/pub/projects', {
        headers: as('owner'),
        body: { title: 'x', template_type: 7 },
      });
      expect(bad.statusCode).toBe(422);
      for (const [viewer, id] of [
        ['owner', kanbanId],
        ['planner', triage.createProject.project.id as string],
        ['owner', encodeGlobalID('Project', viaRest.id)],
      ] as const) {
        await q(viewer, `mutation { deleteProject(input: { projectId: "${id}" }) { deletedProjectId } }`);
      }
    });

    it('projects of a private repository or organization are invisible to outsiders on every path', async () => {
      const priv = (await rest('owner', 'POST', 'repos/owner/priv/projects', { title: 'Private board' })) as { id: number };
      const secret = (await rest('orgowner', 'POST', 'orgs/hidden/projects', { title: 'Secret board' })) as { id: number };
      const ids = await q<{ repository: { project: { id: string } }; organization: { projects: { nodes: { id: string }[] } } }>(
        'orgowner',
        `{ repository(owner: "owner", name: "pub") { id } organization(login: "hidden") { projects(first: 5) { nodes { id } } } }`,
      );
      const secretId = ids.organization.projects.nodes[0]!.id;
      const privId = (
        await q<{ repository: { project: { id: string } } }>(
          'reader',
          `{ repository(owner: "owner", name: "priv") { project(number: ${priv.id}) { id } } }`,
        )
      ).repository.project.id;
      expect(secret.id).toBeGreaterThan(0);
      for (const [viewer, id] of [
        ['stranger', privId],
        ['anon', privId],
        ['stranger', secretId],
        ['planner', secretId],
      ] as const) {
        expect(
          (await q<{ node: unknown }>(viewer, `{ node(id: "${id}") { ... on Project { name } } }`)).node,
          `${viewer} ${id}`,
        ).toBeNull();
      }
      expect((await q<{ node: unknown }>('reader', `{ node(id: "${privId}") { ... on Project { name } } }`)).node).toEqual({
        name: 'Private board',
      });
      expect(
        (await q<{ organization: unknown }>('stranger', '{ organization(login: "hidden") { projects(first: 5) { totalCount } } }'))
          .organization,
      ).toBeNull();
      const edit = await refused('stranger', 'updateProject', `{ projectId: "${privId}", name: "x" }`);
      expect(edit).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('issues join projects: createIssue/updateIssue projectIds, addIssueToProject/removeIssueFromProject, Issue.projects, Project.issues', async () => {
      const board = (await rest('owner', 'POST', 'repos/owner/pub/projects', { title: 'Board' })) as { id: number };
      const other = (await rest('orgowner', 'POST', 'repos/acme/orepo/projects', { title: 'Elsewhere' })) as { id: number };
      const pub = encodeGlobalID('Repository', (await rest('owner', 'GET', 'repos/owner/pub')).id as number);
      const created = await q<{ createIssue: { issue: Json } }>(
        'stranger',
        `mutation { createIssue(input: { repositoryId: "${pub}", title: "planned", projectIds: ["${encodeGlobalID('Project', board.id)}"] }) {
          issue { id databaseId number projects(first: 5) { totalCount nodes { name databaseId } } } } }`,
      );
      const issue = created.createIssue.issue;
      expect(issue.projects).toEqual({ totalCount: 1, nodes: [{ name: 'Board', databaseId: board.id }] });
      const refusal = await refused(
        'owner',
        'createIssue',
        `{ repositoryId: "${pub}", title: "x", projectIds: ["${encodeGlobalID('Project', other.id)}"] }`,
      );
      expect(refusal).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(new RegExp(`can't be accessed by project ${other.id}$`)),
      });
      const unknown = await refused(
        'owner',
        'createIssue',
        `{ repositoryId: "${pub}", title: "x", projectIds: ["${encodeGlobalID('Project', 99999)}"] }`,
      );
      expect(unknown).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'project 99999 not found' });
      const notAProject = await refused('owner', 'createIssue', `{ repositoryId: "${pub}", title: "x", projectIds: ["${pub}"] }`);
      expect(notAProject).toMatchObject({ code: 'NOT_FOUND', type: 'NOT_FOUND', message: 'project does not exist [id: 0]' });

      const cleared = await q<{ updateIssue: { issue: Json } }>(
        'owner',
        `mutation { updateIssue(input: { id: "${issue.id}", projectIds: [] }) { issue { projects(first: 5) { totalCount } } } }`,
      );
      expect(cleared.updateIssue.issue.projects).toEqual({ totalCount: 0 });

      const boardId = (
        await q<{ repository: { project: { id: string } } }>(
          'owner',
          `{ repository(owner: "owner", name: "pub") { project(number: ${board.id}) { id } } }`,
        )
      ).repository.project.id;
      const strangerAdd = await refused('stranger', 'addIssueToProject', `{ issueId: "${issue.id}", projectId: "${boardId}" }`);
      expect(strangerAdd).toMatchObject({ code: 'PERMISSION_DENIED' });
      const added = await q<{ addIssueToProject: Json }>(
        'owner',
        `mutation { addIssueToProject(input: { issueId: "${issue.id}", projectId: "${boardId}" }) { issue { projects(first: 5) { nodes { name } } } project { name issues(first: 5) { totalCount nodes { title } } } } }`,
      );
      expect(added.addIssueToProject).toEqual({
        issue: { projects: { nodes: [{ name: 'Board' }] } },
        project: { name: 'Board', issues: { totalCount: 1, nodes: [{ title: 'planned' }] } },
      });
      expect((await rest('anon', 'GET', `repos/owner/pub/issues/${issue.number}`)).projects).toEqual([
        expect.objectContaining({ id: board.id, title: 'Board' }),
      ]);
      const removed = await q<{ removeIssueFromProject: Json }>(
        'owner',
        `mutation { removeIssueFromProject(input: { issueId: "${issue.id}", projectId: "${boardId}" }) { issue { projects(first: 5) { totalCount } } project { issues(first: 5) { totalCount } } } }`,
      );
      expect(removed.removeIssueFromProject).toEqual({ issue: { projects: { totalCount: 0 } }, project: { issues: { totalCount: 0 } } });
      const timeline = await t.db.comment.findMany({ where: { issueId: issue.databaseId as number, type: 'PROJECT' } });
      expect(timeline).toHaveLength(4);
    });

    it('repository { issues { projects projectCards } } costs the same statements for 2 and 12 issues', async () => {
      await rest('owner', 'POST', 'user/repos', { name: 'boards' });
      const boards = await Promise.all(
        ['one', 'two'].map(async (title) => ((await rest('owner', 'POST', 'repos/owner/boards/projects', { title })) as { id: number }).id),
      );
      const add = async (n: number) => {
        for (let i = 0; i < n; i++) await rest('owner', 'POST', 'repos/owner/boards/issues', { title: `i${i}`, projects: boards });
      };
      const query =
        '{ repository(owner: "owner", name: "boards") { issues(first: 50) { totalCount nodes { title projects(first: 5) { totalCount nodes { name state creator { login } } } projectCards(first: 5) { totalCount nodes { project { name } column { name } } } } } projects(first: 5) { nodes { name issues(first: 20) { totalCount nodes { title } } } } } }';
      const measure = async () => {
        await t.app.deps.notifier.drain();
        t.queries.length = 0;
        type Cards = { totalCount: number; nodes: { project: { name: string }; column: { name: string } }[] };
        const data = await q<{
          repository: { issues: { totalCount: number; nodes: { projects: { totalCount: number }; projectCards: Cards }[] } };
        }>('stranger', query);
        return { statements: t.queries.length, sql: [...t.queries], issues: data.repository.issues };
      };
      await add(2);
      await measure();
      const small = await measure();
      await add(10);
      const large = await measure();
      expect(small.issues.totalCount).toBe(2);
      expect(large.issues.totalCount).toBe(12);
      expect(large.issues.nodes.every((n) => n.projects.totalCount === 2)).toBe(true);
      for (const n of large.issues.nodes) {
        expect(n.projectCards).toEqual({
          totalCount: 2,
          nodes: ['one', 'two'].map((name) => ({ project: { name }, column: { name: 'Uncategorized' } })),
        });
      }
      console.info(
        `[${provider}] repository { issues { projects projectCards } projects { issues } }: ${small.statements} statements for 2 issues, ${large.statements} for 12`,
      );
      expect(large.statements, large.sql.join('\n')).toBe(small.statements);
    });
  });
});
