import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { GitClient, gitUrl } from '../../githttp/gitClient.ts';

const serverGit = (gitDir: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
  });

const RULES = '# expand these\nREADME.md\nsrc/**\n\n[exclude]\nsecret\n';
const README = [
  '# $REPO_NAME',
  'owner $REPO_OWNER, from ${TEMPLATE_OWNER}/$TEMPLATE_NAME',
  'snake ${REPO_NAME_SNAKE} pascal $REPO_NAME_PASCAL camel $REPO_NAME_CAMEL upper $REPO_NAME_UPPER title $REPO_NAME_TITLE',
  'about: $REPO_DESCRIPTION; template about: $TEMPLATE_DESCRIPTION',
  'link $REPO_LINK template $TEMPLATE_LINK clone $REPO_HTTPS_URL',
  'unknown $NOPE, cost $$5, ${} gone',
  '',
].join('\n');

describe.each(PROVIDERS)('REST POST /repos/{template_owner}/{template_repo}/generate (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let gitClient: GitClient;
  const owner = basic('gnowner');
  const outsider = basic('gnoutsider');
  const admin = basic('gnadmin');
  const gitDir = (o: string, r: string) => path.join(t.config.repositoriesDir, o, `${r}.git`);
  const generate = (full: string, headers: Record<string, string> | undefined, body: Record<string, unknown>) =>
    t.request('POST', `/api/v1/repos/${full}/generate`, { ...(headers ? { headers } : {}), body });
  const ok = async (method: string, url: string, body?: unknown, headers = owner) => {
    const res = await t.request(method, `/api/v1${url}`, { headers, ...(body === undefined ? {} : { body }) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as AddressInfo).port;
    gitClient = new GitClient();
    for (const u of ['gnowner', 'gnoutsider', 'gnmember']) await t.createUser(u);
    await t.createUser('gnadmin', { admin: true });

    await ok('POST', '/user/repos', { name: 'tpl', template: true, description: 'A template' });
    const work = gitClient.dir('tpl');
    await gitClient.ok(['init', '-q', '-b', 'main', work]);
    await gitClient.commit(work, 'old.txt', 'history\n', 'first');
    await gitClient.ok(['rm', '-q', 'old.txt'], { cwd: work });
    await gitClient.commit(work, 'README.md', README, 'readme');
    await gitClient.commit(work, 'src/$REPO_NAME_PASCAL.txt', 'kebab ${REPO_NAME_KEBAB}\n', 'src');
    await gitClient.commit(work, 'plain.txt', 'not expanded: $REPO_NAME\n', 'plain');
    await gitClient.commit(work, 'secret/notes.txt', 'excluded\n', 'secret');
    await gitClient.commit(work, '.gitea/template', RULES, 'rules');
    await gitClient.ok(['push', '-q', gitUrl(port, 'gnowner', 'tpl', { user: 'gnowner', secret: PASSWORD }), 'main'], { cwd: work });

    await ok('PUT', '/repos/gnowner/tpl/topics', { topics: ['starter', 'kit'] });
    await ok('POST', '/repos/gnowner/tpl/labels', { name: 'bug', color: '#ee0701', description: 'Something is broken' });
    await ok('POST', '/repos/gnowner/tpl/hooks', {
      type: 'gitea',
      config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' },
      events: ['push'],
      active: true,
    });
    await ok('POST', '/repos/gnowner/tpl/branch_protections', { rule_name: 'main', required_approvals: 2 });
    await ok('POST', '/user/repos', { name: 'plainrepo', auto_init: true });
    await ok('POST', '/user/repos', { name: 'hiddentpl', template: true, private: true });
    await ok('POST', '/orgs', { username: 'gnorg' });
  });

  afterAll(async () => {
    gitClient.dispose();
    await t.close();
  });

  it('generates git content (one commit, expanded and excluded files) and every template item', async () => {
    const res = await generate('gnowner/tpl', owner, {
      owner: 'gnowner',
      name: 'my-new-repo',
      description: 'Fresh start',
      private: true,
      git_content: true,
      topics: true,
      labels: true,
      webhooks: true,
      protected_branch: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'my-new-repo',
      full_name: 'gnowner/my-new-repo',
      owner: { login: 'gnowner' },
      description: 'Fresh start',
      private: true,
      template: false,
      empty: false,
      default_branch: 'main',
      topics: expect.arrayContaining(['starter', 'kit']),
      permissions: { admin: true, push: true, pull: true },
    });
    const row = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'gnowner', name: 'my-new-repo' } });
    const template = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'gnowner', name: 'tpl' } });
    expect(row.templateId).toBe(template.id);

    const clone = path.join(gitClient.home, 'generated');
    await gitClient.ok(['clone', '-q', gitUrl(port, 'gnowner', 'my-new-repo', { user: 'gnowner', secret: PASSWORD }), clone]);
    const log = (await gitClient.ok(['log', '--format=%s|%an'], { cwd: clone })).trim().split('\n');
    expect(log).toEqual(['Initial commit|gnowner']);
    expect(readFileSync(path.join(clone, 'README.md'), 'utf8')).toBe(
      [
        '# my-new-repo',
        'owner gnowner, from gnowner/tpl',
        'snake my_new_repo pascal MyNewRepo camel myNewRepo upper MY-NEW-REPO title My-New-Repo',
        'about: Fresh start; template about: A template',
        `link /gnowner/my-new-repo template /gnowner/tpl clone ${t.config.rootUrl}gnowner/my-new-repo.git`,
        'unknown NOPE, cost $5,  gone',
        '',
      ].join('\n'),
    );
    expect(readFileSync(path.join(clone, 'src', 'MyNewRepo.txt'), 'utf8')).toBe('kebab my-new-repo\n');
    expect(existsSync(path.join(clone, 'src', '$REPO_NAME_PASCAL.txt'))).toBe(false);
    expect(readFileSync(path.join(clone, 'plain.txt'), 'utf8')).toBe('not expanded: $REPO_NAME\n');
    expect(existsSync(path.join(clone, 'secret'))).toBe(false);
    expect(existsSync(path.join(clone, '.gitea', 'template'))).toBe(false);
    expect(existsSync(path.join(clone, 'old.txt'))).toBe(false);

    // Self-contained: no alternates left, every object present, none of the template's history.
    const dir = gitDir('gnowner', 'my-new-repo');
    expect(existsSync(path.join(dir, 'objects', 'info', 'alternates'))).toBe(false);
    serverGit(dir, 'fsck', '--strict', '--no-progress');
    expect(
      serverGit(dir, 'cat-file', '--batch-all-objects', '--batch-check')
        .split('\n')
        .filter((l) => l.includes(' commit ')),
    ).toHaveLength(1);
    expect(await t.db.branch.findMany({ where: { repoId: row.id }, select: { name: true, commitMessage: true } })).toEqual([
      { name: 'main', commitMessage: 'Initial commit' },
    ]);
    expect(await t.db.job.count({ where: { kind: 'repo.licenses', payload: { contains: `"repoId":${row.id}` } } })).toBe(1);

    const labels = (await ok('GET', '/repos/gnowner/my-new-repo/labels')).json() as Array<Record<string, unknown>>;
    expect(labels).toMatchObject([{ name: 'bug', color: 'ee0701', description: 'Something is broken' }]);
    const hooks = (await ok('GET', '/repos/gnowner/my-new-repo/hooks')).json() as Array<Record<string, unknown>>;
    expect(hooks).toMatchObject([{ type: 'gitea', active: true, events: ['push'], config: { url: 'http://127.0.0.1:9/hook' } }]);
    const rules = (await ok('GET', '/repos/gnowner/my-new-repo/branch_protections')).json() as Array<Record<string, unknown>>;
    expect(rules).toMatchObject([{ rule_name: 'main', required_approvals: 2 }]);
    const topics = (await ok('GET', '/repos/gnowner/my-new-repo/topics')).json() as { topics: string[] };
    expect(topics.topics.sort()).toEqual(['kit', 'starter']);
    const kit = await t.db.topic.findUniqueOrThrow({ where: { name: 'kit' } });
    expect(kit.repoCount).toBe(2);
  });

  it('without git content: an empty repository with only the chosen items', async () => {
    const res = await generate('gnowner/tpl', owner, { owner: 'gnowner', name: 'just-labels', labels: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ empty: true, topics: [] });
    expect(serverGit(gitDir('gnowner', 'just-labels'), 'for-each-ref')).toBe('');
    const labels = (await ok('GET', '/repos/gnowner/just-labels/labels')).json() as unknown[];
    expect(labels).toHaveLength(1);
    expect((await ok('GET', '/repos/gnowner/just-labels/hooks')).json()).toEqual([]);
  });

  it('into an organization the viewer owns; admins may generate for other users', async () => {
    const res = await generate('gnowner/tpl', owner, { owner: 'gnorg', name: 'org-copy', git_content: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ full_name: 'gnorg/org-copy', empty: false });
    const clone = path.join(gitClient.home, 'org-copy');
    await gitClient.ok(['clone', '-q', gitUrl(port, 'gnorg', 'org-copy', { user: 'gnowner', secret: PASSWORD }), clone]);
    expect(readFileSync(path.join(clone, 'README.md'), 'utf8')).toContain('owner gnorg, from gnowner/tpl');
    expect(readdirSync(path.join(clone, 'src'))).toEqual(['OrgCopy.txt']);

    const forOther = await generate('gnowner/tpl', admin, { owner: 'gnmember', name: 'gift', topics: true });
    expect(forOther.statusCode, forOther.body).toBe(201);
    expect(forOther.json()).toMatchObject({ full_name: 'gnmember/gift', topics: expect.arrayContaining(['kit']) });
  });

  it('copies the avatar under the new hash, and git hooks only when DISABLE_GIT_HOOKS is off', async () => {
    const png = await new Jimp({ width: 32, height: 32, color: 0x00ff00ff }).getBuffer('image/png');
    await ok('POST', '/repos/gnowner/tpl/avatar', { image: png.toString('base64') });
    const hook = '#!/bin/sh\necho from-template\n';
    t.config.disableGitHooks = false;
    try {
      await ok('PATCH', '/repos/gnowner/tpl/hooks/git/pre-receive', { content: hook }, admin);
      const withHooks = await generate('gnowner/tpl', owner, { owner: 'gnowner', name: 'pictured', avatar: true, git_hooks: true });
      expect(withHooks.statusCode, withHooks.body).toBe(201);
    } finally {
      t.config.disableGitHooks = true;
    }
    const noHooks = await generate('gnowner/tpl', owner, { owner: 'gnowner', name: 'hookless', git_hooks: true });
    expect(noHooks.statusCode, noHooks.body).toBe(201);

    const [tpl, pictured] = await Promise.all(
      ['tpl', 'pictured'].map((name) => t.db.repository.findFirstOrThrow({ where: { ownerName: 'gnowner', name } })),
    );
    expect(tpl?.avatar).toMatch(/^[0-9a-f]{64}$/);
    expect(pictured?.avatar).toMatch(/^[0-9a-f]{64}$/);
    expect(pictured?.avatar).not.toBe(tpl?.avatar);
    const stored = (hash: string) => readFileSync(path.join(t.config.avatars.repoDir, hash));
    expect(stored(pictured?.avatar ?? '')).toEqual(stored(tpl?.avatar ?? ''));
    const avatar = await t.request('GET', `/repo-avatars/${pictured?.avatar ?? ''}`);
    expect(avatar.statusCode).toBe(200);

    const hookFile = (repo: string) => path.join(gitDir('gnowner', repo), 'hooks', 'pre-receive.d', 'pre-receive');
    expect(readFileSync(hookFile('pictured'), 'utf8')).toBe(hook);
    expect(existsSync(hookFile('hookless'))).toBe(false);
  });

  it('a sha256 template gives a sha256 repository', async () => {
    await ok('POST', '/user/repos', { name: 'tpl256', template: true, auto_init: true, object_format_name: 'sha256' });
    const res = await generate('gnowner/tpl256', owner, { owner: 'gnowner', name: 'made256', git_content: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ object_format_name: 'sha256', empty: false });
    const dir = gitDir('gnowner', 'made256');
    serverGit(dir, 'fsck', '--strict', '--no-progress');
    expect(serverGit(dir, 'rev-parse', 'refs/heads/main').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(serverGit(dir, 'show', 'main:README.md')).toContain('# tpl256');
  });

  it("answers Gitea's errors", async () => {
    const body = { owner: 'gnowner', name: 'x1', git_content: true };
    expectGiteaError(await generate('gnowner/tpl', undefined, body), 401);
    expectGiteaError(await generate('gnowner/hiddentpl', outsider, { ...body, owner: 'gnoutsider' }), 404);
    expectGiteaError(await generate('gnowner/nothing', owner, body), 404);
    expectGiteaError(await generate('gnowner/plainrepo', owner, body), 422, 'this is not a template repo');
    expectGiteaError(await generate('gnowner/tpl', owner, { owner: 'gnowner', name: 'x1' }), 422, 'must select at least one template item');
    expectGiteaError(await generate('gnowner/tpl', owner, { name: 'x1', git_content: true }), 422);
    expectGiteaError(
      await generate('gnowner/tpl', owner, { ...body, owner: 'nobody-here' }),
      404,
      'request owner `nobody-here` does not exist',
    );
    expectGiteaError(
      await generate('gnowner/tpl', outsider, { ...body, owner: 'gnmember' }),
      403,
      'Only admin can generate repository for other user.',
    );
    expectGiteaError(await generate('gnowner/tpl', outsider, { ...body, owner: 'gnorg' }), 403);
    expectGiteaError(
      await generate('gnowner/tpl', owner, { ...body, name: 'my-new-repo' }),
      409,
      'The repository with the same name already exists.',
    );
    expectGiteaError(await generate('gnowner/tpl', owner, { ...body, name: 'bad name!' }), 422);
    expectGiteaError(await generate('gnowner/tpl', owner, { ...body, name: 'x.wiki' }), 422);
    expect(await t.db.repository.count({ where: { lowerName: 'x1' } })).toBe(0);
  });

  it('a read-only token may not generate', async () => {
    const token = await t.createToken('gnowner', ['read:repository']);
    const res = await generate('gnowner/tpl', { authorization: `token ${token}` }, { owner: 'gnowner', name: 'x2', topics: true });
    expectGiteaError(res, 403);
  });
});
