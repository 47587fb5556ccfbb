import { freePort } from '../../helpers/serverProcess.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { readBranchAndTagRefs } from '../../../src/git/remoteMirror.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { openCredentials } from '../../../src/services/migration/credentials.ts';
import { queueDueMirrors } from '../../../src/services/migration/mirrorSync.ts';
import { basic, isGiteaError, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { GitClient, gitUrl } from '../../githttp/gitClient.ts';
import { holdRepoLock } from '../../helpers/heldLock.ts';

/** Migrations from a second Forgegraph instance (it speaks Gitea's API and git over HTTP), and pull mirrors of it. */
describe.each(PROVIDERS)('POST /repos/migrate and mirrors (%s)', (provider) => {
  let source: TestApp;
  let target: TestApp;
  let port: number;
  let git: GitClient;
  let bob: Models.User;
  const asAlice = basic('alice');
  const asBob = basic('bob');
  const src = (path: string) => `/api/v1/repos/alice/proj${path}`;
  const refsOf = (t: TestApp, owner: string, name: string) => readBranchAndTagRefs(repoPath(t.config.repositoriesDir, owner, name));

  beforeAll(async () => {
    port = await freePort();
    source = await startTestApp(provider, { ROOT_URL: `http://127.0.0.1:${port}/` });
    await source.app.server.listen({ port, host: '127.0.0.1' });
    target = await startTestApp(provider, { MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
    git = new GitClient();
    await source.createUser('alice');
    await source.createUser('carol');
    bob = await target.createUser('bob');
    // The source: commits on two branches, a tag, labels, milestones, issues with comments and reactions, a pull request, a release.
    expect(
      (await source.request('POST', '/api/v1/user/repos', { headers: asAlice, body: { name: 'proj', auto_init: true } })).statusCode,
    ).toBe(201);
    const work = git.dir('proj');
    const url = gitUrl(port, 'alice', 'proj', { user: 'alice', secret: PASSWORD });
    await git.ok(['clone', '-q', url, work]);
    await git.commit(work, 'a.txt', 'a\n');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: work });
    await git.commit(work, 'b.txt', 'b\n');
    await git.ok(['push', '-q', 'origin', 'feature'], { cwd: work });
    await git.ok(['tag', 'v1.0', 'main'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'v1.0'], { cwd: work });
    await source.app.jobs.drain();
    const post = async (path: string, body: unknown, headers = asAlice) => {
      const res = await source.request('POST', src(path), { headers, body });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json();
    };
    await post('/labels', { name: 'bug', color: '#ee0701', description: 'broken' });
    await post('/labels', { name: 'feature', color: '#00aabb' });
    const m1 = await post('/milestones', { title: 'v1', description: 'first' });
    await post('/milestones', { title: 'v2' });
    const i1 = await post('/issues', { title: 'first issue', body: 'hello', labels: [], milestone: m1.id });
    await post('/issues/1/labels', { labels: ['bug'] });
    await post('/issues/1/comments', { body: 'a comment by carol' }, basic('carol'));
    await post('/issues/1/comments', { body: 'an answer' });
    await post('/issues/1/reactions', { content: 'heart' }, basic('carol'));
    await post('/issues', { title: 'second issue', body: 'closed one' });
    expect((await source.request('PATCH', src('/issues/2'), { headers: asAlice, body: { state: 'closed' } })).statusCode).toBe(201);
    await post('/pulls', { title: 'a feature', body: 'please', head: 'feature', base: 'main' });
    await post('/pulls/3/reviews', { body: 'looks good', event: 'COMMENT' }, basic('carol'));
    const release = await post('/releases', { tag_name: 'v1.0', name: 'Version 1', body: 'notes' });
    const asset = await source.request('POST', src(`/releases/${release.id}/assets?name=notes.txt`), {
      headers: { ...asAlice, 'content-type': 'application/octet-stream' },
      payload: 'asset bytes',
    });
    expect(asset.statusCode, asset.body).toBe(201);
    expect(i1.number).toBe(1);
    await source.app.jobs.drain();
    await source.app.deps.notifier.drain();
  });
  afterAll(async () => {
    git?.dispose();
    await source?.close();
    await target?.close();
  });

  const migrate = (body: Record<string, unknown>, headers = asBob) => target.request('POST', '/api/v1/repos/migrate', { headers, body });

  it('checks the body, the owner, the address and the name in Gitea order', async () => {
    const missing = await migrate({ repo_name: 'x' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('[CloneAddr]: Required');
    const noOwner = await migrate({ clone_addr: 'https://93.184.216.34/a/b.git', repo_name: 'x', repo_owner: 'nobody' });
    expect([noOwner.statusCode, noOwner.json().message]).toEqual([422, 'user does not exist [uid: 0, name: nobody]']);
    await target.createUser('dave');
    const other = await migrate({ clone_addr: 'https://93.184.216.34/a/b.git', repo_name: 'x', repo_owner: 'dave' });
    expect([other.statusCode, other.json().message]).toEqual([403, 'Given user is not an organization.']);
    const invalid = await migrate({ clone_addr: 'ftp://example.com/x.git', repo_name: 'x' });
    expect([invalid.statusCode, invalid.json().message]).toEqual([422, 'The provided URL is invalid.']);
    const local = await migrate({ clone_addr: '/etc', repo_name: 'x' });
    expect([local.statusCode, local.json().message]).toEqual([422, 'You are not allowed to import local repositories.']);
    target.config.migrations.allowLocalNetworks = false;
    try {
      for (const addr of ['https://localhost:3000/a/b.git', 'https://10.0.0.1/a/b.git', `http://127.0.0.1:${port}/alice/proj.git`]) {
        const res = await migrate({ clone_addr: addr, repo_name: 'x' });
        expect([res.statusCode, res.json().message]).toEqual([422, 'You can not import from disallowed hosts.']);
        expect(isGiteaError(res.json())).toBe(true);
      }
    } finally {
      target.config.migrations.allowLocalNetworks = true;
    }
    target.config.migrations.blockedDomains = ['127.0.0.*'];
    try {
      const res = await migrate({ clone_addr: `http://127.0.0.1:${port}/alice/proj.git`, repo_name: 'x' });
      expect(res.json().message).toBe('You can not import from disallowed hosts.');
    } finally {
      target.config.migrations.blockedDomains = [];
    }
    expect((await target.request('POST', '/api/v1/user/repos', { headers: asBob, body: { name: 'taken' } })).statusCode).toBe(201);
    // The name conflict comes before any contact with the source (this address does not answer).
    const conflict = await migrate({ clone_addr: 'https://93.184.216.34/go-gitea/test_repo.git', repo_name: 'taken' });
    expect([conflict.statusCode, conflict.json().message]).toEqual([409, 'The repository with the same name already exists.']);
  });

  it('migrates a plain git URL: every branch and tag, HEAD, branch rows; credentials are not stored', async () => {
    const res = await migrate({
      clone_addr: `http://127.0.0.1:${port}/alice/proj.git`,
      repo_name: 'plain',
      auth_username: 'alice',
      auth_password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'plain',
      mirror: false,
      empty: false,
      default_branch: 'main',
      original_url: `http://127.0.0.1:${port}/alice/proj.git`,
    });
    expect(await refsOf(target, 'bob', 'plain')).toEqual(await refsOf(source, 'alice', 'proj'));
    const row = await target.db.repository.findFirstOrThrow({ where: { name: 'plain' } });
    expect(row.status).toBe('READY');
    expect(await target.db.branch.count({ where: { repoId: row.id, isDeleted: false } })).toBe(2);
    const jobs = await target.db.job.findMany({ where: { kind: 'repo.migrate' } });
    expect(jobs.map((j) => j.payload).join()).not.toContain(PASSWORD);
    // A release row was made for the tag (Gitea SyncReleasesWithTags).
    expect(await target.db.release.count({ where: { repoId: row.id, tagName: 'v1.0' } })).toBe(1);
  });

  it('a failing migration removes what it made and says why', async () => {
    const res = await migrate({ clone_addr: `http://127.0.0.1:${port}/alice/missing.git`, repo_name: 'broken' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^(Migration|Authentication) failed: /);
    expect(await target.db.repository.count({ where: { name: 'broken' } })).toBe(0);
  });

  it('migrates from the Gitea API: labels, milestones, issues, comments, reactions, pulls, reviews, releases, refs', async () => {
    const res = await migrate({
      clone_addr: `http://127.0.0.1:${port}/alice/proj`,
      repo_name: 'full',
      service: 'gitea',
      auth_token: await source.createToken('alice'),
      labels: true,
      milestones: true,
      issues: true,
      pull_requests: true,
      releases: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ open_issues_count: 1, open_pr_counter: 1 });
    const get = async (t: TestApp, owner: string, repo: string, path: string) => {
      const r = await t.request('GET', `/api/v1/repos/${owner}/${repo}${path}`, { headers: owner === 'alice' ? asAlice : asBob });
      expect(r.statusCode, r.body).toBe(200);
      return r.json();
    };
    const pick = <T extends Record<string, unknown>>(list: T[], keys: string[]) =>
      list.map((x) => Object.fromEntries(keys.map((k) => [k, x[k]])));
    const both = async (path: string, keys: string[]) => [
      pick(await get(source, 'alice', 'proj', path), keys),
      pick(await get(target, 'bob', 'full', path), keys),
    ];
    const [sl, tl] = await both('/labels', ['name', 'color', 'description']);
    expect(tl).toEqual(sl);
    const [sm, tm] = await both('/milestones?state=all', ['title', 'description', 'state', 'open_issues', 'closed_issues']);
    expect(tm).toEqual(sm);
    const [si, ti] = await both('/issues?state=all&type=issues', ['number', 'title', 'body', 'state', 'comments']);
    expect(ti).toEqual(si);
    const [sc, tc] = await both('/issues/1/comments', ['body']);
    expect(tc).toEqual(sc);
    const [sp, tp] = await both('/pulls?state=all', ['number', 'title', 'state']);
    expect(tp).toEqual(sp);
    const [sr, tr] = await both('/releases', ['tag_name', 'name', 'body']);
    expect(tr).toEqual(sr);
    const [release] = await get(target, 'bob', 'full', '/releases');
    expect(release.assets).toMatchObject([{ name: 'notes.txt', size: 11 }]);
    const file = await target.request('GET', new URL(release.assets[0].browser_download_url).pathname, { headers: asBob });
    expect(file.body).toBe('asset bytes');
    const issue = await get(target, 'bob', 'full', '/issues/1');
    expect(issue).toMatchObject({
      original_author: 'alice',
      labels: [expect.objectContaining({ name: 'bug' })],
      milestone: expect.objectContaining({ title: 'v1' }),
    });
    const comments = await get(target, 'bob', 'full', '/issues/1/comments');
    expect(comments[0]).toMatchObject({ original_author: 'carol', body: 'a comment by carol' });
    const reactions = await target.db.reaction.findMany({ where: { issue: { repo: { name: 'full' }, index: 1 } } });
    expect(reactions.map((r) => [r.type, r.originalAuthor])).toEqual([['heart', 'carol']]);
    const pull = await get(target, 'bob', 'full', '/pulls/3');
    const srcPull = await get(source, 'alice', 'proj', '/pulls/3');
    expect(pull).toMatchObject({ head: { ref: 'feature', sha: srcPull.head.sha }, base: { ref: 'main' } });
    expect(await target.db.review.count({ where: { issue: { repo: { name: 'full' } }, originalAuthor: 'carol' } })).toBe(1);
    expect(await refsOf(target, 'bob', 'full')).toEqual(await refsOf(source, 'alice', 'proj'));
    // The next issue continues the numbering.
    const next = await target.request('POST', '/api/v1/repos/bob/full/issues', { headers: asBob, body: { title: 'new' } });
    expect(next.json().number).toBe(4);
  });

  it('a pull mirror picks up new commits, tags and deleted branches on demand and by interval, with mirror_sync_* feed rows', async () => {
    const res = await migrate({
      clone_addr: `http://127.0.0.1:${port}/alice/proj.git`,
      repo_name: 'mirror',
      mirror: true,
      mirror_interval: '10m',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ mirror: true, mirror_interval: '10m0s' });
    const tooShort = await migrate({
      clone_addr: `http://127.0.0.1:${port}/alice/proj.git`,
      repo_name: 'm2',
      mirror: true,
      mirror_interval: '1m',
    });
    expect(tooShort.statusCode).toBe(422);
    const push = await target.request('POST', '/api/v1/repos/bob/mirror/contents/x.txt', { headers: asBob, body: { content: 'eA==' } });
    expect(push.statusCode).toBe(403);

    const work = git.dir('proj2');
    await git.ok(['clone', '-q', gitUrl(port, 'alice', 'proj', { user: 'alice', secret: PASSWORD }), work]);
    await git.commit(work, 'c.txt', 'c\n');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await git.ok(['tag', 'v2.0'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'v2.0', ':feature'], { cwd: work });
    await source.app.jobs.drain();

    expect((await target.request('POST', '/api/v1/repos/bob/mirror/mirror-sync', { headers: asBob })).statusCode).toBe(200);
    await target.app.jobs.drain();
    await target.app.jobs.drain();
    await target.app.deps.notifier.drain();
    expect(await refsOf(target, 'bob', 'mirror')).toEqual(await refsOf(source, 'alice', 'proj'));
    const repo = await target.db.repository.findFirstOrThrow({ where: { name: 'mirror' }, include: { mirror: true } });
    const ops = await target.db.action.findMany({
      where: { repoId: repo.id, userId: bob.id, opType: { in: ['MIRROR_SYNC_PUSH', 'MIRROR_SYNC_CREATE', 'MIRROR_SYNC_DELETE'] } },
      orderBy: { id: 'asc' },
    });
    expect(ops.map((a) => `${a.opType} ${a.refName}`).sort()).toEqual(
      [
        'MIRROR_SYNC_DELETE refs/heads/feature',
        'MIRROR_SYNC_PUSH refs/heads/main',
        'MIRROR_SYNC_PUSH refs/tags/v2.0',
        'MIRROR_SYNC_CREATE refs/tags/v2.0',
      ].sort(),
    );
    expect(await target.db.branch.findFirst({ where: { repoId: repo.id, name: 'feature' } })).toMatchObject({ isDeleted: true });
    expect(repo.mirror?.lastSyncAt).not.toBeNull();

    // By interval: the cron task queues each due mirror once.
    await git.commit(work, 'd.txt', 'd\n');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await target.db.mirror.update({ where: { repoId: repo.id }, data: { nextUpdateAt: new Date(Date.now() - 1000) } });
    const now = new Date();
    expect(await queueDueMirrors(target.system, now, 50)).toBe(1);
    expect(await queueDueMirrors(target.system, now, 50)).toBe(0);
    await target.app.jobs.drain();
    await target.app.jobs.drain();
    expect((await refsOf(target, 'bob', 'mirror'))['refs/heads/main']).toBe((await refsOf(source, 'alice', 'proj'))['refs/heads/main']);
  });

  it('a sync that waited behind a rename of the mirror fetches into the renamed directory', async () => {
    const res = await migrate({ clone_addr: `http://127.0.0.1:${port}/alice/proj.git`, repo_name: 'before-rename', mirror: true });
    expect(res.statusCode, res.body).toBe(201);
    const work = git.dir('proj-rename');
    await git.ok(['clone', '-q', gitUrl(port, 'alice', 'proj', { user: 'alice', secret: PASSWORD }), work]);
    await git.commit(work, 'r.txt', 'r\n');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await source.app.jobs.drain();
    // A push holds the mirror; the rename waits for it, the sync (queued after) for the rename.
    const held = holdRepoLock(target.app.deps.repoLocks, res.json().id, null);
    await held.entered;
    const rename = target.request('PATCH', '/api/v1/repos/bob/before-rename', { headers: asBob, body: { name: 'after-rename' } });
    await new Promise((r) => setTimeout(r, 100));
    expect((await target.request('POST', '/api/v1/repos/bob/before-rename/mirror-sync', { headers: asBob })).statusCode).toBe(200);
    const sync = target.app.jobs.drain();
    await new Promise((r) => setTimeout(r, 300));
    held.release();
    await held.done;
    expect((await rename).statusCode).toBe(200);
    await sync;
    await target.app.jobs.drain();
    const syncs = await target.db.job.findMany({ where: { kind: 'repo.mirror-sync', payload: { contains: `"repoId":${res.json().id}` } } });
    expect(syncs.map((j) => [j.status, j.lastError])).toEqual(syncs.map(() => ['DONE', '']));
    expect(syncs.length).toBeGreaterThan(0);
    expect((await refsOf(target, 'bob', 'after-rename'))['refs/heads/main']).toBe(
      (await refsOf(source, 'alice', 'proj'))['refs/heads/main'],
    );
  });

  it("PATCH sets a mirror's interval, prune flag and sealed credentials as Gitea does", async () => {
    const res = await migrate({
      clone_addr: `http://127.0.0.1:${port}/alice/proj.git`,
      repo_name: 'm3',
      mirror: true,
      auth_username: 'alice',
      auth_password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = () => target.db.mirror.findFirstOrThrow({ where: { repo: { name: 'm3' } } });
    expect((await row()).credentialsEncrypted).not.toContain(PASSWORD);
    expect(openCredentials(target.config.secretKey, (await row()).credentialsEncrypted)).toMatchObject({
      username: 'alice',
      password: PASSWORD,
    });
    const patch = (body: unknown) => target.request('PATCH', '/api/v1/repos/bob/m3', { headers: asBob, body });
    expect((await patch({ mirror_password: 'other' })).statusCode).toBe(200);
    expect(openCredentials(target.config.secretKey, (await row()).credentialsEncrypted)).toEqual({
      username: 'alice',
      password: 'other',
      token: '',
    });
    expect((await patch({ mirror_token: 'tok' })).statusCode).toBe(200);
    expect(openCredentials(target.config.secretKey, (await row()).credentialsEncrypted)).toEqual({
      username: '',
      password: '',
      token: 'tok',
    });
    const manual = await patch({ mirror_interval: '0', enable_prune: false });
    expect(manual.json()).toMatchObject({ mirror_interval: '0s' });
    expect(await row()).toMatchObject({ interval: 0, nextUpdateAt: null, enablePrune: false });
    expect((await patch({ mirror_interval: '5m' })).statusCode).toBe(422);
  });
});
