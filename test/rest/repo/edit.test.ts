import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import * as repoCreate from '../../../src/services/repo/create.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { contextFor, createOrgAs } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

interface ApiRepo {
  name: string;
  [k: string]: unknown;
}

describe.each(PROVIDERS)('REST repository edit (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];

  /** Creates a repository through the repository service (real bare git directory). */
  async function repo(
    creator: Models.User,
    name: string,
    opts: { private?: boolean; org?: string; autoInit?: boolean } = {},
  ): Promise<Models.Repository> {
    const ref: repoCreate.RepoOwnerRef = opts.org ? { kind: 'org', org: opts.org } : { kind: 'viewer' };
    const created = await repoCreate.createRepo(contextFor(t, creator), ref, {
      name,
      private: opts.private ?? false,
      autoInit: opts.autoInit ?? true,
    });
    return created.repo;
  }
  const patch = (viewer: string, p: string, body: unknown) => t.request('PATCH', `/api/v1/repos/${p}`, { headers: as(viewer), body });
  const row = (id: number) => t.db.repository.findUniqueOrThrow({ where: { id }, include: { units: true } });
  const unitConfig = async (id: number, type: Models.RepoUnitType): Promise<unknown> => {
    const u = await t.db.repoUnit.findUnique({ where: { repoId_type: { repoId: id, type } } });
    return u ? JSON.parse(u.config) : null;
  };
  const gitDir = (owner: string, name: string) => repoPath(t.config.repositoriesDir, owner, name);
  const collab = (r: Models.Repository, u: Models.User, mode: Models.AccessMode) => addCollaborator(t, r, u, mode);

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'adminc', 'outsider', 'orgowner']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    users.acme = await createOrgAs(t, users.orgowner!, 'acme');
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('TestAPIRepoEdit: the owner edits name, description, website, private, archived and units; response and DB match', async () => {
    const r = await repo(users.alice!, 'repo1');
    const res = await patch('alice', 'alice/repo1', {
      name: 'repo1-edited',
      description: 'new description',
      website: 'https://example.com',
      private: true,
      archived: true,
      has_issues: true,
      internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: true },
      has_wiki: true,
      has_pull_requests: true,
      has_projects: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'repo1-edited',
      full_name: 'alice/repo1-edited',
      description: 'new description',
      website: 'https://example.com',
      private: true,
      archived: true,
      has_issues: true,
      internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: true },
      has_wiki: true,
      has_pull_requests: true,
      has_projects: false,
      permissions: { admin: true, push: true, pull: true },
      url: 'http://localhost:3000/api/v1/repos/alice/repo1-edited',
    });
    expect(body.archived_at).not.toBe('1970-01-01T00:00:00Z');
    const db = await row(r.id);
    expect(db).toMatchObject({
      name: 'repo1-edited',
      lowerName: 'repo1-edited',
      description: 'new description',
      website: 'https://example.com',
      isPrivate: true,
      isArchived: true,
    });
    expect(db.archivedAt).not.toBeNull();
    expect(db.units.map((u) => u.type)).not.toContain('PROJECTS');
    expect(await unitConfig(r.id, 'ISSUES')).toEqual({
      enableTimetracker: false,
      allowOnlyContributorsToTrackTime: false,
      enableDependencies: true,
    });
    // The rename moved the git directory and left a redirect for the old name.
    expect(existsSync(gitDir('alice', 'repo1-edited'))).toBe(true);
    expect(existsSync(gitDir('alice', 'repo1'))).toBe(false);
    expect(
      await t.db.repoRedirect.findUnique({ where: { ownerId_lowerName: { ownerId: users.alice!.id, lowerName: 'repo1' } } }),
    ).toMatchObject({ redirectRepoId: r.id });
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events).toContainEqual({ type: 'repo.renamed', repoId: r.id, oldName: 'repo1', actorId: users.alice!.id });
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events.find((e) => e.type === 'repo.updated' && e.repoId === r.id)).toMatchObject({
      fields: expect.arrayContaining(['name', 'private', 'archived', 'units']),
    });
    // Unarchive (an archived repository can be edited) and make it public again.
    const back = await patch('alice', 'alice/repo1-edited', { archived: false, private: false, name: 'repo1' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ archived: false, private: false, archived_at: '1970-01-01T00:00:00Z', name: 'repo1' });
    expect(
      await t.db.repoRedirect.findUnique({ where: { ownerId_lowerName: { ownerId: users.alice!.id, lowerName: 'repo1' } } }),
    ).toBeNull();
    expect(
      await t.db.repoRedirect.findUnique({ where: { ownerId_lowerName: { ownerId: users.alice!.id, lowerName: 'repo1-edited' } } }),
    ).toMatchObject({ redirectRepoId: r.id });
    expect(existsSync(gitDir('alice', 'repo1'))).toBe(true);
  });

  it('external tracker and wiki: stored as sent; invalid URLs and formats are 422; a PATCH without has_issues/has_wiki leaves units alone', async () => {
    const r = await repo(users.alice!, 'trackers');
    const tracker = {
      external_tracker_url: 'http://www.example.com/issues',
      external_tracker_format: 'http://www.example.com/{user}/{repo}?issue={index}',
      external_tracker_style: 'numeric',
      external_tracker_regexp_pattern: '',
    };
    const ok = await patch('alice', 'alice/trackers', {
      has_issues: true,
      external_tracker: tracker,
      has_wiki: true,
      external_wiki: { external_wiki_url: 'http://www.example.com/wiki' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().external_tracker).toEqual(tracker);
    expect(ok.json().external_wiki).toEqual({ external_wiki_url: 'http://www.example.com/wiki' });
    expect(ok.json().internal_tracker).toBeUndefined();
    expect(await unitConfig(r.id, 'EXT_ISSUES')).toEqual({
      externalTrackerURL: tracker.external_tracker_url,
      externalTrackerFormat: tracker.external_tracker_format,
      externalTrackerStyle: 'numeric',
      externalTrackerRegexpPattern: '',
    });
    expect(await unitConfig(r.id, 'ISSUES')).toBeNull();
    expect(await unitConfig(r.id, 'WIKI')).toBeNull();
    expectGiteaError(
      await patch('alice', 'alice/trackers', {
        has_issues: true,
        external_tracker: { ...tracker, external_tracker_url: 'htp://www.example.com' },
      }),
      422,
      'External tracker URL not valid',
    );
    expectGiteaError(
      await patch('alice', 'alice/trackers', {
        has_issues: true,
        external_tracker: { ...tracker, external_tracker_format: 'http://www.example.com/{user/{repo}?issue={index}' },
      }),
      422,
      'External tracker URL format not valid',
    );
    expectGiteaError(
      await patch('alice', 'alice/trackers', { has_wiki: true, external_wiki: { external_wiki_url: 'htp://www.example.com' } }),
      422,
      'Invalid external wiki URL',
    );
    // Without has_issues / has_wiki, trackers and wikis are ignored.
    const untouched = await patch('alice', 'alice/trackers', {
      internal_tracker: { enable_time_tracker: true },
      external_wiki: { external_wiki_url: 'http://other.example.com' },
      description: 'd',
    });
    expect(untouched.statusCode).toBe(200);
    expect(untouched.json().external_tracker).toEqual(tracker);
    expect(untouched.json().external_wiki).toEqual({ external_wiki_url: 'http://www.example.com/wiki' });
    // Back to the internal tracker: the previous internal config is gone, so Gitea's defaults apply.
    const internal = await patch('alice', 'alice/trackers', { has_issues: true, has_wiki: true });
    expect(internal.json()).toMatchObject({
      has_issues: true,
      internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
      has_wiki: true,
    });
    expect(internal.json().external_wiki).toBeUndefined();
    expect(await unitConfig(r.id, 'EXT_ISSUES')).toBeNull();
    const off = await patch('alice', 'alice/trackers', {
      has_issues: false,
      has_wiki: false,
      has_code: false,
      has_releases: false,
      has_packages: false,
      has_actions: false,
    });
    expect(off.json()).toMatchObject({
      has_issues: false,
      has_wiki: false,
      has_code: false,
      has_releases: false,
      has_packages: false,
      has_actions: false,
    });
    expect((await row(r.id)).units.map((u) => u.type).sort()).toEqual(['PROJECTS', 'PULL_REQUESTS']);
    const on = await patch('alice', 'alice/trackers', { has_code: true, has_releases: true, has_projects: true, projects_mode: 'owner' });
    expect(on.json()).toMatchObject({ has_code: true, has_releases: true, has_projects: true, projects_mode: 'owner' });
    expectGiteaError(
      await patch('alice', 'alice/trackers', { has_projects: true, projects_mode: 'everything' }),
      422,
      '[ProjectsMode]: In',
    );
  });

  it('pull-request settings apply without has_pull_requests; TestAPIRepoEditPullUpdateSettingsValidation', async () => {
    const r = await repo(users.alice!, 'pulls');
    const alone = await patch('alice', 'alice/pulls', { default_delete_branch_after_merge: true });
    expect(alone.statusCode).toBe(200);
    expect(alone.json().default_delete_branch_after_merge).toBe(true);
    const merge = await patch('alice', 'alice/pulls', {
      allow_squash_merge: false,
      allow_manual_merge: true,
      autodetect_manual_merge: true,
      default_merge_style: 'squash',
      default_allow_maintainer_edit: true,
      ignore_whitespace_conflicts: true,
      allow_fast_forward_only_merge: false,
      allow_rebase_explicit: false,
    });
    expect(merge.json()).toMatchObject({
      allow_squash_merge: false,
      allow_manual_merge: true,
      autodetect_manual_merge: true,
      default_merge_style: 'squash',
      default_allow_maintainer_edit: true,
      ignore_whitespace_conflicts: true,
      allow_fast_forward_only_merge: false,
      allow_rebase_explicit: false,
      allow_merge_commits: true,
      allow_rebase: true,
      default_delete_branch_after_merge: true,
    });
    expectGiteaError(
      await patch('alice', 'alice/pulls', { allow_merge_update: false, allow_rebase_update: false }),
      422,
      'at least one pull request branch update style must be enabled',
    );
    expectGiteaError(
      await patch('alice', 'alice/pulls', { allow_merge_update: false, allow_rebase_update: true, default_update_style: 'merge' }),
      422,
      'default update style must be enabled',
    );
    expectGiteaError(
      await patch('alice', 'alice/pulls', { default_update_style: 'squash' }),
      422,
      'default update style must be merge or rebase',
    );
    const ok = await patch('alice', 'alice/pulls', {
      allow_merge_update: false,
      allow_rebase_update: true,
      default_update_style: 'rebase',
    });
    expect(ok.json()).toMatchObject({ allow_merge_update: false, allow_rebase_update: true, default_update_style: 'rebase' });
    expect(await unitConfig(r.id, 'PULL_REQUESTS')).toMatchObject({
      allowMergeUpdate: false,
      allowRebaseUpdate: true,
      defaultUpdateStyle: 'rebase',
      defaultDeleteBranchAfterMerge: true,
    });
    // A failed validation changed nothing else in the same request.
    expectGiteaError(await patch('alice', 'alice/pulls', { description: 'not saved', allow_rebase_update: false }), 422);
    expect((await row(r.id)).description).toBe('');
    const disabled = await patch('alice', 'alice/pulls', { has_pull_requests: false });
    expect(disabled.json().has_pull_requests).toBe(false);
    const ignored = await patch('alice', 'alice/pulls', { allow_squash_merge: true });
    expect(ignored.json().has_pull_requests).toBe(false);
    const enabled = await patch('alice', 'alice/pulls', { has_pull_requests: true });
    expect(enabled.json()).toMatchObject({
      has_pull_requests: true,
      allow_squash_merge: true,
      allow_merge_update: true,
      default_update_style: 'merge',
    });
  });

  it('renames: conflicts, reserved names and bad characters are 422; a case-only change keeps the directory and leaves no redirect', async () => {
    const r = await repo(users.alice!, 'renamer');
    await repo(users.alice!, 'taken');
    expectGiteaError(
      await patch('alice', 'alice/renamer', { name: 'Taken' }),
      422,
      'repository already exists [uname: alice, name: Taken]',
    );
    expectGiteaError(await patch('alice', 'alice/renamer', { name: 'x.git' }), 422, 'name pattern is not allowed [pattern: *.git]');
    expectGiteaError(await patch('alice', 'alice/renamer', { name: '..' }), 422);
    expectGiteaError(await patch('alice', 'alice/renamer', { name: 'bad name' }), 422, '[Name]: AlphaDashDot');
    const cased = await patch('alice', 'alice/renamer', { name: 'ReNamer' });
    expect(cased.json().name).toBe('ReNamer');
    expect(existsSync(gitDir('alice', 'renamer'))).toBe(true);
    expect(await t.db.repoRedirect.count({ where: { redirectRepoId: r.id } })).toBe(0);
    await t.app.deps.notifier.drain(); // subscribers run after the response
    expect(events.some((e) => e.type === 'repo.renamed' && e.repoId === r.id)).toBe(false);
    const same = await patch('alice', 'alice/renamer', { name: 'ReNamer' });
    expect(same.statusCode).toBe(200);
  });

  it('default_branch: applied when the branch exists (HEAD too) or the repository is empty; otherwise silently kept', async () => {
    const r = await repo(users.alice!, 'branches');
    const dir = gitDir('alice', 'branches');
    execFileSync('git', ['--git-dir', dir, 'branch', 'dev', 'main']);
    const missing = await patch('alice', 'alice/branches', { default_branch: 'nope' });
    expect(missing.statusCode).toBe(200);
    expect(missing.json().default_branch).toBe('main');
    const dev = await patch('alice', 'alice/branches', { default_branch: 'dev' });
    expect(dev.json().default_branch).toBe('dev');
    expect((await row(r.id)).defaultBranch).toBe('dev');
    expect(execFileSync('git', ['--git-dir', dir, 'symbolic-ref', 'HEAD']).toString().trim()).toBe('refs/heads/dev');
    const empty = await repo(users.alice!, 'emptyrepo', { autoInit: false });
    const e = await patch('alice', 'alice/emptyrepo', { default_branch: 'trunk' });
    expect(e.json()).toMatchObject({ default_branch: 'trunk', empty: true });
    expect((await row(empty.id)).defaultBranch).toBe('trunk');
    // TestAPIRepoEdit: archive and unarchive an empty repository.
    expect((await patch('alice', 'alice/emptyrepo', { archived: true })).json().archived).toBe(true);
    expect((await patch('alice', 'alice/emptyrepo', { archived: false })).json().archived).toBe(false);
  });

  it('making a repository private clears its stars and watches; template flag', async () => {
    const r = await repo(users.alice!, 'starred');
    await t.db.star.create({ data: { repoId: r.id, userId: users.outsider!.id } });
    await t.db.user.update({ where: { id: users.outsider!.id }, data: { numStars: 1 } });
    await t.db.repository.update({ where: { id: r.id }, data: { numStars: 1 } });
    const res = await patch('alice', 'alice/starred', { private: true, template: true });
    expect(res.json()).toMatchObject({ private: true, template: true, stars_count: 0, watchers_count: 0 });
    expect(await t.db.star.count({ where: { repoId: r.id } })).toBe(0);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: users.outsider!.id } })).numStars).toBe(0);
    expect((await patch('alice', 'alice/starred', { private: false })).json().private).toBe(false);
  });

  it('mirror settings: ignored on non-mirrors; validated and applied on mirrors; mirrors cannot be archived', async () => {
    const plain = await repo(users.alice!, 'plain');
    const res = await patch('alice', 'alice/plain', {
      mirror_interval: 'garbage',
      enable_prune: false,
      mirror_username: 'u',
      mirror_password: 'p',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().mirror_interval).toBe('');
    const m = await repo(users.alice!, 'mirror');
    await t.db.repository.update({ where: { id: m.id }, data: { isMirror: true } });
    await t.db.mirror.create({ data: { repoId: m.id, interval: 28800, remoteAddress: 'https://example.com/x.git' } });
    expect((await patch('alice', 'alice/mirror', { mirror_interval: '1h30m' })).json().mirror_interval).toBe('1h30m0s');
    expect((await t.db.mirror.findUniqueOrThrow({ where: { repoId: m.id } })).interval).toBe(5400);
    expectGiteaError(
      await patch('alice', 'alice/mirror', { mirror_interval: '5m' }),
      422,
      'invalid mirror interval: 5m0s is below minimum interval: 10m0s',
    );
    expectGiteaError(await patch('alice', 'alice/mirror', { mirror_interval: 'abc' }), 422, 'time: invalid duration "abc"');
    expectGiteaError(await patch('alice', 'alice/mirror', { mirror_interval: '10' }), 422, 'time: missing unit in duration "10"');
    const zero = await patch('alice', 'alice/mirror', { mirror_interval: '0', enable_prune: false });
    expect(zero.json().mirror_interval).toBe('0s');
    expect(await t.db.mirror.findUniqueOrThrow({ where: { repoId: m.id } })).toMatchObject({
      interval: 0,
      enablePrune: false,
      nextUpdateAt: null,
    });
    expectGiteaError(await patch('alice', 'alice/mirror', { archived: true }), 422, 'repo is a mirror, cannot archive/un-archive');
    void plain;
  });

  it('permissions: every role on a private user repository, a public one and an organization repository', async () => {
    const priv = await repo(users.alice!, 'privrole', { private: true });
    const pub = await repo(users.alice!, 'pubrole');
    const org = await repo(users.orgowner!, 'orgrole', { private: true, org: 'acme' });
    for (const r of [priv, pub, org]) {
      await collab(r, users.reader!, 'READ');
      await collab(r, users.writer!, 'WRITE');
      await collab(r, users.adminc!, 'ADMIN');
    }
    const cases: Array<[string, string, number]> = [
      ['anon', 'alice/privrole', 404],
      ['anon', 'alice/pubrole', 401],
      ['outsider', 'alice/privrole', 404],
      ['outsider', 'alice/pubrole', 403],
      ['reader', 'alice/privrole', 403],
      ['writer', 'alice/privrole', 403],
      ['adminc', 'alice/privrole', 200],
      ['alice', 'alice/privrole', 200],
      ['root', 'alice/privrole', 200],
      ['anon', 'acme/orgrole', 404],
      ['writer', 'acme/orgrole', 403],
      ['adminc', 'acme/orgrole', 200],
      ['orgowner', 'acme/orgrole', 200],
      ['root', 'acme/orgrole', 200],
      ['alice', 'alice/nonexistent', 404],
    ];
    for (const [viewer, p, status] of cases) {
      const res = await patch(viewer, p, { description: `by ${viewer}` });
      expect({ viewer, p, status: res.statusCode }).toEqual({ viewer, p, status });
      if (status === 403) expectGiteaError(res, 403, 'user should be an owner or a collaborator with admin write of a repository');
      if (status === 401) expectGiteaError(res, 401, 'token is required');
      if (status === 200) expect((res.json() as ApiRepo).description).toBe(`by ${viewer}`);
    }
  });

  it('spec rule 2: an organization restricting visibility changes to its owners refuses non-owners (422), both ways', async () => {
    const r = await repo(users.orgowner!, 'visible', { org: 'acme' });
    await collab(r, users.adminc!, 'ADMIN');
    // Not restricted: a repository admin may change visibility.
    expect((await patch('adminc', 'acme/visible', { private: true })).json().private).toBe(true);
    expect((await patch('adminc', 'acme/visible', { private: false })).json().private).toBe(false);
    await t.db.user.update({ where: { id: users.acme!.id }, data: { restrictVisibilityChangesToOwners: true } });
    expectGiteaError(
      await patch('adminc', 'acme/visible', { private: true }),
      422,
      'only owners of the organization acme can change the visibility of its repositories',
    );
    expect((await row(r.id)).isPrivate).toBe(false);
    // Sending the current value is not a change; other fields still apply.
    const same = await patch('adminc', 'acme/visible', { private: false, description: 'ok' });
    expect(same.statusCode).toBe(200);
    expect(same.json().description).toBe('ok');
    expect((await patch('orgowner', 'acme/visible', { private: true })).json().private).toBe(true);
    expect((await patch('root', 'acme/visible', { private: false })).json().private).toBe(false);
    await t.db.user.update({ where: { id: users.acme!.id }, data: { restrictVisibilityChangesToOwners: false } });
    expect((await patch('adminc', 'acme/visible', { private: true })).json().private).toBe(true);
  });

  it('renders the response with the fresh permission after the edit', async () => {
    const r = await repo(users.alice!, 'fresh');
    await collab(r, users.reader!, 'READ');
    await collab(r, users.adminc!, 'ADMIN');
    const res = await patch('adminc', 'alice/fresh', { has_code: false });
    expect(res.json()).toMatchObject({ has_code: false, permissions: { admin: true, push: false, pull: false } });
  });
});
