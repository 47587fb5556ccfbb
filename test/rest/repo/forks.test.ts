import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlreadyExistsError } from '../../../src/errors.ts';
import { forkRepository } from '../../../src/git/fork.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';
import { GitClient, gitUrl } from '../../githttp/gitClient.ts';

const git = (gitDir: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
  });
const refsOf = (gitDir: string) => git(gitDir, 'for-each-ref', '--format=%(objectname) %(refname)');

/** A fast-import stream of `commits` commits over `files` files (about three objects per commit). */
function history(commits: number, files: number): string {
  const out: string[] = [];
  for (let i = 1; i <= commits; i++) {
    const data = `line ${i}\n`;
    const msg = `commit ${i}\n`;
    out.push(
      'commit refs/heads/main',
      `mark :${i}`,
      `committer Dev <dev@example.com> ${1_700_000_000 + i} +0000`,
      `data ${msg.length}`,
      msg,
    );
    if (i > 1) out.push(`from :${i - 1}`);
    out.push(`M 100644 inline f${i % files}.txt`, `data ${data.length}`, data);
  }
  out.push(`reset refs/heads/dev`, `from :${Math.max(1, commits - 10)}`, '');
  return out.join('\n');
}

describe('git layer: forkRepository', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'fg-fork-'));
  const hooks = path.join(root, 'hooks');
  const parent = path.join(root, 'alice', 'big.git');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  beforeAll(() => {
    mkdirSync(parent, { recursive: true });
    git(parent, 'init', '--bare', '-q', '--initial-branch=main');
    execFileSync('git', ['--git-dir', parent, 'fast-import', '--quiet'], { input: history(1000, 200) });
    git(parent, 'tag', 'v1', 'main~5');
    git(parent, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'tag', '-a', 'v2', '-m', 'annotated', 'main');
    git(parent, 'update-ref', 'refs/pull/1/head', 'dev');
    // Some history packed, the newest commits loose: both kinds of object file.
    git(parent, 'repack', '-q', '-d');
    execFileSync('git', ['--git-dir', parent, 'fast-import', '--quiet'], {
      input:
        'commit refs/heads/main\ncommitter Dev <dev@example.com> 1800000000 +0000\ndata 5\nloose\nfrom refs/heads/main^0\nM 100644 inline loose.txt\ndata 6\nloose\n\n',
    });
  });

  it('copies branches and tags (not other refs) with the new-repository config, hard-linking objects', async () => {
    const fork = path.join(root, 'bob', 'big.git');
    const started = performance.now();
    await forkRepository({ source: parent, gitdir: fork, defaultBranch: 'main', objectFormat: 'sha1', hooksDir: hooks });
    const ms = performance.now() - started;
    const objects = git(parent, 'count-objects', '-v');
    console.info(
      `forkRepository of a repository with ${/in-pack: (\d+)/.exec(objects)?.[1]} packed + ${/count: (\d+)/.exec(objects)?.[1]} loose objects: ${ms.toFixed(1)} ms`,
    );

    const parentRefs = refsOf(parent)
      .split('\n')
      .filter((l) => !l.includes('refs/pull/'));
    expect(refsOf(fork).split('\n')).toEqual(parentRefs);
    expect(git(fork, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
    const config = git(fork, 'config', '--list');
    expect(config).toContain(`core.hookspath=${hooks}`);
    expect(config).toContain('http.receivepack=true');
    expect(config).toContain('receive.advertisepushoptions=true');
    expect(config).not.toContain('remote.');
    expect(existsSync(path.join(fork, 'objects', 'info', 'alternates'))).toBe(false);
    const pack = git(parent, 'rev-parse', '--git-path', 'objects/pack').trim();
    const packFile =
      execFileSync('ls', [pack], { encoding: 'utf8' })
        .split('\n')
        .find((f) => f.endsWith('.pack')) ?? '';
    expect(statSync(path.join(fork, 'objects', 'pack', packFile)).ino).toBe(statSync(path.join(pack, packFile)).ino);
    git(fork, 'fsck', '--strict', '--no-progress');
  });

  it('stays whole after the parent is garbage-collected and deleted', async () => {
    const fork = path.join(root, 'carol', 'big.git');
    await forkRepository({ source: parent, gitdir: fork, defaultBranch: 'main', objectFormat: 'sha1', hooksDir: hooks });
    const log = git(fork, 'log', '--format=%H', 'main');
    git(parent, 'update-ref', '-d', 'refs/heads/dev');
    git(parent, 'gc', '-q', '--prune=now');
    git(fork, 'fsck', '--strict', '--no-progress');
    rmSync(parent, { recursive: true, force: true });
    git(fork, 'fsck', '--strict', '--no-progress');
    expect(git(fork, 'log', '--format=%H', 'main')).toBe(log);
    expect(log.split('\n').filter(Boolean)).toHaveLength(1001);
  });

  it('refuses an existing directory and leaves it alone; an empty parent gives an empty fork', async () => {
    const empty = path.join(root, 'alice', 'empty.git');
    git(empty, 'init', '--bare', '-q', '--initial-branch=trunk');
    const existing = path.join(root, 'dave', 'x.git');
    mkdirSync(existing, { recursive: true });
    await expect(
      forkRepository({ source: empty, gitdir: existing, defaultBranch: 'trunk', objectFormat: 'sha1', hooksDir: hooks }),
    ).rejects.toBeInstanceOf(AlreadyExistsError);
    expect(existsSync(existing)).toBe(true);
    const fork = path.join(root, 'dave', 'empty.git');
    await forkRepository({ source: empty, gitdir: fork, defaultBranch: 'trunk', objectFormat: 'sha1', hooksDir: hooks });
    expect(refsOf(fork)).toBe('');
    expect(git(fork, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/trunk');
  });

  it('removes its partial directory when the parent is broken', async () => {
    const fork = path.join(root, 'erin', 'missing.git');
    await expect(
      forkRepository({
        source: path.join(root, 'nobody', 'missing.git'),
        gitdir: fork,
        defaultBranch: 'main',
        objectFormat: 'sha1',
        hooksDir: hooks,
      }),
    ).rejects.toThrow();
    expect(existsSync(fork)).toBe(false);
  });
});

interface RepoJson {
  id: number;
  full_name: string;
  fork: boolean;
  private: boolean;
  empty: boolean;
  forks_count: number;
  owner: { login: string };
  parent?: RepoJson;
  permissions?: { admin: boolean; push: boolean; pull: boolean };
}

/** POST/GET /repos/{owner}/{repo}/forks. */
describe.each(PROVIDERS)('REST repository forks (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let gitClient: GitClient;
  const owner = basic('fkowner');
  const reader = basic('fkreader');
  const outsider = basic('fkoutsider');
  const member = basic('fkmember');
  const creator = basic('fkcreator');
  const admin = basic('fkadmin');
  const events: DomainEvent[] = [];
  const forkDir = (o: string, r: string) => path.join(t.config.repositoriesDir, o, `${r}.git`);
  const fork = (full: string, headers: Record<string, string>, body: Record<string, unknown> = {}) =>
    t.request('POST', `/api/v1/repos/${full}/forks`, { headers, body });
  const get = async (full: string, headers: Record<string, string> = owner) =>
    (await t.request('GET', `/api/v1/repos/${full}`, { headers })).json() as RepoJson;
  const create = async (url: string, headers: Record<string, string>, body: Record<string, unknown>) => {
    const res = await t.request('POST', `/api/v1${url}`, { headers, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as RepoJson;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as AddressInfo).port;
    gitClient = new GitClient();
    for (const u of ['fkowner', 'fkreader', 'fkoutsider', 'fkmember', 'fkcreator']) await t.createUser(u);
    await t.createUser('fkadmin', { admin: true });
    t.app.deps.notifier.subscribe({ name: 'test-forks', handle: (e) => void events.push(e) });
    await create('/user/repos', owner, { name: 'proj', auto_init: true, description: 'the project' });
    await create('/user/repos', owner, { name: 'secret', auto_init: true, private: true });
    expect(
      (await t.request('PUT', '/api/v1/repos/fkowner/secret/collaborators/fkreader', { headers: owner, body: { permission: 'read' } }))
        .statusCode,
    ).toBe(204);
    expect((await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'fkorg' } })).statusCode).toBe(201);
    expect(
      (await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'fkhidden', visibility: 'private' } })).statusCode,
    ).toBe(201);
    const readers = await t.request('POST', '/api/v1/orgs/fkorg/teams', {
      headers: owner,
      body: { name: 'readers', permission: 'read', units: ['repo.code'], can_create_org_repo: false },
    });
    expect(readers.statusCode, readers.body).toBe(201);
    const creators = await t.request('POST', '/api/v1/orgs/fkorg/teams', {
      headers: owner,
      body: {
        name: 'creators',
        permission: 'write',
        units: ['repo.code', 'repo.pulls'],
        can_create_org_repo: true,
        includes_all_repositories: true,
      },
    });
    expect(creators.statusCode, creators.body).toBe(201);
    expect(
      (await t.request('PUT', `/api/v1/teams/${(readers.json() as { id: number }).id}/members/fkmember`, { headers: owner })).statusCode,
    ).toBe(204);
    expect(
      (await t.request('PUT', `/api/v1/teams/${(creators.json() as { id: number }).id}/members/fkcreator`, { headers: owner })).statusCode,
    ).toBe(204);
  });
  afterAll(async () => {
    gitClient?.dispose();
    await t?.close();
  });

  it('a reader forks a public repository: 202, the fork JSON with its parent, rows, counters, activity', async () => {
    expectGiteaError(await fork('fkowner/proj', {}), 401);
    events.length = 0;
    const res = await fork('fkowner/proj', reader);
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json() as RepoJson & Record<string, unknown>;
    expect(body).toMatchObject({
      full_name: 'fkreader/proj',
      owner: { login: 'fkreader' },
      description: 'the project',
      fork: true,
      private: false,
      empty: false,
      default_branch: 'main',
      branch_count: 1,
      has_code: true,
      has_pull_requests: true,
      has_issues: false,
      has_wiki: false,
      has_releases: false,
      permissions: { admin: true, push: true, pull: true },
      parent: { full_name: 'fkowner/proj', fork: false, forks_count: 1 },
    });
    expect(Object.keys(body).indexOf('parent')).toBe(Object.keys(body).indexOf('template') + 1);
    expect((await get('fkowner/proj')).forks_count).toBe(1);
    expect((await get('fkreader/proj', reader)).parent?.full_name).toBe('fkowner/proj');

    const parentRow = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'proj', ownerName: 'fkowner' } });
    const forkRow = await t.db.repository.findUniqueOrThrow({ where: { id: body.id } });
    expect(forkRow).toMatchObject({ isFork: true, forkId: parentRow.id, numWatches: 1, objectFormatName: 'sha1', isEmpty: false });
    expect(forkRow.size > 0n).toBe(true);
    const readerUser = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'fkreader' } });
    expect(readerUser.numRepos).toBe(1);
    const [parentBranch] = await t.db.branch.findMany({ where: { repoId: parentRow.id } });
    expect(
      await t.db.branch.findMany({
        where: { repoId: body.id },
        select: { name: true, commitId: true, commitMessage: true, pusherId: true },
      }),
    ).toEqual([{ name: 'main', commitId: parentBranch?.commitId, commitMessage: 'Initial commit', pusherId: readerUser.id }]);
    expect(refsOf(forkDir('fkreader', 'proj'))).toBe(refsOf(forkDir('fkowner', 'proj')));

    await t.app.deps.notifier.drain();
    expect(events.filter((e) => e.type === 'repo.forked')).toEqual([
      { type: 'repo.forked', repoId: body.id, parentId: parentRow.id, actorId: readerUser.id },
    ]);
    const actions = await t.db.action.findMany({ where: { repoId: body.id }, select: { userId: true, opType: true, actUserId: true } });
    expect(actions).toEqual([{ userId: readerUser.id, opType: 'CREATE_REPO', actUserId: readerUser.id }]);
  });

  it('409 when the owner already has a fork (any name) or the name is taken', async () => {
    const already = 'repository is already forked by user [uname: fkreader, repo path: fkowner/proj, fork path: fkreader/proj]';
    expectGiteaError(await fork('fkowner/proj', reader), 409, already);
    expectGiteaError(await fork('fkowner/proj', reader, { name: 'other' }), 409, already);
    // The one-fork rule comes before the name checks, as in Gitea.
    expectGiteaError(await fork('fkowner/proj', reader, { name: 'bad name' }), 409, already);
    await create('/user/repos', outsider, { name: 'proj' });
    expectGiteaError(await fork('fkowner/proj', outsider), 409, 'repository already exists [uname: fkoutsider, name: proj]');
    expectGiteaError(
      await fork('fkowner/proj', outsider, { name: 'PROJ' }),
      409,
      'repository already exists [uname: fkoutsider, name: PROJ]',
    );
    const named = await fork('fkowner/proj', outsider, { name: 'proj-fork' });
    expect(named.statusCode, named.body).toBe(202);
    expect(named.json()).toMatchObject({ full_name: 'fkoutsider/proj-fork', parent: { full_name: 'fkowner/proj' } });
    expect((await get('fkowner/proj')).forks_count).toBe(2);
    // The owner may fork their own repository under another name (Gitea's API allows it).
    expectGiteaError(await fork('fkowner/proj', owner), 409, 'repository already exists [uname: fkowner, name: proj]');
  });

  it('422 for unusable names; 404 for an invisible repository; 403 without code access, when blocked, or for a read-only token', async () => {
    expectGiteaError(await fork('fkowner/proj', admin, { name: 'bad name' }), 422);
    expectGiteaError(await fork('fkowner/proj', admin, { name: '' }), 422);
    expectGiteaError(await fork('fkowner/proj', admin, { name: 'x.git' }), 422, 'name pattern is not allowed [pattern: *.git]');
    expectGiteaError(await fork('fkowner/proj', admin, { name: 7 }), 422);
    expectGiteaError(await fork('fkowner/secret', outsider), 404);
    expectGiteaError(await fork('fkowner/secret', outsider, { name: 7 }), 404);
    expectGiteaError(await fork('fkowner/nothing', reader), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/fkowner/secret/forks', { headers: outsider }), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/fkowner/secret/forks'), 404);

    await create('/user/repos', owner, { name: 'nocode', auto_init: true });
    expect((await t.request('PATCH', '/api/v1/repos/fkowner/nocode', { headers: owner, body: { has_code: false } })).statusCode).toBe(200);
    expectGiteaError(
      await fork('fkowner/nocode', outsider),
      403,
      'user should have specific read permission or be a repo admin or a site admin',
    );

    await t.createUser('fkblocked');
    expect((await t.request('PUT', '/api/v1/user/blocks/fkblocked', { headers: owner })).statusCode).toBe(204);
    expectGiteaError(await fork('fkowner/proj', basic('fkblocked')), 403, 'user is blocked');

    const readToken = await t.createToken('fkmember', ['read:repository']);
    expectGiteaError(await fork('fkowner/proj', { authorization: `token ${readToken}` }), 403);
    expect(await t.db.repository.count({ where: { ownerName: { in: ['fkadmin', 'fkblocked', 'fkmember'] } } })).toBe(0);
  });

  it('a private repository: a reading collaborator forks it and the fork is private', async () => {
    const res = await fork('fkowner/secret', reader);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      full_name: 'fkreader/secret',
      private: true,
      parent: { full_name: 'fkowner/secret', private: true },
    });
    expectGiteaError(await t.request('GET', '/api/v1/repos/fkreader/secret', { headers: outsider }), 404);
  });

  it('organizations: 404 when unknown or invisible, 403 without create rights; creators, owners and admins fork into them', async () => {
    expectGiteaError(await fork('fkowner/proj', member, { organization: 'nosuchorg' }), 404);
    expectGiteaError(await fork('fkowner/proj', member, { organization: 'fkhidden' }), 404);
    expectGiteaError(await fork('fkowner/proj', member, { organization: 'fkreader' }), 404);
    expectGiteaError(
      await fork('fkowner/proj', outsider, { organization: 'fkorg' }),
      403,
      'User is not allowed to create repositories in this organization.',
    );
    expectGiteaError(
      await fork('fkowner/proj', member, { organization: 'fkorg' }),
      403,
      'User is not allowed to create repositories in this organization.',
    );

    const byCreator = await fork('fkowner/proj', creator, { organization: 'fkorg' });
    expect(byCreator.statusCode, byCreator.body).toBe(202);
    expect(byCreator.json()).toMatchObject({ full_name: 'fkorg/proj', owner: { login: 'fkorg' }, fork: true });
    const id = (byCreator.json() as RepoJson).id;
    const org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'fkorg' } });
    expect(org.numRepos).toBe(1);
    const creatorsTeam = await t.db.team.findFirstOrThrow({ where: { orgId: org.id, lowerName: 'creators' } });
    expect(await t.db.teamRepo.count({ where: { teamId: creatorsTeam.id, repoId: id } })).toBe(1);
    expect(creatorsTeam.numRepos).toBe(1);
    // A write team is not admin of the fork, so its creator becomes an admin collaborator (Gitea).
    expect(await t.db.collaboration.findMany({ where: { repoId: id }, select: { mode: true, user: { select: { name: true } } } })).toEqual([
      { mode: 'ADMIN', user: { name: 'fkcreator' } },
    ]);
    // A public fork in a public organization is readable by its members.
    expect((await t.request('GET', '/api/v1/repos/fkorg/proj', { headers: member })).statusCode).toBe(200);

    const byOwner = await fork('fkowner/secret', owner, { organization: 'fkhidden' });
    expect(byOwner.statusCode, byOwner.body).toBe(202);
    expect(byOwner.json()).toMatchObject({ full_name: 'fkhidden/secret', private: true });
    const byAdmin = await fork('fkowner/nocode', admin, { organization: 'fkorg' });
    expect(byAdmin.statusCode, byAdmin.body).toBe(202);
  });

  it('GET lists the visible forks with pagination headers', async () => {
    // A public fork in a private organization: invisible to outsiders.
    expect((await fork('fkowner/proj', owner, { organization: 'fkhidden' })).statusCode).toBe(202);
    const all = await t.request('GET', '/api/v1/repos/fkowner/proj/forks', { headers: owner });
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('4');
    expect((all.json() as RepoJson[]).map((r) => r.full_name)).toEqual([
      'fkreader/proj',
      'fkoutsider/proj-fork',
      'fkorg/proj',
      'fkhidden/proj',
    ]);
    expect((all.json() as RepoJson[])[0]?.parent?.full_name).toBe('fkowner/proj');

    const anon = await t.request('GET', '/api/v1/repos/fkowner/proj/forks?limit=1&page=2');
    expect(anon.statusCode).toBe(200);
    expect(anon.headers['x-total-count']).toBe('3');
    expect((anon.json() as RepoJson[]).map((r) => r.full_name)).toEqual(['fkoutsider/proj-fork']);
    expect(anon.headers.link).toBe(
      linkHeader('repos/fkowner/proj/forks', { limit: '1' }, [
        ['next', 3],
        ['last', 3],
        ['first', 1],
        ['prev', 1],
      ]),
    );
    expect((await t.request('GET', '/api/v1/repos/fkowner/secret/forks', { headers: reader })).json()).toHaveLength(1);
  });

  it('deleting a fork decrements forks_count; deleting the parent makes its forks ordinary repositories', async () => {
    await create('/user/repos', owner, { name: 'base', auto_init: true });
    for (const h of [reader, outsider]) expect((await fork('fkowner/base', h)).statusCode).toBe(202);
    expect((await get('fkowner/base')).forks_count).toBe(2);
    expect((await t.request('DELETE', '/api/v1/repos/fkoutsider/base', { headers: outsider })).statusCode).toBe(204);
    expect((await get('fkowner/base')).forks_count).toBe(1);
    const forkBefore = git(forkDir('fkreader', 'base'), 'log', '--format=%H', 'main');
    expect((await t.request('DELETE', '/api/v1/repos/fkowner/base', { headers: owner })).statusCode).toBe(204);
    const orphan = await get('fkreader/base', reader);
    expect(orphan.fork).toBe(false);
    expect(orphan.parent).toBeUndefined();
    expect(
      await t.db.repository.findFirst({ where: { ownerName: 'fkreader', lowerName: 'base' }, select: { isFork: true, forkId: true } }),
    ).toEqual({ isFork: false, forkId: null });
    git(forkDir('fkreader', 'base'), 'fsck', '--no-progress');
    expect(git(forkDir('fkreader', 'base'), 'log', '--format=%H', 'main')).toBe(forkBefore);
  });

  it('forking an empty repository gives an empty fork', async () => {
    await create('/user/repos', owner, { name: 'blank', default_branch: 'trunk' });
    const res = await fork('fkowner/blank', reader);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ full_name: 'fkreader/blank', empty: true, default_branch: 'trunk', branch_count: 0, fork: true });
    expect(refsOf(forkDir('fkreader', 'blank'))).toBe('');
  });

  it('no row when git fails; no directory when the database fails; an existing directory is left alone', async () => {
    await create('/user/repos', owner, { name: 'fragile', auto_init: true });
    const parentDir = forkDir('fkowner', 'fragile');
    const moved = `${parentDir}-moved`;
    execFileSync('mv', [parentDir, moved]);
    const broken = await fork('fkowner/fragile', reader);
    expect(broken.statusCode).toBe(500);
    execFileSync('mv', [moved, parentDir]);
    const parentRow = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'fkowner', lowerName: 'fragile' } });
    expect(parentRow.numForks).toBe(0);
    expect(await t.db.repository.count({ where: { forkId: parentRow.id } })).toBe(0);
    expect(existsSync(forkDir('fkreader', 'fragile'))).toBe(false);

    if (provider === 'sqlite') {
      await t.db.$executeRawUnsafe(`CREATE TRIGGER fk_fail BEFORE INSERT ON "Branch" BEGIN SELECT RAISE(ABORT, 'injected'); END`);
    } else {
      await t.db.$executeRawUnsafe(
        `CREATE FUNCTION fk_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$ LANGUAGE plpgsql`,
      );
      await t.db.$executeRawUnsafe(`CREATE TRIGGER fk_fail BEFORE INSERT ON "Branch" FOR EACH ROW EXECUTE FUNCTION fk_fail()`);
    }
    const failed = await fork('fkowner/fragile', reader);
    await t.db.$executeRawUnsafe(provider === 'sqlite' ? 'DROP TRIGGER fk_fail' : 'DROP TRIGGER fk_fail ON "Branch"');
    expect(failed.statusCode).toBe(500);
    expect(existsSync(forkDir('fkreader', 'fragile'))).toBe(false);
    expect(await t.db.repository.count({ where: { forkId: parentRow.id } })).toBe(0);
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: parentRow.id } })).numForks).toBe(0);

    mkdirSync(forkDir('fkreader', 'fragile'), { recursive: true });
    expectGiteaError(await fork('fkowner/fragile', reader), 409, 'repository files already exist');
    expect(existsSync(forkDir('fkreader', 'fragile'))).toBe(true);
    rmSync(forkDir('fkreader', 'fragile'), { recursive: true });
    expect((await fork('fkowner/fragile', reader)).statusCode).toBe(202);
  });

  it('real git: push to the parent, fork, clone the fork with the same history; a push to the fork leaves the parent alone', async () => {
    await create('/user/repos', owner, { name: 'live' });
    const work = gitClient.dir('live');
    await gitClient.ok(['init', '-q', '-b', 'main', work]);
    for (let i = 0; i < 5; i++) await gitClient.commit(work, `f${i}.txt`, `content ${i}\n`, `commit ${i}`);
    await gitClient.ok(['tag', 'v1.0'], { cwd: work });
    await gitClient.ok(['branch', 'feature', 'HEAD~2'], { cwd: work });
    await gitClient.ok(['push', gitUrl(port, 'fkowner', 'live', { user: 'fkowner', secret: PASSWORD }), 'main', 'feature', '--tags'], {
      cwd: work,
    });
    const history = (await gitClient.ok(['log', '--format=%H', 'main'], { cwd: work })).trim();

    const res = await fork('fkowner/live', reader);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ empty: false, branch_count: 2 });

    const clone = path.join(gitClient.home, 'live-fork');
    await gitClient.ok(['clone', '-q', gitUrl(port, 'fkreader', 'live'), clone]);
    expect((await gitClient.ok(['log', '--format=%H', 'main'], { cwd: clone })).trim()).toBe(history);
    expect((await gitClient.ok(['tag'], { cwd: clone })).trim()).toBe('v1.0');
    expect((await gitClient.ok(['branch', '-r'], { cwd: clone })).split('\n').map((s) => s.trim())).toContain('origin/feature');

    const newSha = await gitClient.commit(clone, 'fork-only.txt', 'mine\n', 'fork commit');
    await gitClient.ok(['push', '-q', gitUrl(port, 'fkreader', 'live', { user: 'fkreader', secret: PASSWORD }), 'main'], { cwd: clone });
    const forkRow = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'fkreader', lowerName: 'live' } });
    expect((await t.db.branch.findUniqueOrThrow({ where: { repoId_name: { repoId: forkRow.id, name: 'main' } } })).commitId).toBe(newSha);
    const parentHead = (await gitClient.ok(['ls-remote', gitUrl(port, 'fkowner', 'live'), 'refs/heads/main'])).split('\t')[0];
    expect(parentHead).toBe(history.split('\n')[0]);
    expect(git(forkDir('fkowner', 'live'), 'cat-file', '-t', history.split('\n')[0] ?? '').trim()).toBe('commit');
    expect(() => git(forkDir('fkowner', 'live'), 'cat-file', '-e', newSha)).toThrow();
    expect(readFileSync(path.join(forkDir('fkreader', 'live'), 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/main');
  });
});
