import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import type { LogFormat } from '../../src/config.ts';
import { redactSecrets } from '../../src/logger.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/** A log destination that keeps every JSON line. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  /** The URLs logged by Fastify's request serializer. */
  urls(): string[] {
    return this.lines.map((l) => (JSON.parse(l) as { req?: { url?: string } }).req?.url).filter((u): u is string => !!u);
  }
}

describe('redactSecrets', () => {
  it.each([
    ['/api/v1/user?token=abc', '/api/v1/user?token=[REDACTED]'],
    ['/api/v1/repos/o/r?page=2&access_token=abc&limit=5', '/api/v1/repos/o/r?page=2&access_token=[REDACTED]&limit=5'],
    ['/x?password=hunter2#frag', '/x?password=[REDACTED]#frag'],
    ['/x?%74oken=abc', '/x?%74oken=[REDACTED]'],
    ['/x?Token=abc', '/x?Token=[REDACTED]'],
    ['Route GET:/nope?sudo=bob&token=abc not found', 'Route GET:/nope?sudo=bob&token=[REDACTED] not found'],
    ['/x?tokens=1&my_token=2', '/x?tokens=1&my_token=2'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });
});

describe.each(PROVIDERS)('credentials never reach the log (%s)', (provider) => {
  let t: TestApp;
  let token: string;
  const apps: App[] = [];

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    token = await t.createToken('alice');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t?.close();
  });

  /** A second app over the same database, logging at debug level in `format` into a capture, sent every door's secrets. */
  async function logOfRequests(format: LogFormat): Promise<LogCapture> {
    const log = new LogCapture();
    const app = await buildApp({ ...t.config, logLevel: 'debug', logFormat: format }, { db: t.db, logStream: log });
    apps.push(app);
    await app.server.ready();
    const requests: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; payload?: string }[] = [
      { url: `/api/v1/user?token=${token}` },
      { url: `/api/v1/repos/alice/none?page=2&access_token=${token}` },
      { url: '/api/v1/user?token=SECRET-WRONG-TOKEN' },
      { url: '/api/v1/user', headers: { authorization: `token ${token}` } },
      { url: '/api/v1/user', headers: basic('alice', 'SECRET-PASSWORD') },
      { url: '/no/such/route/here?token=SECRET-404-TOKEN' },
      { url: '/login?user=alice&password=SECRET-QUERY-PASSWORD' },
      {
        url: `/api/graphql?access_token=${token}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ query: '{ viewer { login } }' }),
      },
      { url: `/alice/none.git/info/refs?service=git-upload-pack&token=${token}` },
    ];
    for (const r of requests) {
      const res = await app.server.inject({
        method: r.method ?? 'GET',
        url: r.url,
        headers: r.headers ?? {},
        ...(r.payload ? { payload: r.payload } : {}),
      });
      expect(res.statusCode).toBeLessThan(500);
    }
    // Something that logs headers (a plugin, a debugging line) gets them censored too.
    app.server.log.info(
      { req: { headers: { authorization: `Bearer ${token}` } }, headers: { authorization: `token ${token}` } },
      'headers',
    );
    expect(log.lines.length).toBeGreaterThan(requests.length);
    const text = log.lines.join('\n');
    for (const secret of [
      token,
      'SECRET-WRONG-TOKEN',
      'SECRET-PASSWORD',
      Buffer.from('alice:SECRET-PASSWORD').toString('base64'),
      'SECRET-404-TOKEN',
      'SECRET-QUERY-PASSWORD',
    ]) {
      expect(text).not.toContain(secret);
    }
    return log;
  }

  const REDACTED_URLS = [
    '/api/v1/user?token=[REDACTED]',
    '/api/v1/repos/alice/none?page=2&access_token=[REDACTED]',
    '/api/graphql?access_token=[REDACTED]',
    '/alice/none.git/info/refs?service=git-upload-pack&token=[REDACTED]',
    '/login?user=alice&password=[REDACTED]',
    '/no/such/route/here?token=[REDACTED]',
  ];

  it('token, access_token and password query values and the Authorization header are redacted on every door', async () => {
    const log = await logOfRequests('json');
    const urls = log.urls();
    for (const url of REDACTED_URLS) expect(urls).toContain(url);
    const headerLine = JSON.parse(log.lines.find((l) => l.includes('"msg":"headers"')) ?? '{}') as {
      headers?: { authorization?: string };
      req?: { headers?: { authorization?: string } };
    };
    expect(headerLine.headers?.authorization).toBe('[REDACTED]');
  });

  it('LOG_FORMAT=pretty shows the same redacted values', async () => {
    const log = await logOfRequests('pretty');
    for (const line of log.lines) expect(() => JSON.parse(line) as unknown, line).toThrow();
    const text = log.lines.join('\n');
    for (const url of REDACTED_URLS) expect(text).toContain(` ${url}`);
    expect(log.lines.find((l) => / INFO +headers /.test(l))).toContain('headers={"authorization":"[REDACTED]"}');
  });
});
