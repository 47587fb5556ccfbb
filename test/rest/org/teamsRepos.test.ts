import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

const REPO_FIELDS = [
  'id',
  'owner',
  'name',
  'full_name',
  'description',
  'empty',
  'private',
  'fork',
  'template',
  'mirror',
  'size',
  'language',
  'languages_url',
  'html_url',
  'url',
  'link',
  'ssh_url',
  'clone_url',
  'original_url',
  'website',
  'stars_count',
  'forks_count',
  'watchers_count',
  'branch_count',
  'open_issues_count',
  'open_pr_counter',
  'release_counter',
  'default_branch',
  'archived',
  'created_at',
  'updated_at',
  'archived_at',
  'permissions',
  'has_code',
  'has_issues',
  'internal_tracker',
  'has_wiki',
  'has_pull_requests',
  'has_projects',
  'projects_mode',
  'has_releases',
  'has_packages',
  'has_actions',
  'ignore_whitespace_conflicts',
  'allow_merge_commits',
  'allow_rebase',
  'allow_rebase_explicit',
  'allow_squash_merge',
  'allow_fast_forward_only_merge',
  'allow_merge_update',
  'allow_rebase_update',
  'allow_manual_merge',
  'autodetect_manual_merge',
  'default_delete_branch_after_merge',
  'default_merge_style',
  'default_update_style',
  'default_allow_maintainer_edit',
  'avatar_url',
  'internal',
  'mirror_interval',
  'object_format_name',
  'mirror_updated',
  'mirror_last_sync_at',
  'topics',
  'licenses',
];

interface ApiRepo {
  id: number;
  name: string;
  permissions: { admin: boolean; push: boolean; pull: boolean };
  [k: string]: unknown;
}

/** Team repositories: GET /teams/{id}/repos and GET|PUT|DELETE /teams/{id}/repos/{org}/{repo}. */
describe.each(PROVIDERS)('REST team repositories (%s)', (provider) => {
  let t: TestApp;
  let org: Models.User;
  const ids: Record<string, number> = {};
  const owner = basic('rowner');
  const member = basic('rmember');
  const other = basic('rother');
  const outsider = basic('routsider');
  const admin = basic('radmin');

  const createTeam = async (body: Record<string, unknown>): Promise<number> => {
    const res = await t.request('POST', '/api/v1/orgs/racme/teams', { headers: owner, body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  async function repo(
    name: string,
    data: Partial<Models.Prisma.RepositoryUncheckedCreateInput>,
    units: Models.Prisma.RepoUnitCreateWithoutRepoInput[],
  ): Promise<number> {
    const r = await t.db.repository.create({
      data: { ownerId: org.id, ownerName: org.name, name, lowerName: name.toLowerCase(), ...data, units: { create: units } },
    });
    return r.id;
  }
  const teamRepo = (method: string, team: number, name: string, headers = owner, orgName = 'racme') =>
    t.request(method, `/api/v1/teams/${team}/repos/${orgName}/${name}`, { headers });
  const list = (team: number, headers: Record<string, string>, q = '') => t.request('GET', `/api/v1/teams/${team}/repos${q}`, { headers });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const u of ['rowner', 'rmember', 'rother', 'routsider']) await t.createUser(u);
    await t.createUser('radmin', { admin: true });
    for (const username of ['racme', 'rother-org']) {
      expect((await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username } })).statusCode).toBe(201);
    }
    org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'racme' } });
    ids.zeta = await repo(
      'zeta',
      {
        description: 'Z',
        size: 4096n,
        numIssues: 5,
        numClosedIssues: 2,
        numPulls: 3,
        numClosedPulls: 1,
        numStars: 7,
        topics: '["go","forge"]',
        isEmpty: false,
      },
      [
        { type: 'CODE' },
        {
          type: 'ISSUES',
          config: JSON.stringify({ enableTimetracker: true, allowOnlyContributorsToTrackTime: true, enableDependencies: false }),
        },
        { type: 'PULL_REQUESTS', config: JSON.stringify({ allowMerge: false, allowSquash: true, defaultMergeStyle: 'squash' }) },
        { type: 'WIKI' },
        { type: 'RELEASES' },
      ],
    );
    ids.alpha = await repo('alpha', { isPrivate: true }, [{ type: 'CODE' }]);
    ids.mid = await repo('Mid', { isPrivate: true }, [
      { type: 'CODE' },
      { type: 'EXT_ISSUES', config: JSON.stringify({ externalTrackerURL: 'https://bugs.example.com' }) },
    ]);
    ids.child = await repo('child', { isFork: true, forkId: ids.zeta }, [{ type: 'CODE' }]);
    await t.db.release.create({ data: { repoId: ids.zeta, tagName: 'v1', lowerTagName: 'v1' } });
    await t.db.release.create({ data: { repoId: ids.zeta, tagName: 'v2', lowerTagName: 'v2', isDraft: true } });
    await t.db.branch.create({ data: { repoId: ids.zeta, name: 'main', commitId: 'abc', commitTime: new Date() } });
    await t.db.languageStat.create({ data: { repoId: ids.zeta, commitId: 'abc', language: 'Go', isPrimary: true } });
    ids.devs = await createTeam({ name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues'] });
    ids.lim = await createTeam({ name: 'lim', permission: 'read', units: ['repo.code'], visibility: 'limited' });
    ids.qa = await createTeam({ name: 'qa', permission: 'read', units: ['repo.code'] });
    ids.all = await createTeam({ name: 'all', permission: 'read', units: ['repo.code'], includes_all_repositories: true });
    for (const [team, user] of [
      [ids.devs, 'rmember'],
      [ids.qa, 'rother'],
    ] as const) {
      expect((await t.request('PUT', `/api/v1/teams/${team}/members/${user}`, { headers: owner })).statusCode).toBe(204);
    }
    for (const name of ['zeta', 'alpha', 'Mid', 'child']) expect((await teamRepo('PUT', ids.devs, name)).statusCode).toBe(204);
    for (const name of ['alpha', 'zeta']) expect((await teamRepo('PUT', ids.lim, name)).statusCode).toBe(204);
  });
  afterAll(() => t.close());

  describe('GET /teams/{id}/repos', () => {
    it('gates: 404 unknown team (anonymous too), 401, 403/404 for readers refused', async () => {
      expectGiteaError(await list(999999, {}), 404);
      expectGiteaError(await list(ids.devs ?? 0, {}), 401, 'token is required');
      expectGiteaError(await list(ids.devs ?? 0, other), 403, 'Must be a team member');
      expectGiteaError(await list(ids.devs ?? 0, outsider), 404);
    });

    it("orders by name, with the viewer's permissions, X-Total-Count and Link", async () => {
      const res = await list(ids.devs ?? 0, member, '?limit=3');
      expect(res.statusCode).toBe(200);
      const body = res.json() as ApiRepo[];
      expect(body.map((r) => r.name)).toEqual(['Mid', 'alpha', 'child']);
      expect(res.headers['x-total-count']).toBe('4');
      expect(res.headers.link).toBe(
        linkHeader(`teams/${ids.devs}/repos`, { limit: '3' }, [
          ['next', 2],
          ['last', 2],
        ]),
      );
      expect(body[1]?.permissions).toEqual({ admin: false, push: true, pull: true });
      const mine = (await list(ids.devs ?? 0, owner, '?limit=50')).json() as ApiRepo[];
      expect(mine.find((r) => r.name === 'zeta')?.permissions).toEqual({ admin: true, push: true, pull: true });
    });

    it("renders Gitea's Repository JSON from the rows (counters, units, merge settings, URLs, fork parent)", async () => {
      const body = (await list(ids.devs ?? 0, member, '?limit=50')).json() as ApiRepo[];
      const zeta = body.find((r) => r.name === 'zeta');
      expect(Object.keys(zeta ?? {})).toEqual(REPO_FIELDS);
      expect(zeta).toMatchObject({
        id: ids.zeta,
        owner: { login: 'racme', is_admin: false, login_name: '' },
        full_name: 'racme/zeta',
        description: 'Z',
        empty: false,
        private: false,
        size: 4,
        language: 'Go',
        html_url: 'http://localhost:3000/racme/zeta',
        url: 'http://localhost:3000/api/v1/repos/racme/zeta',
        clone_url: 'http://localhost:3000/racme/zeta.git',
        ssh_url: 'git@localhost:racme/zeta.git',
        languages_url: 'http://localhost:3000/api/v1/repos/racme/zeta/languages',
        link: '',
        stars_count: 7,
        branch_count: 1,
        open_issues_count: 3,
        open_pr_counter: 2,
        release_counter: 1,
        default_branch: 'main',
        archived_at: '1970-01-01T00:00:00Z',
        has_code: true,
        has_issues: true,
        internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: false },
        has_wiki: true,
        has_pull_requests: true,
        has_projects: false,
        projects_mode: 'all',
        has_releases: true,
        allow_merge_commits: false,
        allow_squash_merge: true,
        allow_rebase: true,
        allow_manual_merge: false,
        default_merge_style: 'squash',
        default_update_style: 'merge',
        default_allow_maintainer_edit: true,
        internal: false,
        mirror_interval: '',
        object_format_name: 'sha1',
        mirror_updated: '0001-01-01T00:00:00Z',
        topics: ['go', 'forge'],
        licenses: [],
      });
      const mid = body.find((r) => r.name === 'Mid');
      expect(mid).toMatchObject({
        has_issues: true,
        external_tracker: { external_tracker_url: 'https://bugs.example.com' },
        has_pull_requests: false,
        allow_manual_merge: true,
      });
      expect(mid).not.toHaveProperty('internal_tracker');
      const child = body.find((r) => r.name === 'child');
      expect(child).toMatchObject({ fork: true, parent: { name: 'zeta', full_name: 'racme/zeta' } });
      expect(zeta).not.toHaveProperty('parent');
    });

    it('skips repositories the reader cannot see but still counts them (TestAPITeamVisibilityAccess)', async () => {
      const res = await list(ids.lim ?? 0, other);
      expect(res.statusCode).toBe(200);
      expect((res.json() as ApiRepo[]).map((r) => r.name)).toEqual(['zeta']);
      expect(res.headers['x-total-count']).toBe('2');
      expect((res.json() as ApiRepo[])[0]?.permissions).toEqual({ admin: false, push: false, pull: true });
    });

    it('a public-only token filters private repositories in SQL, so the total matches (TestAPITeamReposPublicOnly)', async () => {
      const full = await t.createToken('rmember', ['read:organization']);
      expect(((await list(ids.devs ?? 0, tokenAuth(full), '?limit=50')).json() as ApiRepo[]).map((r) => r.name)).toContain('alpha');
      const pub = await t.createToken('rmember', ['public-only', 'read:organization']);
      const res = await list(ids.devs ?? 0, tokenAuth(pub), '?limit=50');
      expect((res.json() as ApiRepo[]).map((r) => r.name)).toEqual(['child', 'zeta']);
      expect(res.headers['x-total-count']).toBe('2');
    });

    it('a team with includes_all_repositories lists every org repository', async () => {
      const res = await list(ids.all ?? 0, owner, '?limit=50');
      expect((res.json() as ApiRepo[]).map((r) => r.name)).toEqual(['Mid', 'alpha', 'child', 'zeta']);
    });
  });

  describe('GET /teams/{id}/repos/{org}/{repo}', () => {
    it('200 for a team repository the viewer sees; 404 otherwise', async () => {
      const res = await teamRepo('GET', ids.devs ?? 0, 'ALPHA', member);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'alpha', private: true, permissions: { admin: false, push: true, pull: true } });
      expectGiteaError(await teamRepo('GET', ids.qa ?? 0, 'zeta', other), 404);
      expectGiteaError(await teamRepo('GET', ids.lim ?? 0, 'alpha', other), 404);
      expectGiteaError(await teamRepo('GET', ids.devs ?? 0, 'nope', member), 404);
      expectGiteaError(await teamRepo('GET', ids.devs ?? 0, 'zeta', member, 'rother-org'), 404);
      expectGiteaError(await teamRepo('GET', ids.devs ?? 0, 'zeta', outsider), 404);
      expectGiteaError(await teamRepo('GET', ids.devs ?? 0, 'zeta', {}), 401);
    });
  });

  describe('PUT and DELETE /teams/{id}/repos/{org}/{repo}', () => {
    it('gates: 404, 401, then team membership (403 for org members, 404 for outsiders)', async () => {
      expectGiteaError(await teamRepo('PUT', 999999, 'zeta', owner), 404);
      expectGiteaError(await teamRepo('PUT', ids.lim ?? 0, 'zeta', {}), 401);
      // An org member who can read a limited team may not change its repositories.
      expectGiteaError(await teamRepo('PUT', ids.lim ?? 0, 'zeta', other), 403, 'Must be a team member');
      expectGiteaError(await teamRepo('PUT', ids.lim ?? 0, 'zeta', outsider), 404);
      expectGiteaError(await teamRepo('DELETE', ids.lim ?? 0, 'zeta', other), 403, 'Must be a team member');
    });

    it('a team member needs ownership unless repository admins may change team access, and always repo admin', async () => {
      expectGiteaError(await teamRepo('PUT', ids.qa ?? 0, 'zeta', other), 403, 'user is nor repo admin nor owner');
      expectGiteaError(await teamRepo('DELETE', ids.devs ?? 0, 'zeta', member), 403, 'user is nor repo admin nor owner');
      expect(
        (await t.request('PATCH', '/api/v1/orgs/racme', { headers: owner, body: { repo_admin_change_team_access: true } })).statusCode,
      ).toBe(200);
      expectGiteaError(await teamRepo('PUT', ids.qa ?? 0, 'zeta', other), 403, 'Must have admin-level access to the repository');
      const rother = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rother' } });
      await addCollaborator(t, { ownerName: 'racme', name: 'zeta' }, rother, 'admin');
      expect((await teamRepo('PUT', ids.qa ?? 0, 'zeta', other)).statusCode).toBe(204);
      expect((await teamRepo('DELETE', ids.qa ?? 0, 'zeta', other)).statusCode).toBe(204);
      expect(
        (await t.request('PATCH', '/api/v1/orgs/racme', { headers: owner, body: { repo_admin_change_team_access: false } })).statusCode,
      ).toBe(200);
    });

    it("owners and site admins add and remove; counters and idempotence; the repository must be the org's", async () => {
      expectGiteaError(await teamRepo('PUT', ids.qa ?? 0, 'nope'), 404);
      expectGiteaError(await teamRepo('PUT', ids.qa ?? 0, 'zeta', owner, 'rother-org'), 404);
      expect((await teamRepo('PUT', ids.qa ?? 0, 'zeta')).statusCode).toBe(204);
      expect((await teamRepo('PUT', ids.qa ?? 0, 'zeta')).statusCode).toBe(204);
      expect((await t.db.team.findUniqueOrThrow({ where: { id: ids.qa ?? 0 } })).numRepos).toBe(1);
      expect((await list(ids.qa ?? 0, other)).json()).toEqual([expect.objectContaining({ name: 'zeta' })]);
      expect((await teamRepo('DELETE', ids.qa ?? 0, 'zeta', admin)).statusCode).toBe(204);
      expect((await teamRepo('DELETE', ids.qa ?? 0, 'zeta')).statusCode).toBe(204);
      expect((await t.db.team.findUniqueOrThrow({ where: { id: ids.qa ?? 0 } })).numRepos).toBe(0);
    });

    it('removing from a team that includes all repositories is a no-op, as Gitea', async () => {
      expect((await teamRepo('DELETE', ids.all ?? 0, 'zeta')).statusCode).toBe(204);
      expect(await t.db.teamRepo.count({ where: { teamId: ids.all ?? 0, repoId: ids.zeta ?? 0 } })).toBe(1);
    });

    it('emits team.repoAdded / team.repoRemoved after commit', async () => {
      const seen: string[] = [];
      t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void (e.type.startsWith('team.repo') && seen.push(e.type)) });
      await teamRepo('PUT', ids.qa ?? 0, 'alpha');
      await teamRepo('DELETE', ids.qa ?? 0, 'alpha');
      await t.app.deps.notifier.drain();
      expect(seen).toEqual(['team.repoAdded', 'team.repoRemoved']);
    });
  });
});
