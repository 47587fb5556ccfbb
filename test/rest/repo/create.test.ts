import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

interface ApiRepo {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string };
  empty: boolean;
  private: boolean;
  template: boolean;
  default_branch: string;
  object_format_name: string;
  permissions: { admin: boolean; push: boolean; pull: boolean };
  branch_count: number;
  size: number;
  clone_url: string;
  html_url: string;
  licenses: string[];
  internal_tracker?: Record<string, boolean>;
  [k: string]: unknown;
}

const git = (gitdir: string, ...args: string[]) => execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });

/** POST /user/repos, /orgs/{org}/repos, /org/{org}/repos, /admin/users/{u}/repos. */
describe.each(PROVIDERS)('REST repository create (%s)', (provider) => {
  let t: TestApp;
  let org: Models.User;
  const owner = basic('cowner');
  const creator = basic('ccreator');
  const member = basic('cmember');
  const outsider = basic('coutsider');
  const admin = basic('cadmin');
  const gitdir = (o: string, r: string) => path.join(t.config.repositoriesDir, o.toLowerCase(), `${r.toLowerCase()}.git`);
  const create = (url: string, headers: Record<string, string>, body: Record<string, unknown>) =>
    t.request('POST', `/api/v1${url}`, { headers, body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const u of ['cowner', 'ccreator', 'cmember', 'coutsider']) await t.createUser(u);
    await t.createUser('cadmin', { admin: true });
    for (const username of ['corg', 'cother']) expect((await create('/orgs', owner, { username })).statusCode).toBe(201);
    org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'corg' } });
    const team = async (o: string, body: Record<string, unknown>, user: string) => {
      const res = await create(`/orgs/${o}/teams`, owner, body);
      expect(res.statusCode, res.body).toBe(201);
      expect(
        (await t.request('PUT', `/api/v1/teams/${(res.json() as { id: number }).id}/members/${user}`, { headers: owner })).statusCode,
      ).toBe(204);
    };
    await team('corg', { name: 'creators', permission: 'write', units: ['repo.code'], can_create_org_repo: true }, 'ccreator');
    await team('corg', { name: 'readers', permission: 'read', units: ['repo.code'], includes_all_repositories: true }, 'cmember');
    await team('cother', { name: 'readers', permission: 'read', units: ['repo.code'] }, 'ccreator');
  });
  afterAll(() => t.close());

  it('creates an empty repository for the viewer with Gitea defaults', async () => {
    const res = await create('/user/repos', owner, { name: 'Plain', description: 'd' });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json() as ApiRepo;
    expect(r).toMatchObject({
      name: 'Plain',
      full_name: 'cowner/Plain',
      owner: { login: 'cowner' },
      empty: true,
      private: false,
      default_branch: 'main',
      object_format_name: 'sha1',
      permissions: { admin: true, push: true, pull: true },
      branch_count: 0,
      clone_url: 'http://localhost:3000/cowner/Plain.git',
      html_url: 'http://localhost:3000/cowner/Plain',
      has_issues: true,
      has_wiki: true,
      has_pull_requests: true,
      has_projects: true,
      has_releases: true,
      has_packages: true,
      has_actions: true,
      internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
      allow_merge_commits: true,
      allow_rebase: true,
      allow_rebase_explicit: true,
      allow_squash_merge: true,
      allow_fast_forward_only_merge: true,
      allow_rebase_update: true,
      allow_manual_merge: false,
      default_merge_style: 'merge',
      default_allow_maintainer_edit: false,
      watchers_count: 1,
    });
    const dir = gitdir('cowner', 'Plain');
    expect(existsSync(dir)).toBe(true);
    expect(git(dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
    expect(git(dir, 'config', 'receive.advertisePushOptions').trim()).toBe('true');
    expect(git(dir, 'config', 'uploadpack.allowFilter').trim()).toBe('true');
    expect(git(dir, 'config', 'uploadpack.allowAnySHA1InWant').trim()).toBe('true');
    expect(git(dir, 'config', 'http.receivepack').trim()).toBe('true');
    expect(git(dir, 'config', 'core.hooksPath').trim()).toBe(path.join(t.config.dataDir, 'hooks'));
    expect(git(dir, 'config', 'core.bare').trim()).toBe('true');
    expect(existsSync(path.join(t.config.dataDir, 'hooks'))).toBe(true);
    expect((await t.db.user.findUniqueOrThrow({ where: { lowerName: 'cowner' } })).numRepos).toBe(1);
    const got = await t.request('GET', '/api/v1/repos/cowner/plain', { headers: owner });
    expect(got.statusCode).toBe(200);
    expect((got.json() as ApiRepo).id).toBe(r.id);
  });

  it('auto_init writes a real commit by the creator with README, .gitignore and LICENSE', async () => {
    const res = await create('/user/repos', owner, {
      name: 'inited',
      description: 'A test repo',
      auto_init: true,
      gitignores: 'Node,Go',
      license: 'MIT',
      default_branch: 'trunk',
      issue_labels: 'Default',
      private: true,
      template: true,
      trust_model: 'committer',
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json() as ApiRepo;
    expect(r).toMatchObject({ empty: false, private: true, template: true, default_branch: 'trunk', branch_count: 1, licenses: ['MIT'] });
    expect(r.size).toBeGreaterThan(0);
    const dir = gitdir('cowner', 'inited');
    const log = git(dir, 'log', '--format=%an <%ae>|%cn <%ce>|%s', 'trunk').trim();
    expect(log).toBe('cowner <cowner@example.com>|cowner <cowner@example.com>|Initial commit');
    expect(git(dir, 'ls-tree', '--name-only', 'trunk').trim().split('\n')).toEqual(['.gitignore', 'LICENSE', 'README.md']);
    expect(git(dir, 'show', 'trunk:README.md')).toBe('# inited\n\nA test repo\n');
    const ignore = git(dir, 'show', 'trunk:.gitignore');
    expect(ignore.startsWith('# ---> Node\n')).toBe(true);
    expect(ignore).toContain('\n# ---> Go\n');
    expect(ignore).toContain('node_modules/');
    const license = git(dir, 'show', 'trunk:LICENSE');
    expect(license).toContain('MIT License');
    expect(license).toContain(`Copyright (c) ${new Date().getUTCFullYear()} cowner`);
    expect(git(dir, 'fsck', '--strict')).toBe('');
    const row = await t.db.repository.findUniqueOrThrow({ where: { id: r.id }, include: { labels: true, branches: true } });
    expect(row.trustModel).toBe('COMMITTER');
    expect(row.labels.map((l) => l.name).sort()).toEqual([
      'bug',
      'duplicate',
      'enhancement',
      'help wanted',
      'invalid',
      'question',
      'wontfix',
    ]);
    expect(row.labels.find((l) => l.name === 'bug')?.color).toBe('ee0701');
    expect(row.branches[0]?.commitId).toBe(git(dir, 'rev-parse', 'trunk').trim());
  });

  it('a created repository can be cloned with the git CLI', async () => {
    expect((await create('/user/repos', owner, { name: 'clonable', auto_init: true })).statusCode).toBe(201);
    const tmp = mkdtempSync(path.join(tmpdir(), 'fg-clone-'));
    try {
      execFileSync('git', ['clone', '-q', gitdir('cowner', 'clonable'), path.join(tmp, 'c')]);
      expect(readFileSync(path.join(tmp, 'c', 'README.md'), 'utf8')).toBe('# clonable\n\n\n');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('sha256 repositories are created and initialised with the git CLI', async () => {
    const res = await create('/user/repos', owner, { name: 'sha', auto_init: true, object_format_name: 'sha256', license: 'Apache-2.0' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ object_format_name: 'sha256', empty: false, branch_count: 1 });
    const dir = gitdir('cowner', 'sha');
    expect(git(dir, 'rev-parse', '--show-object-format').trim()).toBe('sha256');
    expect(git(dir, 'rev-parse', 'main').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(git(dir, 'ls-tree', '--name-only', 'main').trim().split('\n')).toEqual(['LICENSE', 'README.md']);
    expect(git(dir, 'log', '--format=%an|%s', 'main').trim()).toBe('cowner|Initial commit');
  });

  it('409 on a duplicate name, case-insensitively (testAPIRepoCreateConflict)', async () => {
    expect((await create('/user/repos', owner, { name: 'dup' })).statusCode).toBe(201);
    expectGiteaError(await create('/user/repos', owner, { name: 'DUP' }), 409, 'The repository with the same name already exists.');
  });

  it('validates names, branches and templates with Gitea messages', async () => {
    expectGiteaError(await create('/user/repos', owner, {}), 422, '[Name]: Required');
    expectGiteaError(await create('/user/repos', owner, { name: 'a b' }), 422, '[Name]: AlphaDashDot');
    expectGiteaError(await create('/user/repos', owner, { name: 'x'.repeat(101) }), 422, '[Name]: MaxSize');
    expectGiteaError(await create('/user/repos', owner, { name: '..' }), 422, 'name is reserved [name: ..]');
    expectGiteaError(await create('/user/repos', owner, { name: 'foo.git' }), 422, 'name pattern is not allowed [pattern: *.git]');
    expectGiteaError(await create('/user/repos', owner, { name: 'x.wiki' }), 422, 'name pattern is not allowed [pattern: *.wiki]');
    expectGiteaError(await create('/user/repos', owner, { name: 'a..b' }), 422);
    expectGiteaError(await create('/user/repos', owner, { name: 'br', default_branch: 'a..b' }), 422, '[DefaultBranch]: GitRefName');
    expectGiteaError(
      await create('/user/repos', owner, { name: 'rd', auto_init: true, readme: 'Nope' }),
      400,
      'readme template does not exist, available templates: [Default]',
    );
    expectGiteaError(
      await create('/user/repos', owner, { name: 'lb', issue_labels: 'Nope' }),
      422,
      /^failed to load label template file "Nope"/,
    );
    expectGiteaError(
      await create('/user/repos', owner, { name: 'gi', auto_init: true, gitignores: 'Nope' }),
      422,
      /gitignore template does not exist/,
    );
    expectGiteaError(
      await create('/user/repos', owner, { name: 'li', auto_init: true, license: 'Nope' }),
      422,
      /license template does not exist/,
    );
    expectGiteaError(await create('/user/repos', owner, { name: 'of', object_format_name: 'sha3' }), 422);
    for (const name of ['br', 'rd', 'lb', 'gi', 'li', 'of', 'a..b']) expect(existsSync(gitdir('cowner', name))).toBe(false);
    expect(await t.db.repository.count({ where: { lowerName: { in: ['br', 'rd', 'lb', 'gi', 'li', 'of'] } } })).toBe(0);
  });

  it('Advanced label set has scoped (exclusive) labels', async () => {
    const res = await create('/user/repos', owner, { name: 'adv', issue_labels: 'Advanced' });
    expect(res.statusCode, res.body).toBe(201);
    const labels = await t.db.label.findMany({ where: { repoId: (res.json() as ApiRepo).id } });
    expect(labels).toHaveLength(18);
    expect(labels.find((l) => l.name === 'Priority/High')).toMatchObject({
      color: 'd32f2f',
      exclusive: true,
      description: 'The priority is high',
    });
    expect(labels.find((l) => l.name === 'Kind/Bug')).toMatchObject({ exclusive: false });
  });

  it('TestAPIOrgRepoCreate matrix on the deprecated /org/{org}/repos', async () => {
    expect((await create('/org/corg/repos', admin, { name: 'by-admin' })).statusCode).toBe(201);
    expect((await create('/org/corg/repos', owner, { name: 'by-owner' })).statusCode).toBe(201);
    const byCreator = await create('/org/corg/repos', creator, { name: 'by-creator' });
    expect(byCreator.statusCode, byCreator.body).toBe(201);
    expect((byCreator.json() as ApiRepo).owner.login).toBe('corg');
    expectGiteaError(
      await create('/org/cother/repos', creator, { name: 'nope' }),
      403,
      'User is not allowed to create repositories in this organization.',
    );
    expectGiteaError(
      await create('/org/corg/repos', member, { name: 'nope' }),
      403,
      'User is not allowed to create repositories in this organization.',
    );
    expectGiteaError(
      await create('/org/corg/repos', outsider, { name: 'nope' }),
      403,
      'User is not allowed to create repositories in this organization.',
    );
    expectGiteaError(await create('/org/nosuch/repos', owner, { name: 'nope' }), 404);
    expectGiteaError(await create('/org/corg/repos', {}, { name: 'nope' }), 401);
  });

  it('org repositories join includes-all teams; a creator without admin becomes an admin collaborator', async () => {
    const res = await create('/orgs/corg/repos', creator, { name: 'linked', private: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as ApiRepo).id;
    const teams = await t.db.teamRepo.findMany({ where: { repoId: id }, include: { team: true } });
    expect(teams.map((x) => x.team.name).sort()).toEqual(['Owners', 'readers']);
    const collab = await t.db.collaboration.findMany({ where: { repoId: id }, include: { user: true } });
    expect(collab.map((c) => [c.user.name, c.mode])).toEqual([['ccreator', 'ADMIN']]);
    const asMember = await t.request('GET', '/api/v1/repos/corg/linked', { headers: member });
    expect(asMember.statusCode).toBe(200);
    expect((asMember.json() as ApiRepo).permissions).toEqual({ admin: false, push: false, pull: true });
    expectGiteaError(await t.request('GET', '/api/v1/repos/corg/linked', { headers: outsider }), 404);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: org.id } })).numRepos).toBe(4);
  });

  it('POST /admin/users/{username}/repos: site admins only', async () => {
    const res = await create('/admin/users/coutsider/repos', admin, { name: 'gift' });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as ApiRepo).owner.login).toBe('coutsider');
    expectGiteaError(await create('/admin/users/coutsider/repos', owner, { name: 'gift2' }), 403);
    expectGiteaError(await create('/admin/users/nosuch/repos', admin, { name: 'gift2' }), 404);
  });

  it('max_repo_creation limits non-admins (403)', async () => {
    await t.db.user.update({ where: { lowerName: 'coutsider' }, data: { maxRepoCreation: 1 } });
    expectGiteaError(
      await create('/user/repos', outsider, { name: 'over' }),
      403,
      'user has reached maximum limit of repositories [limit: 1]',
    );
    expect((await create('/admin/users/coutsider/repos', admin, { name: 'admin-may' })).statusCode).toBe(201);
  });

  it('token scopes: write:repository needed; /orgs routes also need organization', async () => {
    const readOnly = await t.createToken('cowner', ['read:repository']);
    expectGiteaError(await create('/user/repos', tokenAuth(readOnly), { name: 'scoped' }), 403);
    const repoOnly = await t.createToken('cowner', ['write:repository']);
    expect((await create('/user/repos', tokenAuth(repoOnly), { name: 'scoped' })).statusCode).toBe(201);
    expectGiteaError(await create('/orgs/corg/repos', tokenAuth(repoOnly), { name: 'scoped2' }), 403);
  });

  it('a failing git init leaves no row; a failing insert leaves no directory', async () => {
    // a stale directory makes git init fail: the row must not remain, the foreign directory must stay
    const stale = gitdir('cowner', 'stale');
    execFileSync('mkdir', ['-p', stale]);
    const res = await create('/user/repos', owner, { name: 'stale' });
    expect(res.statusCode).toBe(409);
    expect(await t.db.repository.count({ where: { lowerName: 'stale' } })).toBe(0);
    expect(existsSync(stale)).toBe(true);
    expect((await t.db.user.findUniqueOrThrow({ where: { lowerName: 'cowner' } })).numRepos).toBe(
      await t.db.repository.count({ where: { ownerName: 'cowner' } }),
    );
  });
});
