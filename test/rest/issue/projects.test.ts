import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

describe.each(PROVIDERS)('REST projects and issue projects (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const orgs: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];

  const post = (viewer: string, path: string, body: unknown) => t.request('POST', `/api/v1/${path}`, { headers: as(viewer), body });
  const patch = (viewer: string, path: string, body: unknown) => t.request('PATCH', `/api/v1/${path}`, { headers: as(viewer), body });
  const del = (viewer: string, path: string) => t.request('DELETE', `/api/v1/${path}`, { headers: as(viewer) });
  const get = (viewer: string, path: string) => t.request('GET', `/api/v1/${path}`, { headers: as(viewer) });
  const titles = (res: { json(): unknown }) => (res.json() as Json[]).map((p) => p.title);
  const ids = (issue: Json) => (issue.projects as Json[] | null)?.map((p) => p.id) ?? null;
  const repoRow = (r: Models.Repository) => t.db.repository.findUniqueOrThrow({ where: { id: r.id } });
  async function newRepo(owner: string, name: string, isPrivate: boolean, path = 'user/repos'): Promise<Models.Repository> {
    const res = await post(owner, path, { name, private: isPrivate });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  async function project(viewer: string, path: string, title: string): Promise<Json> {
    const res = await post(viewer, `${path}/projects`, { title });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function team(org: Models.User, name: string, authorize: Models.AccessMode, projects: Models.AccessMode | null): Promise<void> {
    const row = await t.db.team.create({
      data: { orgId: org.id, name, lowerName: name.toLowerCase(), authorize, includesAllRepositories: true },
    });
    if (projects) await t.db.teamUnit.create({ data: { orgId: org.id, teamId: row.id, type: 'PROJECTS', accessMode: projects } });
    await t.db.teamUnit.create({ data: { orgId: org.id, teamId: row.id, type: 'ISSUES', accessMode: authorize } });
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'admin', 'orgowner', 'pmember', 'preader', 'nounit']) {
      users[n] = await t.createUser(n, n === 'admin' ? { admin: true } : {});
    }
    repos.pub = await newRepo('alice', 'pub', false);
    repos.priv = await newRepo('alice', 'priv', true);
    repos.arch = await newRepo('alice', 'arch', false);
    repos.other = await newRepo('alice', 'other', false);
    for (const r of [repos.pub, repos.priv, repos.arch]) {
      await addCollaborator(t, r, users.reader!, 'read');
      await addCollaborator(t, r, users.writer!, 'write');
    }
    await editRepo(t, repos.arch, { archived: true });
    orgs.acme = await createOrgAs(t, users.orgowner!, 'acme');
    orgs.hidden = await createOrgAs(t, users.orgowner!, 'hidden', 'PRIVATE');
    await team(orgs.acme, 'Planners', 'WRITE', 'WRITE');
    await team(orgs.acme, 'Watchers', 'READ', 'READ');
    await team(orgs.acme, 'Coders', 'WRITE', null);
    await addMember(t, orgs.acme, users.pmember!, { team: 'Planners' });
    await addMember(t, orgs.acme, users.preader!, { team: 'Watchers' });
    await addMember(t, orgs.acme, users.nounit!, { team: 'Coders' });
    repos.org = await newRepo('orgowner', 'orepo', false, 'orgs/acme/repos');
    repos.org2 = await newRepo('orgowner', 'orepo2', false, 'orgs/acme/repos');
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  describe('repository projects', () => {
    it('creates a project in Gitea Project JSON with its default column, and keeps counters exact', async () => {
      const res = await post('writer', 'repos/alice/pub/projects', { title: '  Roadmap ', description: 'plans' });
      expect(res.statusCode, res.body).toBe(201);
      const j = res.json();
      expect(Object.keys(j)).toEqual(['id', 'title', 'description', 'repo_id', 'creator_id', 'is_closed', 'created_at', 'updated_at']);
      expect(j).toMatchObject({
        title: 'Roadmap',
        description: 'plans',
        repo_id: repos.pub!.id,
        creator_id: users.writer!.id,
        is_closed: false,
      });
      const columns = await t.db.projectColumn.findMany({ where: { projectId: j.id as number } });
      expect(columns).toEqual([expect.objectContaining({ title: 'Uncategorized', isDefault: true, creatorId: users.writer!.id })]);
      expect(await repoRow(repos.pub!)).toMatchObject({ numProjects: 1, numClosedProjects: 0 });
      expect((await get('anon', `repos/alice/pub/projects/${j.id}`)).json()).toEqual(j);
      await t.app.deps.notifier.drain();
      expect(events).toContainEqual({
        type: 'project.created',
        projectId: j.id,
        repoId: repos.pub!.id,
        ownerId: null,
        actorId: users.writer!.id,
      });
    });

    it('gates: 401 anonymous, 404 invisible or disabled, 403 readers and outsiders, 423 archived, 422 bad titles', async () => {
      expectGiteaError(await post('anon', 'repos/alice/pub/projects', { title: 'x' }), 401);
      expectGiteaError(await post('outsider', 'repos/alice/priv/projects', { title: 'x' }), 404);
      expectGiteaError(await get('outsider', 'repos/alice/priv/projects'), 404);
      expectGiteaError(await get('anon', 'repos/alice/priv/projects'), 404);
      expectGiteaError(
        await post('reader', 'repos/alice/priv/projects', { title: 'x' }),
        403,
        'user should have a permission to write to a repo',
      );
      expectGiteaError(await post('outsider', 'repos/alice/pub/projects', { title: 'x' }), 403);
      expectGiteaError(await post('writer', 'repos/alice/arch/projects', { title: 'x' }), 423, 'repo is archived');
      expectGiteaError(await post('alice', 'repos/alice/pub/projects', {}), 422, '[Title]: Required');
      expectGiteaError(await post('alice', 'repos/alice/pub/projects', { title: '   ' }), 422, '[Title]: Required');
      expectGiteaError(await post('alice', 'repos/alice/pub/projects', { title: 'x'.repeat(101) }), 422, '[Title]: MaxSize');
      expectGiteaError(await post('alice', 'repos/alice/pub/projects', { title: 5 }), 422);
      expect((await get('reader', 'repos/alice/priv/projects')).statusCode).toBe(200);
      expect((await post('admin', 'repos/alice/priv/projects', { title: 'by admin' })).statusCode).toBe(201);
      const disabled = await newRepo('alice', 'noprojects', false);
      await editRepo(t, disabled, { hasProjects: false });
      expectGiteaError(await get('alice', 'repos/alice/noprojects/projects'), 404);
      expectGiteaError(await post('alice', 'repos/alice/noprojects/projects', { title: 'x' }), 404);
      const ownerOnly = await newRepo('alice', 'owneronly', false);
      expect((await patch('alice', 'repos/alice/owneronly', { has_projects: true, projects_mode: 'owner' })).statusCode).toBe(200);
      expectGiteaError(await get('alice', `repos/alice/owneronly/projects`), 404);
      expect(ownerOnly.id).toBeGreaterThan(0);
      const readOnly = await t.createToken('alice', ['read:repository']);
      expect((await t.request('GET', '/api/v1/repos/alice/priv/projects', { headers: tokenAuth(readOnly) })).statusCode).toBe(200);
      expectGiteaError(
        await t.request('POST', '/api/v1/repos/alice/priv/projects', { headers: tokenAuth(readOnly), body: { title: 'x' } }),
        403,
      );
    });

    it('lists by state and sort with pagination, gets by id (404 for another repository or a bad id), edits and closes', async () => {
      const r = await newRepo('alice', 'listing', false);
      const made: Json[] = [];
      for (const title of ['beta', 'alpha', 'gamma']) made.push(await project('alice', 'repos/alice/listing', title));
      const closed = (await patch('alice', `repos/alice/listing/projects/${made[2]!.id}`, { state: 'closed' })).json();
      expect(Object.keys(closed)).toEqual([
        'id',
        'title',
        'description',
        'repo_id',
        'creator_id',
        'is_closed',
        'created_at',
        'updated_at',
        'closed_at',
      ]);
      expect(closed).toMatchObject({ is_closed: true, closed_at: expect.any(String) });
      expect(await repoRow(r)).toMatchObject({ numProjects: 3, numClosedProjects: 1 });
      expect(titles(await get('anon', 'repos/alice/listing/projects'))).toEqual(['alpha', 'beta']);
      expect(titles(await get('anon', 'repos/alice/listing/projects?state=closed'))).toEqual(['gamma']);
      expect(titles(await get('anon', 'repos/alice/listing/projects?state=all&sort=alphabetically'))).toEqual(['alpha', 'beta', 'gamma']);
      expect(titles(await get('anon', 'repos/alice/listing/projects?state=all&sort=oldest'))).toEqual(['beta', 'alpha', 'gamma']);
      const paged = await get('anon', 'repos/alice/listing/projects?state=all&limit=2');
      expect(titles(paged)).toEqual(['gamma', 'alpha']);
      expect(paged.headers['x-total-count']).toBe('3');
      expect(paged.headers.link).toBe(
        linkHeader('repos/alice/listing/projects', { limit: '2', state: 'all' }, [
          ['next', 2],
          ['last', 2],
        ]),
      );
      expectGiteaError(await get('alice', `repos/alice/pub/projects/${made[0]!.id}`), 404, `projects does not exist [id: ${made[0]!.id}]`);
      expectGiteaError(await get('alice', 'repos/alice/listing/projects/abc'), 404);
      const edited = (await patch('alice', `repos/alice/listing/projects/${made[0]!.id}`, { title: 'beta 2', description: 'b' })).json();
      expectGiteaError(await patch('reader', `repos/alice/listing/projects/${made[0]!.id}`, { title: 'x' }), 403);
      expect(edited).toMatchObject({ title: 'beta 2', description: 'b', is_closed: false });
      expectGiteaError(await patch('alice', `repos/alice/listing/projects/${made[0]!.id}`, { state: 'bogus' }), 422);
      expectGiteaError(await patch('alice', `repos/alice/listing/projects/${made[0]!.id}`, { title: '' }), 422, '[Title]: Required');
      const reopened = (await patch('alice', `repos/alice/listing/projects/${made[2]!.id}`, { state: 'open' })).json();
      expect(reopened.is_closed).toBe(false);
      expect(reopened).not.toHaveProperty('closed_at');
      expect((await repoRow(r)).numClosedProjects).toBe(0);
    });
  });

  describe('organization projects', () => {
    it('lets owners and project writers create; readers read; a team without the unit sees nothing (Gitea UnitPermission)', async () => {
      const res = await post('orgowner', 'orgs/acme/projects', { title: 'Company plan' });
      expect(res.statusCode, res.body).toBe(201);
      const j = res.json();
      expect(Object.keys(j)).toEqual(['id', 'title', 'description', 'owner_id', 'creator_id', 'is_closed', 'created_at', 'updated_at']);
      expect(j).toMatchObject({ owner_id: orgs.acme!.id, creator_id: users.orgowner!.id });
      expect((await post('pmember', 'orgs/acme/projects', { title: 'by planner' })).statusCode).toBe(201);
      expectGiteaError(
        await post('preader', 'orgs/acme/projects', { title: 'x' }),
        403,
        'user does not have organization project permission',
      );
      expectGiteaError(await post('outsider', 'orgs/acme/projects', { title: 'x' }), 403);
      expectGiteaError(await post('anon', 'orgs/acme/projects', { title: 'x' }), 401);
      expect(titles(await get('preader', 'orgs/acme/projects'))).toEqual(['by planner', 'Company plan']);
      expect(titles(await get('anon', 'orgs/acme/projects'))).toEqual(['by planner', 'Company plan']);
      expect(titles(await get('outsider', 'orgs/acme/projects'))).toEqual(['by planner', 'Company plan']);
      expectGiteaError(await get('nounit', 'orgs/acme/projects'), 404);
      expectGiteaError(await get('nounit', `orgs/acme/projects/${j.id}`), 404);
      expect((await get('admin', `orgs/acme/projects/${j.id}`)).json().id).toBe(j.id);
      // The organization's projects are not the repository's.
      expectGiteaError(await get('orgowner', `repos/acme/orepo/projects/${j.id}`), 404);
      const secret = await project('orgowner', 'orgs/hidden', 'Secret plan');
      expectGiteaError(await get('outsider', 'orgs/hidden/projects'), 404);
      expectGiteaError(await get('anon', `orgs/hidden/projects/${secret.id}`), 404);
      expect((await patch('pmember', `orgs/acme/projects/${j.id}`, { state: 'closed' })).json()).toMatchObject({ is_closed: true });
      expectGiteaError(await del('preader', `orgs/acme/projects/${j.id}`), 403);
      expect((await del('orgowner', `orgs/acme/projects/${j.id}`)).statusCode).toBe(204);
      expectGiteaError(await get('orgowner', `orgs/acme/projects/${j.id}`), 404);
    });
  });

  describe('issue projects', () => {
    it('create: honours `projects` for writers and non-writers, placing the issue in the default column', async () => {
      const p = await project('alice', 'repos/alice/pub', 'Board');
      const byWriter = await post('writer', 'repos/alice/pub/issues', { title: 'planned', projects: [p.id] });
      expect(byWriter.statusCode, byWriter.body).toBe(201);
      expect(byWriter.json().projects).toEqual([p]);
      const column = await t.db.projectColumn.findFirstOrThrow({ where: { projectId: p.id as number, isDefault: true } });
      expect(await t.db.projectIssue.findFirst({ where: { issueId: byWriter.json().id as number } })).toMatchObject({
        projectId: p.id,
        projectColumnId: column.id,
        sorting: 0,
      });
      // Readers and outsiders are not writers: Gitea still honours `projects` (unlike labels or milestone).
      const byReader = (await post('reader', 'repos/alice/pub/issues', { title: 'by reader', projects: [p.id] })).json();
      expect(ids(byReader)).toEqual([p.id]);
      const byOutsider = (await post('outsider', 'repos/alice/pub/issues', { title: 'by outsider', projects: [p.id] })).json();
      expect(ids(byOutsider)).toEqual([p.id]);
      expect(await t.db.projectIssue.findFirst({ where: { issueId: byOutsider.id as number } })).toMatchObject({ sorting: 2 });
      const timeline = await t.db.comment.findMany({ where: { issueId: byWriter.json().id as number, type: 'PROJECT' } });
      expect(timeline).toEqual([expect.objectContaining({ projectId: p.id, oldProjectId: null, posterId: users.writer!.id })]);
      expect((await get('anon', `repos/alice/pub/issues/${byReader.number}`)).json().projects).toEqual([p]);
      expect((await post('writer', 'repos/alice/pub/issues', { title: 'none', projects: [] })).json().projects).toBeNull();
    });

    it('create: 400 for an unknown project or one the repository may not use, and no issue is created', async () => {
      const foreign = await project('alice', 'repos/alice/other', 'Elsewhere');
      const orgProject = await project('orgowner', 'orgs/acme', 'Org board');
      const before = await repoRow(repos.pub!);
      expectGiteaError(await post('writer', 'repos/alice/pub/issues', { title: 'x', projects: [99999] }), 400, 'project 99999 not found');
      expectGiteaError(await post('reader', 'repos/alice/pub/issues', { title: 'x', projects: [99999] }), 400, 'project 99999 not found');
      expectGiteaError(
        await post('writer', 'repos/alice/pub/issues', { title: 'x', projects: [foreign.id] }),
        400,
        new RegExp(`^issue \\d+ can't be accessed by project ${foreign.id}$`),
      );
      expectGiteaError(
        await post('outsider', 'repos/alice/pub/issues', { title: 'x', projects: [orgProject.id] }),
        400,
        new RegExp(`can't be accessed by project ${orgProject.id}$`),
      );
      expectGiteaError(await post('writer', 'repos/alice/pub/issues', { title: 'x', projects: [-1] }), 400, 'project -1 not found');
      expectGiteaError(await post('writer', 'repos/alice/pub/issues', { title: 'x', projects: ['a'] }), 422);
      expect(await repoRow(repos.pub!)).toMatchObject({ numIssues: before.numIssues });
      // Gates before projects: the usual 404/401/423 still come first.
      expectGiteaError(await post('outsider', 'repos/alice/priv/issues', { title: 'x', projects: [99999] }), 404);
      expectGiteaError(await post('anon', 'repos/alice/pub/issues', { title: 'x', projects: [99999] }), 401);
      expectGiteaError(await post('writer', 'repos/alice/arch/issues', { title: 'x', projects: [99999] }), 423);
    });

    it("create: an organization repository uses its own and its organization's projects, as projects_mode allows", async () => {
      const own = await project('orgowner', 'repos/acme/orepo', 'Repo board');
      const sibling = await project('orgowner', 'repos/acme/orepo2', 'Sibling board');
      const orgBoard = await project('orgowner', 'orgs/acme', 'Company board');
      const hidden = await project('orgowner', 'orgs/hidden', 'Other org board');
      const both = (await post('orgowner', 'repos/acme/orepo/issues', { title: 'both', projects: [orgBoard.id, own.id, own.id] })).json();
      expect(ids(both)).toEqual([own.id, orgBoard.id].sort((a, b) => (a as number) - (b as number)));
      expectGiteaError(
        await post('orgowner', 'repos/acme/orepo/issues', { title: 'x', projects: [sibling.id] }),
        400,
        new RegExp(`can't be accessed by project ${sibling.id}$`),
      );
      expectGiteaError(
        await post('orgowner', 'repos/acme/orepo/issues', { title: 'x', projects: [hidden.id] }),
        400,
        new RegExp(`can't be accessed by project ${hidden.id}$`),
      );
      expect((await patch('orgowner', 'repos/acme/orepo', { has_projects: true, projects_mode: 'repo' })).statusCode).toBe(200);
      expectGiteaError(
        await post('orgowner', 'repos/acme/orepo/issues', { title: 'x', projects: [orgBoard.id] }),
        400,
        new RegExp(`can't be accessed by project ${orgBoard.id}$`),
      );
      expect(ids((await post('orgowner', 'repos/acme/orepo/issues', { title: 'repo only', projects: [own.id] })).json())).toEqual([own.id]);
      expect((await patch('orgowner', 'repos/acme/orepo', { has_projects: true, projects_mode: 'owner' })).statusCode).toBe(200);
      expectGiteaError(
        await post('orgowner', 'repos/acme/orepo/issues', { title: 'x', projects: [own.id] }),
        400,
        new RegExp(`can't be accessed by project ${own.id}$`),
      );
      expect(ids((await post('orgowner', 'repos/acme/orepo/issues', { title: 'org only', projects: [orgBoard.id] })).json())).toEqual([
        orgBoard.id,
      ]);
      expect((await patch('orgowner', 'repos/acme/orepo', { has_projects: false })).statusCode).toBe(200);
      expectGiteaError(
        await post('orgowner', 'repos/acme/orepo/issues', { title: 'x', projects: [orgBoard.id] }),
        400,
        new RegExp(`can't be accessed by project ${orgBoard.id}$`),
      );
      // The issue that was already in the projects still shows them.
      expect(ids((await get('anon', `repos/acme/orepo/issues/${both.number}`)).json())).toHaveLength(2);
      expect((await patch('orgowner', 'repos/acme/orepo', { has_projects: true, projects_mode: 'all' })).statusCode).toBe(200);
    });

    it('edit: writers replace the set ([] clears, null keeps); the poster without write is ignored; 400 changes nothing', async () => {
      const p1 = await project('alice', 'repos/alice/pub', 'One');
      const p2 = await project('alice', 'repos/alice/pub', 'Two');
      const foreign = await project('alice', 'repos/alice/other', 'Not here');
      const issue = (await post('outsider', 'repos/alice/pub/issues', { title: 'mine', projects: [p1.id] })).json();
      const path = `repos/alice/pub/issues/${issue.number}`;
      let res = await patch('outsider', path, { title: 'mine 2', projects: [] });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ title: 'mine 2' });
      expect(ids(res.json())).toEqual([p1.id]);
      res = await patch('writer', path, { projects: [p2.id, p1.id] });
      expect(ids(res.json())).toEqual([p1.id, p2.id]);
      expect(ids((await patch('writer', path, { projects: null, title: 'still' })).json())).toEqual([p1.id, p2.id]);
      expectGiteaError(await patch('writer', path, { title: 'never', projects: [p1.id, 424242] }), 400, 'project 424242 not found');
      expectGiteaError(
        await patch('writer', path, { title: 'never', projects: [foreign.id] }),
        400,
        `issue ${issue.id} can't be accessed by project ${foreign.id}`,
      );
      const unchanged = (await get('alice', path)).json();
      expect(unchanged.title).toBe('still');
      expect(ids(unchanged)).toEqual([p1.id, p2.id]);
      res = await patch('writer', path, { projects: [p2.id] });
      expect(ids(res.json())).toEqual([p2.id]);
      expect(ids((await patch('alice', path, { projects: [] })).json())).toBeNull();
      const timeline = await t.db.comment.findMany({ where: { issueId: issue.id as number, type: 'PROJECT' }, orderBy: { id: 'asc' } });
      expect(timeline.map((c) => [c.oldProjectId, c.projectId])).toEqual([
        [null, p1.id],
        [null, p2.id],
        [p1.id, null],
        [p2.id, null],
      ]);
      await t.app.deps.notifier.drain();
      expect(events).toContainEqual(expect.objectContaining({ type: 'issue.updated', issueId: issue.id, fields: ['projects'] }));
    });

    it('lists carry each issue’s projects (bulk-loaded), and deleting a project takes the issues out', async () => {
      const r = await newRepo('alice', 'bulk', false);
      const p1 = await project('alice', 'repos/alice/bulk', 'P1');
      const p2 = await project('alice', 'repos/alice/bulk', 'P2');
      for (let i = 0; i < 4; i++)
        await post('alice', 'repos/alice/bulk/issues', { title: `i${i}`, projects: i % 2 ? [p1.id, p2.id] : [p2.id] });
      const list = (await get('anon', 'repos/alice/bulk/issues')).json() as Json[];
      expect(list.map(ids)).toEqual([[p1.id, p2.id], [p2.id], [p1.id, p2.id], [p2.id]]);
      expect((await del('writer', 'repos/alice/bulk/projects/424242')).statusCode).toBe(403);
      expect((await del('alice', `repos/alice/bulk/projects/${p2.id}`)).statusCode).toBe(204);
      expect(((await get('anon', 'repos/alice/bulk/issues')).json() as Json[]).map(ids)).toEqual([[p1.id], null, [p1.id], null]);
      expect(await t.db.projectColumn.count({ where: { projectId: p2.id as number } })).toBe(0);
      expect(await repoRow(r)).toMatchObject({ numProjects: 1 });
      await t.app.deps.notifier.drain();
      expect(events).toContainEqual({ type: 'project.deleted', projectId: p2.id, repoId: r.id, ownerId: null, actorId: users.alice!.id });
    });
  });
});
