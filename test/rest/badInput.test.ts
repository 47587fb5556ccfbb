import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINK_HEADER } from '../../src/rest/pagination.ts';
import { allRoutes } from '../../src/rest/routes/index.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { expectGiteaError, SWAGGER_URL } from '../helpers/giteaAssert.ts';

/** Path parameters that name the fixtures below. */
const FIXTURE_PARAMS: Record<string, string> = {
  owner: 'alice',
  repo: 'pub',
  org: 'org1',
  username: 'alice',
  user: 'alice',
  collaborator: 'alice',
  assignee: 'alice',
  index: '1',
  id: '1',
  branch: 'main',
  filepath: 'README.md',
  base: 'main',
  head: 'main',
  sha: 'a'.repeat(40),
  token: '1',
  diffType: 'diff',
};

const fill = (path: string, params: Record<string, string> = {}): string =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? FIXTURE_PARAMS[name] ?? 'x'));

/** Text an error body must never carry: internals of the database layer, the file system or the runtime. */
function leaks(t: TestApp, body: string): string[] {
  const found: string[] = [];
  for (const needle of [t.config.dataDir, 'prisma', 'Invalid `', 'node_modules', '/src/', 'ENOENT', '    at ']) {
    if (body.toLowerCase().includes(needle.toLowerCase())) found.push(needle);
  }
  return found;
}

describe.each(PROVIDERS)('bad input never answers 500 (%s)', (provider) => {
  let t: TestApp;
  const admin = basic('root');
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    const as = basic('alice');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: as, body: { name: 'pub', auto_init: true } })).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/orgs', { headers: as, body: { username: 'org1' } })).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/repos/alice/pub/issues', { headers: as, body: { title: 'first' } })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('an overflowing page or limit on every list route is clamped like Gitea (never 500, no internals)', async () => {
    const lists = allRoutes.filter((r) => r.list);
    expect(lists.length).toBeGreaterThan(40);
    for (const route of lists) {
      for (const query of [
        'page=99999999999999999999',
        'limit=99999999999999999999',
        'page=9223372036854775807&limit=50',
        'page=-5&limit=1e3',
      ]) {
        const res = await t.request('GET', `/api/v1${fill(route.path)}?${query}`, { headers: admin });
        expect(res.statusCode, `${route.operationId} ?${query}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        expect(leaks(t, res.body), route.operationId).toEqual([]);
      }
    }
    // Gitea reads an unparsable page as 1 and a huge one as past the end.
    const first = await t.request('GET', '/api/v1/repos/alice/pub/issues?page=99999999999999999999&state=all');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toHaveLength(1);
    const past = await t.request('GET', '/api/v1/repos/alice/pub/issues?page=9223372036854775807&state=all');
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('1');
  });

  it('ids and indexes beyond int64 (or the id range) are 404, never 500', async () => {
    for (const route of allRoutes.filter((r) => /\{(index|id)\}/.test(r.path))) {
      for (const big of ['99999999999999999999', '9223372036854775808', '2147483648', '-1']) {
        const url = `/api/v1${fill(route.path, { index: big, id: big })}`;
        const res = await t.request(route.method, url, { headers: admin, ...(route.body ? { body: {} } : {}) });
        expect(res.statusCode, `${route.method} ${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        expect(leaks(t, res.body), url).toEqual([]);
      }
    }
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/pub/issues/99999999999999999999'), 404);
    expectGiteaError(await t.request('GET', '/repositories/99999999999999999999'.replace(/^/, '/api/v1')), 404);
    // Integers in bodies beyond the id range are refused with a binding error.
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/pub/issues', { headers: basic('alice'), body: { title: 'x', milestone: 2 ** 40 } }),
      422,
      '[Milestone]: MaxSize',
    );
  });

  it('NUL bytes and dot segments in path parameters are 4xx without the data path', async () => {
    for (const path of [
      '/api/v1/repos/alice/pub/contents/%00',
      '/api/v1/repos/alice/pub/contents/a%00b',
      '/api/v1/repos/alice/pub/branches/a%00b',
      '/api/v1/repos/alice%00/pub',
      '/api/v1/users/al%00ice',
      '/api/v1/repos/alice/pub/git/blobs/%00',
    ]) {
      const res = await t.request('GET', path, { headers: admin });
      expectGiteaError(res, 404);
      expect(leaks(t, res.body), path).toEqual([]);
    }
    // Encoded slashes keep the dot segments out of URL normalization, so they reach the handler.
    for (const path of ['..%2F..', '..%2F..%2Fsecret_key', 'a%2F..%2F..', '.%2FREADME.md', 'a%2F%2Fb', '%2E%2E%2Fx']) {
      const res = await t.request('GET', `/api/v1/repos/alice/pub/contents/${path}`, { headers: admin });
      expectGiteaError(res, 404);
      expect(leaks(t, res.body), path).toEqual([]);
    }
    expect((await t.request('GET', '/api/v1/repos/alice/pub/contents/README.md')).statusCode).toBe(200);
    // No text column can hold NUL (PostgreSQL refuses it): in a query or a body it is a binding error.
    expectGiteaError(await t.request('GET', '/api/v1/users/search?q=%00'), 422, '[Q]: Invalid');
    expectGiteaError(await t.request('GET', '/api/v1/repos/search?q=a%00b'), 422);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/pub/issues', { headers: basic('alice'), body: { title: 'a\u0000b' } }),
      422,
      '[Title]: Invalid',
    );
    expectGiteaError(
      await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'o', labels: { 'k\u0000': 1 } } }),
      422,
    );
  });

  it("Fastify's own errors answer in Gitea's shape: bad URL 400, long parameter 414, large body 413", async () => {
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/%zz'), 400);
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/${'x'.repeat(600)}`), 414);
    const large = await t.request('POST', '/api/v1/repos/alice/pub/labels', {
      headers: { ...basic('alice'), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'big', color: 'f'.repeat(11 * 1024 * 1024) }),
    });
    expectGiteaError(large, 413);
    // Outside /api/v1 too.
    expectGiteaError(await t.request('GET', '/no/such/page'), 404, 'not found');
  });

  it("Node's parser errors (431 header overflow, 400 malformed request) answer in Gitea's shape", async () => {
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const raw = (headers: Record<string, string>, path = '/api/v1/version') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const overflow = await raw({ 'x-big': 'y'.repeat(20 * 1024) });
    expect(overflow.status).toBe(431);
    expect(JSON.parse(overflow.body)).toEqual({ message: 'request header fields too large', url: SWAGGER_URL });
    const longUrl = await raw({}, `/api/v1/repos/search?q=${'z'.repeat(20 * 1024)}`);
    expect(longUrl.status).toBe(431);
    expect(JSON.parse(longUrl.body).url).toBe(SWAGGER_URL);
    // A literal dot segment, as a client sends it without URL normalization (curl --path-as-is).
    const dots = await raw(admin, '/api/v1/repos/alice/pub/contents/..');
    expect(dots.status).toBe(404);
    expect(JSON.parse(dots.body)).toMatchObject({ url: SWAGGER_URL });
    expect(dots.body).not.toContain(t.config.dataDir);
    const garbage = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toEqual({ message: 'bad request', url: SWAGGER_URL });
  });

  it('a 422 message cuts long input: a 1 MB colour does not come back', async () => {
    const res = await t.request('POST', '/api/v1/repos/alice/pub/labels', {
      headers: basic('alice'),
      body: { name: 'huge', color: `#${'g'.repeat(1024 * 1024)}` },
    });
    expectGiteaError(res, 422, /^invalid color: #g+…$/);
    expect(res.body.length).toBeLessThan(1024);
    const sort = await t.request('GET', `/api/v1/repos/search?sort=${'s'.repeat(100_000)}`);
    expectGiteaError(sort, 422);
    expect(sort.body.length).toBeLessThan(1024);
    const time = await t.request('GET', `/api/v1/repos/alice/pub/issues?since=${'9'.repeat(100_000)}`);
    expectGiteaError(time, 422, /^parsing time "9+…" as RFC3339 failed$/);
    expect(time.body.length).toBeLessThan(1024);
  });

  it('a 10 KB q= gives no oversized Link header', async () => {
    // /admin/emails ignores q (Gitea's list has no filter), so the list is not empty and its links repeat the query.
    const q = encodeURIComponent('p'.repeat(10 * 1024));
    const res = await t.request('GET', `/api/v1/admin/emails?limit=1&q=${q}`, { headers: admin });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThan(1);
    expect(String(res.headers.link ?? '').length).toBeLessThanOrEqual(MAX_LINK_HEADER);
    const short = await t.request('GET', '/api/v1/admin/emails?limit=1&q=short', { headers: admin });
    expect(short.headers.link).toContain('rel="next"');
  });

  it('repository and organization label lists honour the page-size cap', async () => {
    const as = basic('alice');
    for (let i = 0; i < 60; i++) {
      const name = `l${String(i).padStart(2, '0')}`;
      expect(
        (await t.request('POST', '/api/v1/repos/alice/pub/labels', { headers: as, body: { name, color: '#00aabb' } })).statusCode,
      ).toBe(201);
      expect((await t.request('POST', '/api/v1/orgs/org1/labels', { headers: as, body: { name, color: '#00aabb' } })).statusCode).toBe(201);
    }
    for (const base of ['/api/v1/repos/alice/pub/labels', '/api/v1/orgs/org1/labels']) {
      const capped = await t.request('GET', `${base}?limit=100`, { headers: as });
      expect(capped.json()).toHaveLength(50);
      expect(capped.headers['x-total-count']).toBe('60');
      expect((await t.request('GET', `${base}?limit=0`, { headers: as })).json()).toHaveLength(30);
      expect((await t.request('GET', base, { headers: as })).json()).toHaveLength(30);
      expect((await t.request('GET', `${base}?page=2&limit=50`, { headers: as })).json()).toHaveLength(10);
    }
  });

  describe('internal errors', () => {
    let broken: TestApp;
    beforeAll(async () => {
      broken = await startTestApp(provider);
      await broken.createUser('root', { admin: true });
      await broken.createUser('alice');
      await broken.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'pub' } });
      // A database fault: the label table is gone (after the repository's event subscribers are done with it).
      await broken.app.deps.notifier.drain();
      await broken.db.$executeRawUnsafe(provider === 'postgresql' ? 'DROP TABLE "Label" CASCADE' : 'DROP TABLE "Label"');
    });
    afterAll(() => broken.close());

    it('show no internal message to anonymous callers or users in any mode; admins see it; SHOW_INTERNAL_ERRORS shows it', async () => {
      const url = '/api/v1/repos/alice/pub/labels';
      for (const production of [false, true]) {
        broken.config.production = production;
        for (const headers of [{}, basic('alice')]) {
          const res = await broken.request('GET', url, { headers });
          expect(res.statusCode).toBe(500);
          expect(res.json()).toEqual({ message: '', url: SWAGGER_URL });
        }
      }
      const asAdmin = await broken.request('GET', url, { headers: basic('root') });
      expect(asAdmin.statusCode).toBe(500);
      expect(asAdmin.json().message).not.toBe('');
      broken.config.showInternalErrors = true;
      try {
        expect((await broken.request('GET', url)).json().message).not.toBe('');
      } finally {
        broken.config.showInternalErrors = false;
      }
    });
  });
});
