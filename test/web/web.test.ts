import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../src/web/asset.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const EXTERNAL_ASSET = /<(script|link|img)\b[^>]*\b(src|href)\s*=\s*["']?(https?:)?\/\//i;
const SWAGGER_DIST = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['identity', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

// Static pages need no database variant: one SQLite app is enough.
describe('landing page, Swagger UI and GraphiQL delivery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('GET / is a small self-contained page linking GraphiQL and the REST explorer', async () => {
    const res = await t.request('GET', '/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<a href="/api/graphql">GraphiQL</a>');
    expect(res.body).toContain('<a href="/api/swagger">REST API explorer</a>');
    expect(res.body).toContain('href="/swagger.v1.json"');
    expect(res.body).not.toMatch(EXTERNAL_ASSET);
    expect(res.rawPayload.length).toBeLessThan(4096);
  });

  it('GET /api/swagger is Swagger UI over /swagger.v1.json, with its assets served from swagger-ui-dist', async () => {
    const page = await t.request('GET', '/api/swagger');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).not.toMatch(EXTERNAL_ASSET);
    const refs = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
    expect(refs.map((r) => path.basename(r)).sort()).toEqual(['swagger-ui-bundle.js', 'swagger-ui-init.js', 'swagger-ui.css']);
    for (const ref of refs) {
      const res = await t.request('GET', ref, { headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, ref).toBe(200);
      const file = path.basename(ref);
      if (file === 'swagger-ui-init.js') {
        // It names a URL of this configuration: revalidated, not versioned.
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toContain('"url":"/swagger.v1.json"');
        expect(res.body).toContain('SwaggerUIBundle(');
      } else {
        // Versioned by swagger-ui-dist's version in the path: cached for good.
        expect(ref).toMatch(/^\/assets\/swagger-ui-\d+\.\d+\.\d+\//);
        expect(res.headers['cache-control'], ref).toBe('public, max-age=31536000, immutable');
        expect(res.rawPayload.equals(readFileSync(path.join(SWAGGER_DIST, file))), file).toBe(true);
        expect(res.headers['content-type']).toMatch(file.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      }
    }
  });

  it('/swagger.v1.json stays the OpenAPI document', async () => {
    const res = await t.request('GET', '/swagger.v1.json');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
  });

  it.each([
    ['/api/graphql', { accept: 'text/html' }],
    ['/api/swagger', {}],
  ])('%s is sent compressed (br, gzip) with an ETag that answers 304', async (url, headers) => {
    const plain = await t.request('GET', url, { headers: { ...headers, 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const br = await t.request('GET', url, { headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toBe(etag);
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gz = await t.request('GET', url, { headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);

    const again = await t.request('GET', url, { headers: { ...headers, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('HEAD /api/graphql and /graphql answer what GET answers, without a body (curl -I)', async () => {
    const query = `?query=${encodeURIComponent('{ viewer { login } }')}`;
    for (const url of ['/api/graphql', '/graphql', `/api/graphql${query}`]) {
      for (const accept of ['*/*', 'text/html,application/xhtml+xml', 'application/json', 'application/graphql-response+json']) {
        const headers = { accept, 'accept-encoding': 'identity' };
        const get = await t.request('GET', url, { headers });
        const head = await t.request('HEAD', url, { headers });
        expect([head.statusCode, head.headers['content-type'], head.headers['content-length']], `${url} ${accept}`).toEqual([
          get.statusCode,
          get.headers['content-type'],
          get.headers['content-length'],
        ]);
        expect(head.rawPayload.length).toBe(0);
        expect(get.rawPayload.length).toBeGreaterThan(0);
      }
    }
    const graphiql = await t.request('HEAD', '/api/graphql', { headers: { accept: 'text/html' } });
    expect(graphiql.statusCode).toBe(200);
    expect(graphiql.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('the 9 MB GraphiQL page travels as less than a quarter of its size', async () => {
    const plain = await t.request('GET', '/api/graphql', { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
    const br = await t.request('GET', '/api/graphql', { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(plain.rawPayload.length).toBeGreaterThan(1_000_000);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
  });
});
