import type { AddressInfo } from 'node:net';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * Gitea's own TypeScript client (gitea-js) on the operations that completed the surface (issue #33): templates,
 * licenses, editorconfig, diff patches, generating from a template, renames, badges, unadopted repositories and the
 * git hooks gate. Each call goes through the client's generated request code and is checked by its effect.
 */
describe.each(PROVIDERS)('gitea-js on the last Gitea operations (%s)', (provider) => {
  let t: TestApp;
  let api: ReturnType<typeof giteaApi>;
  let admin: ReturnType<typeof giteaApi>;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('root', { admin: true });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.server.address() as AddressInfo;
    api = giteaApi(`http://127.0.0.1:${port}`, { token: await t.createToken('alice') });
    admin = giteaApi(`http://127.0.0.1:${port}`, { token: await t.createToken('root') });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists and reads gitignore, label and license templates', async () => {
    const gitignores = await api.gitignore.listGitignoresTemplates();
    expect(gitignores.data).toContain('Node');
    expect((await api.gitignore.getGitignoreTemplateInfo('Node')).data.source).toMatch(/node_modules/);
    expect((await api.label.listLabelTemplates()).data).toEqual(expect.arrayContaining(['Default', 'Advanced']));
    const licenses = await api.licenses.listLicenseTemplates();
    expect(licenses.data.map((l) => l.key)).toContain('MIT');
    expect((await api.licenses.getLicenseTemplateInfo('MIT')).data.body).toMatch(/Permission is hereby granted/);
    await expect(api.licenses.getLicenseTemplateInfo('no-such-license')).rejects.toMatchObject({ status: 404 });
  });

  it('creates a repository with a license and .editorconfig, reads both back, applies a diff patch', async () => {
    const created = await api.user.createCurrentUserRepo({ name: 'demo', auto_init: true, license: 'MIT', default_branch: 'main' });
    expect(created.status).toBe(201);
    await api.repos.repoCreateFile('alice', 'demo', '.editorconfig', {
      content: b64('root = true\n\n[*.ts]\nindent_style = space\nindent_size = 2\n'),
    });
    await t.app.jobs.drain();
    expect((await api.repos.repoGetLicenses('alice', 'demo')).data).toEqual(['MIT']);
    // editorconfig-core-go's Definition, which Gitea returns, keeps indent_size as a string.
    const editorconfig = await api.repos.repoGetEditorConfig('alice', 'demo', 'src/app.ts');
    expect(editorconfig.data).toMatchObject({ indent_style: 'space', indent_size: '2' });

    const patch = [
      'diff --git a/hello.txt b/hello.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/hello.txt',
      '@@ -0,0 +1 @@',
      '+hello from a patch',
      '',
    ].join('\n');
    const applied = await api.repos.repoApplyDiffPatch('alice', 'demo', {
      content: patch,
      message: 'apply hello',
      branch: 'main',
    } as never);
    expect(applied.status).toBe(201);
    const file = await api.repos.repoGetContents('alice', 'demo', 'hello.txt');
    expect(Buffer.from((file.data as { content?: string }).content ?? '', 'base64').toString()).toBe('hello from a patch\n');
  });

  it('generates a repository from a template with the template file expanded', async () => {
    await api.user.createCurrentUserRepo({ name: 'tmpl', auto_init: true, default_branch: 'main' });
    await api.repos.repoCreateFile('alice', 'tmpl', '.gitea/template', { content: b64('README.md\n') });
    const current = (await api.repos.repoGetContents('alice', 'tmpl', 'README.md')).data as { sha: string };
    await api.repos.repoUpdateFile('alice', 'tmpl', 'README.md', { content: b64('# $REPO_NAME by $REPO_OWNER\n'), sha: current.sha });
    expect((await api.repos.repoEdit('alice', 'tmpl', { template: true })).data.template).toBe(true);
    const generated = await api.repos.generateRepo('alice', 'tmpl', { owner: 'alice', name: 'from-tmpl', git_content: true });
    expect(generated.status).toBe(201);
    const readme = await api.repos.repoGetContents('alice', 'from-tmpl', 'README.md');
    expect(Buffer.from((readme.data as { content?: string }).content ?? '', 'base64').toString()).toBe('# from-tmpl by alice\n');
    await expect(api.repos.repoGetContents('alice', 'from-tmpl', '.gitea/template')).rejects.toMatchObject({ status: 404 });
  });

  it('admin: renames a user (old name redirects), lists badges and unadopted repositories; git hooks stay off', async () => {
    await t.createUser('carol');
    expect((await admin.admin.adminRenameUser('carol', { new_username: 'caroline' })).status).toBe(204);
    expect((await admin.users.userGet('caroline')).data.login).toBe('caroline');
    expect((await admin.admin.adminListUserBadges('caroline')).data).toEqual([]);
    expect((await admin.admin.adminUnadoptedList()).data).toEqual([]);
    await expect(admin.repos.repoListGitHooks('alice', 'demo')).rejects.toMatchObject({ status: 403 });
  });
});
