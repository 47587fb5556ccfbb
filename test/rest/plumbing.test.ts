import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../helpers/db.ts';
import { basic, isGiteaError, startTestApp, type TestApp } from '../helpers/app.ts';

describe.each(PROVIDERS)('REST plumbing (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
  });
  afterAll(() => t.close());

  it('GET /api/v1/version answers a semver, anonymously', async () => {
    const res = await t.request('GET', '/api/v1/version');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(res.json()).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
  });

  it('bad credentials are 401 even on a public route', async () => {
    const res = await t.request('GET', '/api/v1/version', { headers: basic('alice', 'wrong-password') });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'invalid username, password or token', url: 'http://localhost:3000/api/swagger' });
  });

  it('an unknown route is a Gitea 404 body', async () => {
    const res = await t.request('GET', '/api/v1/no/such/route');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'not found', url: 'http://localhost:3000/api/swagger' });
  });

  it('malformed JSON is 422 with a Gitea body, never 500', async () => {
    const res = await t.request('POST', '/api/v1/user/emails', {
      headers: { ...basic('alice'), 'content-type': 'application/json' },
      payload: '{"emails": [',
    });
    expect(res.statusCode).toBe(422);
    expect(isGiteaError(res.json())).toBe(true);
    expect(res.json().message).toMatch(/^\[\]: /);
  });

  it('an oversized body is 413 with a Gitea body', async () => {
    const res = await t.request('POST', '/api/v1/user/emails', {
      headers: { ...basic('alice'), 'content-type': 'application/json' },
      payload: JSON.stringify({ emails: ['x'.repeat(11 * 1024 * 1024)] }),
    });
    expect(res.statusCode).toBe(413);
    expect(isGiteaError(res.json())).toBe(true);
  });

  it('a JSON body sent as text/plain is accepted (liberal parsing)', async () => {
    const res = await t.request('POST', '/api/v1/user/emails', {
      headers: { ...basic('alice'), 'content-type': 'text/plain' },
      payload: JSON.stringify({ emails: ['alice-plain@example.com'] }),
    });
    expect(res.statusCode).toBe(201);
  });

  it('GET /api/healthz reports the database check', async () => {
    const res = await t.request('GET', '/api/healthz');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('pass');
    expect(body.checks['database:ping'][0].status).toBe('pass');
  });

  it('GET /api/swagger is an OpenAPI document of the routes we serve', async () => {
    const res = await t.request('GET', '/swagger.v1.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/admin/users'].post.operationId).toBe('adminCreateUser');
    expect(doc.paths['/users/{username}/tokens/{token}'].delete.responses['204']).toBeDefined();
    expect(doc.components.schemas.User.properties.login).toBeDefined();
    // Every schema a route refers to is defined.
    const refs = [...JSON.stringify(doc.paths).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    expect([...new Set(refs)].filter((name) => !doc.components.schemas[name ?? ''])).toEqual([]);
  });

  it('JSON output escapes <, > and & as Gitea does', async () => {
    const admin = await t.createUser('plumbadmin', { admin: true, fullName: 'A <b> & c' });
    const res = await t.request('GET', `/api/v1/users/${admin.name}`);
    expect(res.body).toContain('A \\u003cb\\u003e \\u0026 c');
    expect(res.body.endsWith('\n')).toBe(true);
  });
});
