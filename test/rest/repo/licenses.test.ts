// Repository licenses on both databases: detection of license files against the SPDX texts, the row written at
// creation, the detection job after a push to the default branch (not another branch), GET …/licenses, the
// sync_repo_licenses cron task, and the gates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spdxFull from 'spdx-license-list/full.js';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';
import { detectLicense, isLicenseFileName } from '../../../src/services/repo/licenseDetect.ts';
import { renderInitialFiles } from '../../../src/services/repo/templates.ts';

const filled = (license: string): string =>
  renderInitialFiles({
    repoName: 'r',
    description: '',
    ownerName: 'Alice Example',
    authorEmail: 'a@example.com',
    cloneUrlHttps: '',
    cloneUrlSsh: '',
    readme: '',
    gitignores: '',
    license,
    year: 2024,
  })[0]?.content ?? '';

describe('license detection', () => {
  it('names filled-in templates, reflowed texts and near relatives apart', () => {
    expect(detectLicense(filled('MIT'))).toBe('MIT');
    expect(detectLicense(filled('MIT-0'))).toBe('MIT-0');
    expect(detectLicense(filled('Apache-2.0'))).toBe('Apache-2.0');
    expect(detectLicense(filled('BSD-2-Clause'))).toBe('BSD-2-Clause');
    expect(detectLicense(filled('BSD-3-Clause'))).toBe('BSD-3-Clause');
    expect(detectLicense((spdxFull.MIT?.licenseText ?? '').replace(/\n/g, ' '))).toBe('MIT');
    // One text, several ids: the shortest names it.
    expect(detectLicense(filled('GPL-3.0-or-later'))).toBe('GPL-3.0');
  });

  it('names nothing for text that is not a license', () => {
    expect(detectLicense('All rights reserved. Ask me before you use any of this.')).toBeNull();
    expect(detectLicense('')).toBeNull();
  });

  it('knows license file names', () => {
    for (const n of ['LICENSE', 'LICENSE.md', 'licence.txt', 'COPYING', 'COPYING.LESSER', 'UNLICENSE', 'License-MIT']) {
      expect(isLicenseFileName(n), n).toBe(true);
    }
    for (const n of ['README.md', 'LICENSES', 'my-license', 'COPYRIGHTS']) expect(isLicenseFileName(n), n).toBe(false);
  });
});

describe.each(PROVIDERS)('REST repository licenses (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  const licenses = (repo: string, user = 'alice') => t.request('GET', `/api/v1/repos/alice/${repo}/licenses`, { headers: basic(user) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'outsider']) await t.createUser(n);
    await t.createUser('root', { admin: true });
    f = await PullFixture.start(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a repository created with a license has it; [] without one', async () => {
    const res = await t.request('POST', '/api/v1/user/repos', {
      headers: basic('alice'),
      body: { name: 'made', auto_init: true, license: 'MIT', default_branch: 'main' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await licenses('made')).json()).toEqual(['MIT']);
    await f.createRepo('alice', 'plain');
    const none = await licenses('plain');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('a push to the default branch detects the license files; other branches do not count', async () => {
    const repo = await f.createRepo('alice', 'pushed');
    await f.push('alice', 'pushed', 'alice', 'side', { LICENSE: filled('Apache-2.0') }, { from: 'main' });
    await t.app.jobs.drain();
    expect((await licenses('pushed')).json()).toEqual([]);
    const head = await f.push('alice', 'pushed', 'alice', 'main', { 'LICENSE.md': filled('Apache-2.0'), COPYING: filled('GPL-2.0-only') });
    await t.app.jobs.drain();
    expect((await licenses('pushed')).json()).toEqual(['Apache-2.0', 'GPL-2.0']);
    const rows = await t.db.repoLicense.findMany({ where: { repoId: repo.id } });
    expect(rows.map((r) => r.commitId)).toEqual([head, head]);
    expect((await t.request('GET', '/api/v1/repos/alice/pushed', { headers: basic('alice') })).json().licenses).toEqual([
      'Apache-2.0',
      'GPL-2.0',
    ]);
    // The files go: so do the licenses.
    const dir = await f.workTree('alice', 'pushed', 'alice');
    await f.git.ok(['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: dir });
    await f.git.ok(['rm', '-q', 'LICENSE.md', 'COPYING'], { cwd: dir });
    await f.git.ok(['commit', '-q', '-m', 'no license'], { cwd: dir });
    await f.git.ok(['push', '-q', 'origin', 'main'], { cwd: dir });
    await t.app.jobs.drain();
    expect((await licenses('pushed')).json()).toEqual([]);
  });

  it('sync_repo_licenses detects what no job did and reports it', async () => {
    const repo = await f.createRepo('alice', 'cron');
    await f.push('alice', 'cron', 'alice', 'main', { LICENSE: filled('MIT') });
    await t.app.jobs.drain();
    await t.db.repoLicense.deleteMany({ where: { repoId: repo.id } });
    expect((await licenses('cron')).json()).toEqual([]);
    const run = await t.request('POST', '/api/v1/admin/cron/sync_repo_licenses', { headers: basic('root') });
    expect(run.statusCode, run.body).toBe(204);
    expect((await licenses('cron')).json()).toEqual(['MIT']);
    const task = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'sync_repo_licenses' } });
    expect(task.lastStatus).toBe('SUCCESS');
    expect(task.lastMessage).toMatch(/^checked \d+ repositories, \d+ with a detected license$/);
  });

  it('private repositories are 404 to outsiders and anonymous callers', async () => {
    await f.createRepo('alice', 'secret', { private: true });
    expect((await licenses('secret')).statusCode).toBe(200);
    expectGiteaError(await licenses('secret', 'outsider'), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/secret/licenses'), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/missing/licenses', { headers: basic('alice') }), 404);
  });
});
