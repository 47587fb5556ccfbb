import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createMigratedDatabase, PROVIDERS, type TestDatabase } from '../helpers/db.ts';

/** /metrics, /healthz, /readyz and request ids in responses and log lines. */
describe.each(PROVIDERS)('operations endpoints (%s)', (provider) => {
  let database: TestDatabase;
  let app: App;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    database = await createMigratedDatabase(provider);
    const config = loadConfig({
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      SECRET_KEY: 'test-secret',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
    const stream = new PassThrough();
    stream.setEncoding('utf8');
    let buffer = '';
    stream.on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const p of parts) if (p) lines.push(JSON.parse(p) as Record<string, unknown>);
    });
    app = await buildApp(config, { logStream: stream });
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('liveness is 200; readiness checks the database and migrations, and fails while draining', async () => {
    expect((await app.server.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await app.server.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'pass', checks: {} });
    app.ops.draining = true;
    const draining = await app.server.inject({ method: 'GET', url: '/readyz' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ status: 'fail', checks: { draining: 'shutting down' } });
    app.ops.draining = false;
  });

  it('answers X-Request-Id (kept from the client) and logs it on every line of the request', async () => {
    const res = await app.server.inject({ method: 'GET', url: '/api/v1/repos/nobody/nothing', headers: { 'x-request-id': 'trace-abc-1' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe('trace-abc-1');
    const own = lines.filter((l) => l.reqId === 'trace-abc-1');
    expect(own.length).toBeGreaterThanOrEqual(2); // incoming request + request completed
    const generated = await app.server.inject({ method: 'GET', url: '/api/v1/version' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('/metrics: request latency by route, statements per request, job queue, git and webhook series', async () => {
    await app.server.inject({ method: 'GET', url: '/api/v1/version' });
    await app.server.inject({ method: 'GET', url: '/api/v1/users/nobody' });
    // Git's smart HTTP, answered or refused, is timed by service; a REST path that merely ends like one is not git.
    await app.server.inject({ method: 'GET', url: '/nobody/nothing.git/info/refs?service=git-upload-pack' });
    await app.server.inject({ method: 'GET', url: '/nobody/nothing.git/info/refs?service=git-receive-pack' });
    await app.server.inject({ method: 'POST', url: '/nobody/nothing.git/git-upload-pack' });
    await app.server.inject({ method: 'GET', url: '/api/v1/repos/nobody/nothing/git-receive-pack' });
    await app.server.inject({ method: 'GET', url: '/api/v1/repos/nobody/info/refs' });
    const res = await app.server.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(
      /forgegraph_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/version",status_code="200"\} [1-9]/,
    );
    // The user lookup issued at least one statement; the version route none.
    expect(text).toMatch(/forgegraph_db_statements_per_request_sum\{route="\/api\/v1\/users\/:username"\} [1-9]/);
    expect(text).toMatch(/forgegraph_db_statements_per_request_sum\{route="\/api\/v1\/version"\} 0/);
    expect(text).toContain('forgegraph_job_queue_oldest_due_seconds 0');
    expect(text).toContain('# TYPE forgegraph_job_queue_depth gauge');
    expect(text).toContain('# TYPE forgegraph_webhook_deliveries_total counter');
    expect(text).toContain('# TYPE forgegraph_git_operation_duration_seconds histogram');
    const gitCounts = [...text.matchAll(/forgegraph_git_operation_duration_seconds_count\{service="([^"]+)"\} (\d+)/g)];
    expect(Object.fromEntries(gitCounts.map(([, service, n]) => [service, Number(n)]))).toEqual({
      'upload-pack-advertisement': 1,
      'receive-pack-advertisement': 1,
      'upload-pack': 1,
    });
    expect(text).toContain('forgegraph_process_cpu_seconds_total');
  });
});
