// SIGTERM to one `forgegraph serve` process: during SHUTDOWN_DELAY it serves as usual while only /readyz fails
// (issue 30, finding 9: the listener used to close at the signal, resetting clients on fresh connections); then
// it stops accepting, answers what it accepted, exits 0 and releases its port.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { serverDatabaseForSuite, serverEnv } from '../helpers/serverDatabase.ts';
import { accepts, freePort, portFree, ServerProcess, slowUpload, until, type Answer } from '../helpers/serverProcess.ts';

/** One GET; `agent: false` opens a fresh connection for it. */
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

describe.each(PROVIDERS)('graceful stop of one instance (%s)', (provider) => {
  const suite = serverDatabaseForSuite(provider);

  it('serves fresh connections during SHUTDOWN_DELAY with /readyz failing, finishes accepted requests, exits and frees the port', async () => {
    const port = await freePort();
    const server = new ServerProcess(serverEnv(suite.database, port, { LOG_LEVEL: 'info', SHUTDOWN_DELAY: '10s' }));
    try {
      await server.ready(port);
      expect((await request(port, '/readyz')).status).toBe(200);
      const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
      expect((await request(port, '/api/v1/version', keepAlive)).connection).toBe('keep-alive');
      const upload = slowUpload(port, 'graceful.bin', 'alice', PASSWORD);

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
      expect(await portFree(port)).toBe(true);
      expect(server.output.join('')).toContain('shutdown complete');
    } finally {
      await server.stop();
    }
  });
});
