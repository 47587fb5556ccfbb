// The npm registry driven by the real npm CLI (publish plain and scoped, install into a fresh folder, dist-tag,
// search, unpublish), with a private HOME, .npmrc and cache so nothing touches the shared cache or the real registry.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';

const run = promisify(execFile);

interface NpmResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe.each(CLIENT_PROVIDERS)('npm CLI against the npm registry (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let dir = '';
  let registry = '';
  let env: NodeJS.ProcessEnv = {};

  /** Runs npm in `cwd` with the private configuration. */
  async function npm(cwd: string, ...args: string[]): Promise<NpmResult> {
    try {
      const { stdout, stderr } = await run('npm', [...args, '--no-audit', '--no-fund'], { cwd, env, timeout: 120_000 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  /** Writes a package folder with an index.js and returns its path. */
  function writePackage(name: string, version: string, extra: Record<string, unknown> = {}): string {
    const pkgDir = path.join(dir, 'src', `${name.replace('/', '__')}-${version}`);
    mkdirSync(pkgDir, { recursive: true });
    writeFileSync(
      path.join(pkgDir, 'package.json'),
      JSON.stringify(
        { name, version, description: `${name} package`, main: 'index.js', license: 'MIT', author: 'Tester', ...extra },
        null,
        2,
      ),
    );
    writeFileSync(path.join(pkgDir, 'index.js'), `module.exports = ${JSON.stringify(`${name}@${version}`)};\n`);
    return pkgDir;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('npm-owner');
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    // Tarball URLs are built from ROOT_URL: point it at the listening server.
    t.config.rootUrl = `http://127.0.0.1:${port}/`;
    registry = `http://127.0.0.1:${port}/api/packages/${owner.name}/npm/`;
    dir = mkdtempSync(path.join(tmpdir(), 'fg-npm-'));
    const token = await t.createToken(owner.name, ['write:package', 'read:repository']);
    writeFileSync(
      path.join(dir, '.npmrc'),
      `registry=${registry}\n//127.0.0.1:${port}/api/packages/${owner.name}/npm/:_authToken=${token}\n`,
    );
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    env = {
      ...inherited,
      HOME: dir,
      npm_config_userconfig: path.join(dir, '.npmrc'),
      npm_config_globalconfig: path.join(dir, 'global-npmrc'),
      npm_config_cache: path.join(dir, 'cache'),
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'warn',
    };
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes plain and scoped packages, installs them into a fresh folder, tags, searches and unpublishes', async () => {
    const repo = await createRepo(t, owner, 'npm-linked');
    const plain1 = await npm(
      writePackage('fg-plain', '1.0.0', { repository: { type: 'git', url: `git+${t.config.rootUrl}${owner.name}/${repo.name}.git` } }),
      'publish',
    );
    expect(plain1.code, plain1.stderr).toBe(0);
    // The repository URL names a repository here: the package is linked to it.
    const linked = await t.db.package.findFirstOrThrow({ where: { lowerName: 'fg-plain' } });
    expect(linked.repoId).toBe(repo.id);
    const again = await npm(writePackage('fg-plain', '1.0.0'), 'publish');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/cannot publish over the previously published versions|E409/);
    expect((await npm(writePackage('fg-plain', '1.1.0'), 'publish')).code).toBe(0);
    const scoped = await npm(writePackage('@fgscope/lib', '2.0.0', { dependencies: { 'fg-plain': '^1.0.0' } }), 'publish');
    expect(scoped.code, scoped.stderr).toBe(0);

    const view = await npm(dir, 'view', 'fg-plain', '--json');
    expect(view.code, view.stderr).toBe(0);
    const info = JSON.parse(view.stdout) as { versions: string[]; 'dist-tags': Record<string, string>; time: Record<string, string> };
    expect(info.versions).toEqual(['1.0.0', '1.1.0']);
    expect(info['dist-tags']).toEqual({ latest: '1.1.0' });
    expect(Object.keys(info.time).sort()).toEqual(['1.0.0', '1.1.0', 'created', 'modified']);

    const app = path.join(dir, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    const install = await npm(app, 'install', '@fgscope/lib');
    expect(install.code, install.stderr).toBe(0);
    const installed = (p: string) =>
      JSON.parse(readFileSync(path.join(app, 'node_modules', p, 'package.json'), 'utf8')) as { version: string };
    expect(installed('@fgscope/lib').version).toBe('2.0.0');
    expect(installed('fg-plain').version).toBe('1.1.0');
    const required = await run('node', ['-e', 'console.log(require("@fgscope/lib"))'], { cwd: app, env });
    expect(required.stdout.trim()).toBe('@fgscope/lib@2.0.0');

    expect((await npm(dir, 'dist-tag', 'add', 'fg-plain@1.0.0', 'beta')).code).toBe(0);
    const tags = await npm(dir, 'dist-tag', 'ls', 'fg-plain');
    expect(tags.stdout).toContain('beta: 1.0.0');
    expect(tags.stdout).toContain('latest: 1.1.0');
    const pinned = path.join(dir, 'app2');
    mkdirSync(pinned);
    writeFileSync(path.join(pinned, 'package.json'), JSON.stringify({ name: 'app2', version: '1.0.0', private: true }));
    expect((await npm(pinned, 'install', 'fg-plain@beta')).code).toBe(0);
    expect(existsSync(path.join(pinned, 'node_modules', 'fg-plain', 'package.json'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(pinned, 'node_modules', 'fg-plain', 'package.json'), 'utf8')).version).toBe('1.0.0');
    expect((await npm(dir, 'dist-tag', 'rm', 'fg-plain', 'beta')).code).toBe(0);

    const search = await npm(dir, 'search', 'fg', '--json');
    expect(search.code, search.stderr).toBe(0);
    const found = (JSON.parse(search.stdout) as { name: string }[]).map((p) => p.name).sort();
    expect(found).toEqual(['fg-plain', 'lib']);

    const one = await npm(dir, 'unpublish', 'fg-plain@1.0.0');
    expect(one.code, one.stderr).toBe(0);
    const after = JSON.parse((await npm(dir, 'view', 'fg-plain', 'versions', '--json')).stdout) as string[] | string;
    expect([after].flat()).toEqual(['1.1.0']);
    const all = await npm(dir, 'unpublish', '@fgscope/lib', '--force');
    expect(all.code, all.stderr).toBe(0);
    const gone = await npm(dir, 'view', '@fgscope/lib');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(/E404/);
  }, 300_000);

  it('refuses publishing without write access', async () => {
    const reader = await t.createUser('npm-reader');
    const readerToken = await t.createToken(reader.name, ['write:package']);
    const port = new URL(registry).port;
    const rc = path.join(dir, 'reader.npmrc');
    writeFileSync(rc, `registry=${registry}\n//127.0.0.1:${port}/api/packages/${owner.name}/npm/:_authToken=${readerToken}\n`);
    const saved = env;
    env = { ...env, npm_config_userconfig: rc };
    try {
      const refused = await npm(writePackage('fg-denied', '1.0.0'), 'publish');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/E401/);
    } finally {
      env = saved;
    }
    expect(await t.db.package.count({ where: { lowerName: 'fg-denied' } })).toBe(0);
  }, 120_000);
});
