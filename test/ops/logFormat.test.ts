import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type LogFormat } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/** A log destination that keeps every line. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

describe('LOG_FORMAT', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'forgegraph-logformat-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const formatOf = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, SECRET_KEY: 'test-secret', ...env }).logFormat;

  it('pretty or json; unset, pretty on a terminal and json otherwise (a service manager, a pipe, a log shipper)', () => {
    expect(formatOf({ LOG_FORMAT: 'pretty' })).toBe('pretty');
    expect(formatOf({ LOG_FORMAT: 'json' })).toBe('json');
    expect(() => formatOf({ LOG_FORMAT: 'text' })).toThrow('LOG_FORMAT must be pretty or json, got "text"');
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    try {
      for (const [isTTY, expected] of [
        [true, 'pretty'],
        [false, 'json'],
      ] as const) {
        Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
        expect(formatOf({})).toBe(expected);
        expect(formatOf({ LOG_FORMAT: '' })).toBe(expected);
        expect(formatOf({ LOG_FORMAT: 'json', NODE_ENV: 'production' })).toBe('json');
      }
    } finally {
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    }
  });
});

describe.each(PROVIDERS)('server log lines by LOG_FORMAT (%s)', (provider) => {
  let t: TestApp;
  const apps: App[] = [];

  beforeAll(async () => {
    t = await startTestApp(provider);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t?.close();
  });

  /** The lines an app logging in `format` writes for one request, one message with fields and one error. */
  async function logOf(format: LogFormat): Promise<string[]> {
    const log = new LogCapture();
    const app = await buildApp({ ...t.config, logFormat: format }, { db: t.db, logStream: log });
    apps.push(app);
    await app.server.ready();
    expect((await app.server.inject({ method: 'GET', url: '/api/v1/version' })).statusCode).toBe(200);
    app.server.log.warn({ repo: 'alice/app', attempts: 3 }, 'webhook delivery failed');
    app.server.log.error({ err: new Error('disk full') }, 'mirror sync failed');
    return log.lines;
  }

  it('json: every line is one JSON object carrying the message', async () => {
    const lines = await logOf('json');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => e.msg)).toEqual(['incoming request', 'request completed', 'webhook delivery failed', 'mirror sync failed']);
    expect(entries[2]).toMatchObject({ level: 40, repo: 'alice/app', attempts: 3 });
    expect(entries[3]).toMatchObject({ level: 50, err: { message: 'disk full' } });
  });

  it('pretty: human lines (time, level, message, request, fields), the error stack below, no JSON', async () => {
    const lines = await logOf('pretty');
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).toThrow();
    const time = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}`;
    expect(lines[0]).toMatch(new RegExp(`^${time} INFO  incoming request GET /api/v1/version reqId=\\S+$`));
    expect(lines[1]).toMatch(new RegExp(`^${time} INFO  request completed 200 \\d+\\.\\d ms reqId=\\S+$`));
    expect(lines[2]).toMatch(new RegExp(`^${time} WARN  webhook delivery failed repo=alice/app attempts=3$`));
    expect(lines[3]).toMatch(new RegExp(`^${time} ERROR mirror sync failed$`));
    expect(lines[4]).toBe('    Error: disk full');
    expect(lines[5]).toMatch(/^ {8}at /);
    // A capture is no terminal: no color codes.
    expect(lines.join('\n')).not.toContain('\u001b[');
  });
});
