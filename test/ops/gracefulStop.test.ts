// SIGTERM to one `forgegraph serve` process: during SHUTDOWN_DELAY it serves as usual while only /readyz fails
// (issue 30, finding 9: the listener used to close at the signal, resetting clients on fresh connections); then
// it stops accepting, answers what it accepted, exits 0 and releases its port.
import http from 'node:http';
import { connect, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { PASSWORD } from '../helpers/app.ts';
import { PROVIDERS, type TestDatabase } from '../helpers/db.ts';
import { prepareServerDatabase, serverEnv } from '../helpers/serverDatabase.ts';
import { freePort, ServerProcess, until } from '../helpers/serverProcess.ts';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** One request; `agent: false` opens a fresh connection for it. */
function request(port: number, path: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.once('error', reject);
  });
}

/** Whether a TCP connection to the port is accepted now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether this process can listen on the port (the server released it). */
function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A generic package upload whose body is sent a chunk at a time until `finish()`; resolves with the answer. */
function slowUpload(port: number): { finish(): void; answer: Promise<Answer> } {
  let timer: NodeJS.Timeout | undefined;
  let req: http.ClientRequest | undefined;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: '/api/packages/alice/generic/slow/1.0.0/slow.bin',
        agent: false,
        headers: {
          authorization: `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`,
          'content-type': 'application/octet-stream',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      },
    );
    req.once('error', reject);
    req.write('first chunk\n');
    timer = setInterval(() => req?.write('another chunk\n'), 200);
  });
  answer.catch(() => undefined); // awaited later; a failure is reported there
  return {
    finish() {
      clearInterval(timer);
      req?.end('last chunk\n');
    },
    answer,
  };
}

describe.each(PROVIDERS)('graceful stop of one instance (%s)', (provider) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    ({ database, db } = await prepareServerDatabase(provider));
  });

  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  // The delay is generous for a loaded machine: the requests below must reach the server before it ends.
  it('serves fresh connections during SHUTDOWN_DELAY with /readyz failing, finishes accepted requests, exits and frees the port', async () => {
    const port = await freePort();
    const server = new ServerProcess(serverEnv(database, port, { LOG_LEVEL: 'info', SHUTDOWN_DELAY: '10s' }));
    try {
      await server.ready(port);
      expect((await request(port, '/readyz')).status).toBe(200);
      const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
      expect((await request(port, '/api/v1/version', keepAlive)).connection).toBe('keep-alive');
      const upload = slowUpload(port);

      server.signal('SIGTERM');
      await until(() => server.output.join('').includes('SIGTERM: shutting down'), 60_000, 'the shutdown to begin');

      // The balancer's view: not ready. Everyone else's: served as usual, on fresh connections and kept-alive ones.
      const readyz = await request(port, '/readyz');
      expect(readyz.status).toBe(503);
      expect(JSON.parse(readyz.body)).toMatchObject({ status: 'fail', checks: { draining: 'shutting down' } });
      const fresh = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => request(port, i % 2 ? '/api/v1/version' : '/api/v1/repos/search?q=x')),
      );
      expect(fresh.map((r) => (r.status === 'fulfilled' ? r.value.status : String(r.reason)))).toEqual(Array(8).fill(200));
      const reused = await request(port, '/api/v1/version', keepAlive);
      expect(reused.status).toBe(200);
      expect(reused.connection).toBe('close'); // the client opens its next connection elsewhere
      keepAlive.destroy();

      // After the delay the listener closes; the upload accepted before still gets its answer.
      await until(async () => !(await accepts(port)), 60_000, 'the listener to close');
      expect(server.exitCode()).toBeNull();
      upload.finish();
      expect((await upload.answer).status).toBe(201);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(await free(port)).toBe(true);
      expect(server.output.join('')).toContain('shutdown complete');
    } finally {
      await server.stop();
    }
  });
});
