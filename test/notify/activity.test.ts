import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../helpers/db.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { GitClient, gitUrl } from '../githttp/gitClient.ts';

/** A real push over smart HTTP becomes Gitea feed rows (commit_repo, push_tag, delete_branch) for actor, owner and watchers. */
describe.each(PROVIDERS)('activity feed from pushes (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as { port: number }).port;
    git = new GitClient();
    await t.createUser('alice');
    const bob = await t.createUser('bob');
    await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'acme' } });
    expect(
      (await t.request('POST', '/api/v1/orgs/acme/repos', { headers: basic('alice'), body: { name: 'feed', auto_init: true } })).statusCode,
    ).toBe(201);
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'feed' } });
    await t.db.watch.create({ data: { userId: bob.id, repoId: repo.id } });
  });
  afterAll(async () => {
    git.dispose();
    await t.close();
  });

  it('records create_repo, then commit_repo with the pushed commits, push_tag and delete_branch', async () => {
    const url = gitUrl(port, 'acme', 'feed', { user: 'alice', secret: PASSWORD });
    const work = git.dir('work');
    await git.ok(['clone', '-q', url, work]);
    await git.commit(work, 'a.txt', 'one\n', 'first change');
    await git.commit(work, 'b.txt', 'two\n', 'second change');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await git.ok(['tag', 'v1'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'v1'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'main:topic'], { cwd: work });
    await git.ok(['push', '-q', 'origin', ':topic'], { cwd: work });
    await t.app.deps.notifier.drain();

    const alice = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } });
    const feed = await t.db.action.findMany({ where: { userId: alice.id }, orderBy: { id: 'asc' } });
    expect(feed.map((a) => a.opType)).toEqual(['CREATE_REPO', 'COMMIT_REPO', 'PUSH_TAG', 'COMMIT_REPO', 'DELETE_BRANCH']);
    const push = JSON.parse(feed[1]?.content ?? '{}') as {
      Commits: { Message: string }[];
      Len: number;
      HeadCommit: { Message: string } | null;
    };
    expect(push.Len).toBe(2);
    expect(push.Commits.map((c) => c.Message.trim())).toEqual(['second change', 'first change']);
    expect(feed[2]?.refName).toBe('refs/tags/v1');
    expect(feed[4]?.refName).toBe('refs/heads/topic');

    const org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'acme' } });
    const bob = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'bob' } });
    expect(await t.db.action.count({ where: { userId: org.id, opType: 'COMMIT_REPO' } })).toBe(2);
    expect(await t.db.action.count({ where: { userId: bob.id, opType: 'PUSH_TAG', actUserId: alice.id } })).toBe(1);
  });

  it('records create_issue, close_issue and reopen_issue with Gitea content', async () => {
    const created = await t.request('POST', '/api/v1/repos/acme/feed/issues', { headers: basic('alice'), body: { title: 'It broke' } });
    expect(created.statusCode).toBe(201);
    const index = (created.json() as { number: number }).number;
    await t.request('PATCH', `/api/v1/repos/acme/feed/issues/${index}`, { headers: basic('alice'), body: { state: 'closed' } });
    await t.request('PATCH', `/api/v1/repos/acme/feed/issues/${index}`, { headers: basic('alice'), body: { state: 'open' } });
    await t.app.deps.notifier.drain();
    const alice = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } });
    const rows = await t.db.action.findMany({
      where: { userId: alice.id, opType: { in: ['CREATE_ISSUE', 'CLOSE_ISSUE', 'REOPEN_ISSUE'] } },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => [r.opType, r.content])).toEqual([
      ['CREATE_ISSUE', `${index}|It broke`],
      ['CLOSE_ISSUE', `${index}|`],
      ['REOPEN_ISSUE', `${index}|`],
    ]);
  });
});

/** In a private repository each watcher's rows follow that watcher's own access (batched, not per watcher). */
describe.each(PROVIDERS)('activity feed of a private repository (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives rows to watchers who can read the unit and none to those who cannot', async () => {
    await t.createUser('alice');
    const carol = await t.createUser('carol');
    const dave = await t.createUser('dave');
    const admin = await t.createUser('root', { admin: true });
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'hidden', private: true } })).statusCode,
    ).toBe(201);
    expect(
      (await t.request('PUT', '/api/v1/repos/alice/hidden/collaborators/carol', { headers: basic('alice'), body: { permission: 'read' } }))
        .statusCode,
    ).toBe(204);
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'hidden' } });
    // dave watched before losing access (Gitea keeps the watch row); the site admin reads everything.
    await t.db.watch.createMany({ data: [carol, dave, admin].map((u) => ({ userId: u.id, repoId: repo.id })) });

    expect(
      (await t.request('POST', '/api/v1/repos/alice/hidden/issues', { headers: basic('alice'), body: { title: 'quiet' } })).statusCode,
    ).toBe(201);
    await t.app.deps.notifier.drain();
    const rowsOf = (userId: number) => t.db.action.count({ where: { userId, opType: 'CREATE_ISSUE', repoId: repo.id } });
    expect(await rowsOf(carol.id)).toBe(1);
    expect(await rowsOf(admin.id)).toBe(1);
    expect(await rowsOf(dave.id)).toBe(0);
    const row = await t.db.action.findFirstOrThrow({ where: { userId: carol.id, repoId: repo.id } });
    expect(row.isPrivate).toBe(true);
  });
});
