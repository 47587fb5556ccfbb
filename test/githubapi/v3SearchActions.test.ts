// /api/v3's search, Actions and contents routes (gh search, gh workflow, gh run) through their gates: what each
// viewer may see, GitHub's 401/403/404/422 with `{message, documentation_url}`, token scopes checked before lookups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createRepo, setUnits } from '../helpers/fixtures.ts';

const DOCS = 'https://docs.github.com/rest';
const WORKFLOW =
  'name: Build\non: [push, workflow_dispatch]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n';

describe.each(PROVIDERS)('/api/v3 search, Actions and contents (%s)', (provider) => {
  let t: TestApp;
  let aliceToken: string;
  let readToken: string;
  let issueOnlyToken: string;
  let outsiderToken: string;
  let readerAllToken: string;

  const get = (url: string, headers: Record<string, string> = {}) => t.request('GET', `/api/v3${url}`, { headers });
  const workflowFile = (repo: string) =>
    t.request('POST', `/api/v1/repos/alice/${repo}/contents/.gitea/workflows/build.yml`, {
      headers: basic('alice'),
      body: { content: Buffer.from(WORKFLOW).toString('base64'), message: 'ci' },
    });

  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice = await t.createUser('alice');
    const reader = await t.createUser('reader');
    await t.createUser('outsider');
    aliceToken = await t.createToken('alice', ['all']);
    readToken = await t.createToken('reader', ['read:repository', 'read:issue']);
    issueOnlyToken = await t.createToken('reader', ['read:issue']);
    outsiderToken = await t.createToken('outsider', ['all']);
    readerAllToken = await t.createToken('reader', ['all']);
    await createRepo(t, alice, 'open', { autoInit: true });
    const secret = await createRepo(t, alice, 'secret', { autoInit: true, private: true });
    await addCollaborator(t, secret, reader, 'read');
    for (const repo of ['open', 'secret']) {
      expect((await workflowFile(repo)).statusCode).toBe(201);
      const issue = await t.request('POST', `/api/v1/repos/alice/${repo}/issues`, {
        headers: basic('alice'),
        body: { title: `${repo} bug` },
      });
      expect(issue.statusCode).toBe(201);
    }
    for (let i = 0; i < 50; i++) {
      const runs = await t.request('GET', '/api/v1/repos/alice/secret/actions/runs', { headers: basic('alice') });
      if ((runs.json() as { total_count: number }).total_count) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => t?.close());

  describe('search', () => {
    it('finds what the viewer may read: private repositories and issues for their readers only', async () => {
      const titles = async (headers: Record<string, string>) =>
        ((await get('/search/issues?q=bug', headers)).json() as { items: { title: string }[] }).items.map((i) => i.title).sort();
      expect(await titles(tokenAuth(aliceToken))).toEqual(['open bug', 'secret bug']);
      expect(await titles(tokenAuth(readToken))).toEqual(['open bug', 'secret bug']);
      expect(await titles(tokenAuth(outsiderToken))).toEqual(['open bug']);
      expect(await titles({})).toEqual(['open bug']);
      const repos = await get('/search/repositories?q=user:alice', tokenAuth(outsiderToken));
      expect(repos.json()).toMatchObject({
        total_count: 1,
        incomplete_results: false,
        items: [{ full_name: 'alice/open', private: false }],
      });
    });

    it('checks the token’s scope first (403), and answers a query it cannot run with GitHub’s 422', async () => {
      const refused = await get('/search/repositories?q=nosuchrepo', tokenAuth(issueOnlyToken));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'Resource not accessible by personal access token', documentation_url: DOCS });
      const bad = await get('/search/issues?q=is:discussion', tokenAuth(aliceToken));
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toMatchObject({ message: 'Validation Failed', errors: [{ resource: 'Search', field: 'q', code: 'invalid' }] });
      expect((await get('/search/repositories?q=x&sort=help-wanted-issues', tokenAuth(aliceToken))).statusCode).toBe(422);
    });
  });

  describe('Actions', () => {
    it('lists a repository’s runs to whoever reads it (also anonymously) and hides a private one (404)', async () => {
      const open = await get('/repos/alice/open/actions/runs');
      expect(open.statusCode).toBe(200);
      expect(open.json()).toMatchObject({
        total_count: 1,
        workflow_runs: [{ name: 'build.yml', event: 'push', status: 'queued', conclusion: null }],
      });
      const secret = await get('/repos/alice/secret/actions/runs', tokenAuth(readToken));
      expect(secret.json()).toMatchObject({ total_count: 1, workflow_runs: [{ name: 'Build', head_branch: 'main' }] });
      for (const headers of [tokenAuth(outsiderToken), {}]) {
        const hidden = await get('/repos/alice/secret/actions/runs', headers);
        expect(hidden.statusCode).toBe(404);
        expect(hidden.json()).toEqual({ message: 'Not Found', documentation_url: DOCS });
      }
    });

    it('names workflows by GitHub number or file; listing them needs a signed-in reader (401)', async () => {
      const list = await get('/repos/alice/secret/actions/workflows', tokenAuth(readToken));
      const [workflow] = (list.json() as { workflows: { id: number; name: string; path: string; state: string }[] }).workflows;
      expect(workflow).toMatchObject({ name: 'Build', path: '.gitea/workflows/build.yml', state: 'active' });
      for (const key of [String(workflow?.id), 'build.yml']) {
        expect((await get(`/repos/alice/secret/actions/workflows/${key}`, tokenAuth(readToken))).json()).toMatchObject({
          id: workflow?.id,
        });
      }
      const runs = await get(`/repos/alice/secret/actions/workflows/${workflow?.id}/runs`, tokenAuth(readToken));
      expect((runs.json() as { workflow_runs: { workflow_id: number }[] }).workflow_runs.map((r) => r.workflow_id)).toEqual([workflow?.id]);
      expect((await get('/repos/alice/secret/actions/workflows/12345', tokenAuth(readToken))).statusCode).toBe(404);
      const anonymous = await get('/repos/alice/open/actions/workflows');
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ message: 'Requires authentication', documentation_url: DOCS });
    });

    it('dispatches and toggles for Actions writers only: a reader gets 403, a read-only token 403 before any lookup', async () => {
      const dispatch = (token: string, repo = 'secret') =>
        t.request('POST', `/api/v3/repos/alice/${repo}/actions/workflows/build.yml/dispatches`, {
          headers: tokenAuth(token),
          body: { ref: 'main' },
        });
      const reader = await dispatch(readerAllToken);
      expect(reader.statusCode).toBe(403);
      expect((reader.json() as { message: string }).message).not.toBe('Resource not accessible by personal access token');
      const scoped = await dispatch(readToken, 'nosuch');
      expect(scoped.statusCode).toBe(403);
      expect(scoped.json()).toEqual({ message: 'Resource not accessible by personal access token', documentation_url: DOCS });
      expect((await dispatch(aliceToken)).statusCode).toBe(204);
      const runs = await get('/repos/alice/secret/actions/runs?event=workflow_dispatch', tokenAuth(aliceToken));
      expect(runs.json()).toMatchObject({ total_count: 1, workflow_runs: [{ event: 'workflow_dispatch' }] });
      const missingRef = await t.request('POST', '/api/v3/repos/alice/secret/actions/workflows/build.yml/dispatches', {
        headers: tokenAuth(aliceToken),
        body: {},
      });
      expect(missingRef.statusCode).toBe(422);
      const disable = await t.request('PUT', '/api/v3/repos/alice/secret/actions/workflows/build.yml/disable', {
        headers: tokenAuth(aliceToken),
      });
      expect(disable.statusCode).toBe(204);
      expect((await dispatch(aliceToken)).statusCode).toBe(403);
      const enable = await t.request('PUT', '/api/v3/repos/alice/secret/actions/workflows/build.yml/enable', {
        headers: tokenAuth(aliceToken),
      });
      expect(enable.statusCode).toBe(204);
    });

    it('serves jobs, an empty artifact list and a log archive of a run; a disabled Actions unit is 404', async () => {
      const [run] = ((await get('/repos/alice/open/actions/runs')).json() as { workflow_runs: { id: number; jobs_url: string }[] })
        .workflow_runs;
      const jobs = await get(`/repos/alice/open/actions/runs/${run?.id}/jobs`);
      expect(jobs.json()).toMatchObject({ total_count: 1, jobs: [{ name: 'build', status: 'queued', steps: [], run_id: run?.id }] });
      expect(run?.jobs_url).toBe(`${t.config.rootUrl}api/v3/repos/alice/open/actions/runs/${run?.id}/jobs`);
      expect((await get(`/repos/alice/open/actions/runs/${run?.id}/artifacts`)).json()).toEqual({ total_count: 0, artifacts: [] });
      const logs = await get(`/repos/alice/open/actions/runs/${run?.id}/logs`);
      expect(logs.headers['content-type']).toBe('application/zip');
      // No runner took the job: an archive with no file (only the end of the central directory).
      expect(logs.rawPayload.length).toBe(22);
      expect((await get('/repos/alice/open/actions/runs/999/logs')).statusCode).toBe(404);
      await setUnits(t, { ownerName: 'alice', name: 'open' }, ['CODE', 'ISSUES']);
      expect((await get('/repos/alice/open/actions/runs')).statusCode).toBe(404);
    });
  });

  describe('contents', () => {
    it('answers a file in base64, a directory as entries, and 404 for a path or a repository the viewer may not read', async () => {
      const file = await get('/repos/alice/secret/contents/.gitea/workflows/build.yml?ref=main', tokenAuth(readToken));
      const body = file.json() as { type: string; encoding: string; content: string; path: string };
      expect(body).toMatchObject({ type: 'file', encoding: 'base64', path: '.gitea/workflows/build.yml' });
      expect(Buffer.from(body.content, 'base64').toString()).toBe(WORKFLOW);
      const dir = await get('/repos/alice/secret/contents', tokenAuth(readToken));
      expect((dir.json() as { name: string; type: string }[]).map((e) => [e.name, e.type])).toEqual([
        ['.gitea', 'dir'],
        ['README.md', 'file'],
      ]);
      expect((await get('/repos/alice/secret/contents/nope.txt', tokenAuth(readToken))).statusCode).toBe(404);
      expect((await get('/repos/alice/secret/contents/README.md', tokenAuth(outsiderToken))).statusCode).toBe(404);
    });
  });
});
