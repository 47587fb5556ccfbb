import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signArtifactUrl } from '../../src/services/actions/artifactStore.ts';
import { basic, isGiteaError, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, runnerClients } from './runnerClient.ts';

const WORKFLOW = `on: [push]
jobs:
  build:
    runs-on: artifact-test
    steps:
      - run: echo hi
`;
const SERVICE = '/twirp/github.actions.results.api.v1.ArtifactService';

/**
 * The v4 artifact protocol over real HTTP with a real task token (what actions/upload-artifact@v4 and
 * download-artifact@v4 do), then the artifacts on the REST API.
 */
describe.each(PROVIDERS)('actions artifacts v4 (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  let token = '';
  let runtimeToken = '';
  let runId = 0;
  let stopTask = async () => undefined as void;
  const payload = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(70_000, 7), Buffer.from('end')]);
  const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
  /** A URL the server signed (with its ROOT_URL) sent to the listening server instead. */
  const local = (url: string) => {
    const u = new URL(url);
    return `${base}${u.pathname}${u.search}`;
  };
  const call = (method: string, body: unknown, tk = token) =>
    fetch(`${base}${SERVICE}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(tk ? { authorization: `Bearer ${tk}` } : {}) },
      body: JSON.stringify(body),
    });
  const put = (url: string, params: string, body: Buffer | string) =>
    fetch(`${local(url)}&${params}`, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body) });
  const ids = () => ({ workflow_run_backend_id: String(runId), workflow_job_run_backend_id: '1' });
  const create = async (name: string) => {
    const res = await call('CreateArtifact', { ...ids(), name, version: 4 });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { ok: boolean; signedUploadUrl: string };
    expect(body.ok).toBe(true);
    return body.signedUploadUrl;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    const root = await t.createUser('root', { admin: true });
    await t.createUser('alice');
    await createRepoFixture(t, root, 'ci', { isPrivate: true });
    const port = Number(new URL(base).port);
    const dir = git.dir('work');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/ci.yml', WORKFLOW);
    await git.ok(['push', '-q', gitUrl(port, 'root', 'ci', { user: 'root', secret: PASSWORD }), 'main'], { cwd: dir });
    await t.app.jobs.drain();
    const reg = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', { headers: basic('root') })).json<{
      token: string;
    }>();
    const c = runnerClients(base, 'json');
    const { runner } = await c.runner().register({ name: 'r', token: reg.token, version: 'test', labels: ['artifact-test'] });
    const client = c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' });
    const { task } = await client.fetchTask({ tasksVersion: 0n });
    token = task?.secrets.GITHUB_TOKEN ?? '';
    runtimeToken = String(task?.context?.gitea_runtime_token ?? '');
    const row = await t.db.actionTask.findUniqueOrThrow({ where: { id: Number(task?.id) }, include: { job: true } });
    runId = row.job.runId;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    stopTask = async () => {
      await client.updateTask({ state: { id: task?.id ?? 0n, result: 1 } });
    };
  }, 60_000);
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('refuses calls without the task token or for another run', async () => {
    expect((await call('CreateArtifact', { ...ids(), name: 'x' }, '')).status).toBe(401);
    expect((await call('CreateArtifact', { ...ids(), name: 'x' }, 'f'.repeat(40))).status).toBe(401);
    const other = await call('CreateArtifact', { ...ids(), workflow_run_backend_id: String(runId + 1000), name: 'x' });
    expect(other.status).toBe(400);
    expect(await other.text()).toContain('run-id does not match');
    expect((await call('CreateArtifact', { ...ids(), name: 'a/b' })).status).toBe(400);
    const bad = await fetch(`${base}${SERVICE}/CreateArtifact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: '{',
    });
    expect(bad.status).toBe(400);
  });

  it('accepts the runtime token of the task context, whose scp claim names the run and job (as the toolkit reads it)', async () => {
    const [, claims = ''] = runtimeToken.split('.');
    const { scp } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { scp: string };
    const [, backendRun, backendJob] = scp.split(':');
    expect(backendRun).toBe(String(runId));
    const res = await call('ListArtifacts', { workflow_run_backend_id: backendRun, workflow_job_run_backend_id: backendJob }, runtimeToken);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ artifacts: [] });
    const forged = `${runtimeToken.slice(0, -4)}AAAA`;
    expect((await call('ListArtifacts', ids(), forged)).status).toBe(401);
  });

  it('uploads blocks out of order, assembles them in block-list order and checks size and hash', async () => {
    const url = await create('dist');
    expect(url).toContain(`${SERVICE}/UploadArtifact?sig=`);
    const [b1, b2] = [payload.subarray(0, 40_000), payload.subarray(40_000)];
    expect((await put(url, 'comp=block&blockid=YmxvY2stMg%3D%3D', b2)).status).toBe(201);
    expect((await put(url, 'comp=block&blockid=YmxvY2stMQ%3D%3D', b1)).status).toBe(201);
    const list = '<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>YmxvY2stMQ==</Latest><Latest>YmxvY2stMg==</Latest></BlockList>';
    expect((await put(url, 'comp=blocklist', list)).status).toBe(201);
    const fin = await call('FinalizeArtifact', { ...ids(), name: 'dist', size: String(payload.length), hash: sha256(payload) });
    expect(fin.status, await fin.clone().text()).toBe(200);
    const { ok, artifactId } = (await fin.json()) as { ok: boolean; artifactId: string };
    expect(ok).toBe(true);
    const row = await t.db.actionArtifact.findUniqueOrThrow({ where: { id: Number(artifactId) } });
    expect(row).toMatchObject({ name: 'dist', path: 'dist.zip', status: 'UPLOAD_CONFIRMED', runId, size: BigInt(payload.length) });
    // A finalized artifact takes no more blocks.
    expect((await put(url, 'comp=block&blockid=eA%3D%3D', 'x')).status).toBe(400);
  });

  it('rejects a hash that does not match and keeps that artifact pending', async () => {
    const url = await create('broken');
    expect((await put(url, 'comp=appendBlock', Buffer.from('some bytes'))).status).toBe(201);
    const fin = await call('FinalizeArtifact', { ...ids(), name: 'broken', size: '10', hash: sha256(Buffer.from('other')) });
    expect(fin.status).toBe(400);
    const wrongSize = await call('FinalizeArtifact', { ...ids(), name: 'broken', size: '11' });
    expect(wrongSize.status).toBe(400);
    expect((await t.db.actionArtifact.findFirstOrThrow({ where: { name: 'broken' } })).status).toBe('UPLOAD_PENDING');
    expect((await call('FinalizeArtifact', { ...ids(), name: 'nothing' })).status).toBe(404);
  });

  it('takes appended chunks without block ids', async () => {
    const url = await create('logs');
    expect((await put(url, 'comp=appendBlock', 'hello ')).status).toBe(201);
    expect((await put(url, 'comp=appendBlock', 'world')).status).toBe(201);
    const fin = await call('FinalizeArtifact', { ...ids(), name: 'logs', size: '11', hash: sha256(Buffer.from('hello world')) });
    expect(fin.status).toBe(200);
  });

  it('refuses an upload URL whose signature does not match', async () => {
    const url = await create('tampered');
    const forged = url.replace('artifactName=tampered', 'artifactName=dist');
    expect((await put(forged, 'comp=appendBlock', 'x')).status).toBe(401);
    expect((await put(url.replace(/sig=[^&]+/, 'sig=AAAA'), 'comp=appendBlock', 'x')).status).toBe(401);
  });

  it('lists the confirmed artifacts of the run, by name or id', async () => {
    const all = (await (await call('ListArtifacts', ids())).json()) as { artifacts: Array<Record<string, string>> };
    expect(all.artifacts.map((a) => a.name).sort()).toEqual(['dist', 'logs']);
    const dist = all.artifacts.find((a) => a.name === 'dist')!;
    expect(dist).toMatchObject({ workflowRunBackendId: String(runId), workflowJobRunBackendId: '1', size: String(payload.length) });
    expect(dist.databaseId).toMatch(/^\d+$/);
    const byName = (await (await call('ListArtifacts', { ...ids(), name_filter: 'logs' })).json()) as { artifacts: unknown[] };
    expect(byName.artifacts).toHaveLength(1);
    const byId = (await (await call('ListArtifacts', { ...ids(), idFilter: dist.databaseId })).json()) as {
      artifacts: Array<{ name: string }>;
    };
    expect(byId.artifacts.map((a) => a.name)).toEqual(['dist']);
  });

  it('downloads through the signed URL of GetSignedArtifactURL', async () => {
    const res = await call('GetSignedArtifactURL', { ...ids(), name: 'dist' });
    expect(res.status).toBe(200);
    const { signedUrl } = (await res.json()) as { signedUrl: string };
    const zip = await fetch(local(signedUrl));
    expect(zip.status).toBe(200);
    expect(Buffer.from(await zip.arrayBuffer()).equals(payload)).toBe(true);
    expect((await fetch(local(signedUrl.replace(/expires=\d+/, (m) => `${m}1`)))).status).toBe(401);
    expect((await call('GetSignedArtifactURL', { ...ids(), name: 'broken' })).status).toBe(404);
  });

  const zipOf = (id: number) => path.join(t.config.dataDir, 'actions_artifacts', String(runId), `${id}.zip`);
  const artifactId = async (name: string) => (await t.db.actionArtifact.findFirstOrThrow({ where: { name } })).id;

  it('lists the artifacts on the REST API with the name filter, per repository and per run', async () => {
    const res = await t.request('GET', '/api/v1/repos/root/ci/actions/artifacts', { headers: basic('root') });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ total_count: number; artifacts: Array<Record<string, unknown>> }>();
    expect(body.total_count).toBe(2);
    const id = await artifactId('dist');
    const dist = body.artifacts.find((a) => a.name === 'dist');
    const url = `http://localhost:3000/api/v1/repos/root/ci/actions/artifacts/${id}`;
    expect(dist).toMatchObject({
      id,
      size_in_bytes: payload.length,
      url,
      archive_download_url: `${url}/zip`,
      expired: false,
      workflow_run: { id: runId, repository_id: expect.any(Number) as number, head_sha: expect.stringMatching(/^[0-9a-f]{40}$/) as string },
    });
    expect(dist?.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const named = await t.request('GET', '/api/v1/repos/root/ci/actions/artifacts?name=logs', { headers: basic('root') });
    expect(named.json<{ artifacts: Array<{ name: string }> }>().artifacts.map((a) => a.name)).toEqual(['logs']);
    const ofRun = await t.request('GET', `/api/v1/repos/root/ci/actions/runs/${runId}/artifacts`, { headers: basic('root') });
    expect(ofRun.json<{ total_count: number }>().total_count).toBe(2);
    const paged = await t.request('GET', `/api/v1/repos/root/ci/actions/runs/${runId}/artifacts?limit=1`, { headers: basic('root') });
    expect(paged.json<{ total_count: number; artifacts: unknown[] }>()).toMatchObject({ total_count: 2, artifacts: [expect.anything()] });
    const otherRun = await t.request('GET', `/api/v1/repos/root/ci/actions/runs/${runId + 1000}/artifacts`, { headers: basic('root') });
    expect(otherRun.json<{ total_count: number }>().total_count).toBe(0);
    for (const headers of [basic('alice'), {}]) {
      const hidden = await t.request('GET', '/api/v1/repos/root/ci/actions/artifacts', { headers });
      expect(hidden.statusCode).toBe(404);
      expect(isGiteaError(hidden.json())).toBe(true);
    }
  });

  it('gets one artifact; pending, unknown and malformed ids are 404', async () => {
    const id = await artifactId('logs');
    const res = await t.request('GET', `/api/v1/repos/root/ci/actions/artifacts/${id}`, { headers: basic('root') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'logs', size_in_bytes: 11 });
    for (const bad of [await artifactId('broken'), 999_999, 'abc']) {
      const r = await t.request('GET', `/api/v1/repos/root/ci/actions/artifacts/${bad}`, { headers: basic('root') });
      expect(r.statusCode).toBe(404);
      expect(isGiteaError(r.json())).toBe(true);
    }
  });

  it('redirects the zip download to a signed raw URL that streams the zip', async () => {
    const id = await artifactId('dist');
    const res = await t.request('GET', `/api/v1/repos/root/ci/actions/artifacts/${id}/zip`, { headers: basic('root') });
    expect(res.statusCode).toBe(302);
    const location = String(res.headers.location);
    expect(location).toMatch(
      new RegExp(`^http://localhost:3000/api/v1/repos/root/ci/actions/artifacts/${id}/zip/raw\\?sig=[\\w-]+&expires=\\d+$`),
    );
    const raw = await fetch(local(location));
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-disposition')).toContain('filename=dist.zip');
    expect(Buffer.from(await raw.arrayBuffer()).equals(payload)).toBe(true);
    expect((await fetch(local(location.replace(/sig=[\w-]+/, 'sig=AAAA')))).status).toBe(404);
    const past = Math.floor(Date.now() / 1000) - 10;
    const sig = signArtifactUrl(t.config.secretKey, ['api', `api/v1/repos/root/ci/actions/artifacts/${id}/zip/raw`, past, id]);
    expect((await fetch(`${base}/api/v1/repos/root/ci/actions/artifacts/${id}/zip/raw?sig=${sig}&expires=${past}`)).status).toBe(401);
    expect((await t.request('GET', `/api/v1/repos/root/ci/actions/artifacts/${id}/zip`, { headers: basic('alice') })).statusCode).toBe(404);
  });

  it('deletes an artifact for writers only, with its file', async () => {
    const id = await artifactId('logs');
    expect(existsSync(zipOf(id))).toBe(true);
    expect((await t.request('DELETE', `/api/v1/repos/root/ci/actions/artifacts/${id}`, { headers: basic('alice') })).statusCode).toBe(404);
    const del = await t.request('DELETE', `/api/v1/repos/root/ci/actions/artifacts/${id}`, { headers: basic('root') });
    expect(del.statusCode, del.body).toBe(204);
    expect(existsSync(zipOf(id))).toBe(false);
    expect((await t.request('GET', `/api/v1/repos/root/ci/actions/artifacts/${id}`, { headers: basic('root') })).statusCode).toBe(404);
    expect((await t.request('DELETE', `/api/v1/repos/root/ci/actions/artifacts/${id}`, { headers: basic('root') })).statusCode).toBe(404);
  });

  it('deletes through the protocol, and takes no calls once the task stopped', async () => {
    const del = await call('DeleteArtifact', { ...ids(), name: 'broken' });
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ ok: true, artifactId: expect.stringMatching(/^\d+$/) as string });
    expect(await t.db.actionArtifact.count({ where: { name: 'broken' } })).toBe(0);
    const keep = await create('keep');
    expect((await put(keep, 'comp=appendBlock', 'kept')).status).toBe(201);
    expect((await call('FinalizeArtifact', { ...ids(), name: 'keep', size: '4' })).status).toBe(200);
    await stopTask();
    expect((await call('ListArtifacts', ids())).status).toBe(401);
    expect((await call('CreateArtifact', { ...ids(), name: 'late' })).status).toBe(401);
    expect((await call('ListArtifacts', ids(), runtimeToken)).status).toBe(401);
  });

  it('cleanup_actions expires artifacts past their expiry: shown as expired, no longer downloadable', async () => {
    const [dist, keep] = [await artifactId('dist'), await artifactId('keep')];
    expect(existsSync(zipOf(dist))).toBe(true);
    await t.db.actionArtifact.update({ where: { id: dist }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const cron = await t.request('POST', '/api/v1/admin/cron/cleanup_actions', { headers: basic('root') });
    expect(cron.statusCode, cron.body).toBe(204);
    expect(existsSync(zipOf(dist))).toBe(false);
    expect(existsSync(zipOf(keep))).toBe(true);
    const got = await t.request('GET', `/api/v1/repos/root/ci/actions/artifacts/${dist}`, { headers: basic('root') });
    expect(got.json()).toMatchObject({ id: dist, expired: true });
    const zip = await t.request('GET', `/api/v1/repos/root/ci/actions/artifacts/${dist}/zip`, { headers: basic('root') });
    expect(zip.statusCode).toBe(404);
    expect(zip.json<{ message: string }>().message).toBe('Artifact has expired');
  });

  it('deleting the run deletes its artifacts and their files', async () => {
    const keep = await artifactId('keep');
    const del = await t.request('DELETE', `/api/v1/repos/root/ci/actions/runs/${runId}`, { headers: basic('root') });
    expect(del.statusCode, del.body).toBe(204);
    expect(await t.db.actionArtifact.count({ where: { runId } })).toBe(0);
    expect(existsSync(zipOf(keep))).toBe(false);
  });
});
