import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

describe.each(PROVIDERS)('GET /repos/{o}/{r}/commits/{sha}/pull (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let merged = 0;
  let mergeSha = '';
  let headSha = '';

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    await t.createUser('stranger');
    await f.createRepo('alice', 'demo');
    await f.createRepo('alice', 'secret', { private: true });
    merged = await f.pushAndOpen('alice', 'demo', 'alice', 'feature', { 'f.txt': 'f\n' });
    const res = await t.request('POST', `/api/v1/repos/alice/demo/pulls/${merged}/merge`, {
      headers: basic('alice'),
      body: { Do: 'merge' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const pull = await t.request('GET', `/api/v1/repos/alice/demo/pulls/${merged}`, { headers: basic('alice') });
    const json = pull.json() as { merge_commit_sha: string; head: { sha: string } };
    mergeSha = json.merge_commit_sha;
    headSha = json.head.sha;
    await f.pushAndOpen('alice', 'demo', 'alice', 'open-one', { 'o.txt': 'o\n' });
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('answers the pull request whose merge commit the sha is', async () => {
    const res = await t.request('GET', `/api/v1/repos/alice/demo/commits/${mergeSha}/pull`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ number: merged, merged: true, merge_commit_sha: mergeSha });
  });

  it('404 for a head commit (Gitea looks at merge commits only), an unknown sha, or a repository the viewer cannot see', async () => {
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/demo/commits/${headSha}/pull`), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/commits/0000000000000000000000000000000000000000/pull'), 404);
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/secret/commits/${mergeSha}/pull`, { headers: basic('stranger') }), 404);
  });
});
