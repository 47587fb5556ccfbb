import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One request a receiver got. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A real HTTP server on loopback that records webhook deliveries. `statuses` are answered in turn (then 200),
 * so a test can make the first attempts fail.
 */
export class HookReceiver {
  readonly received: Received[] = [];
  statuses: number[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HookReceiver> {
    let self: HookReceiver | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        self?.received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const status = self?.statuses.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'text/plain', 'x-receiver': 'yes' });
        res.end(status < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new HookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    return self;
  }

  /** Deliveries of one event type (X-Gitea-Event-Type). */
  of(eventType: string): Received[] {
    return this.received.filter((r) => r.headers['x-gitea-event-type'] === eventType);
  }

  /** Waits until `check` holds, running `tick` (e.g. the job worker's drain) between looks. */
  async until(check: () => boolean, tick: () => Promise<void>, ms = 20_000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      await tick();
      if (check()) return;
      if (Date.now() > end) throw new Error(`timed out; received: ${this.received.map((r) => r.headers['x-gitea-event-type']).join(', ')}`);
      await sleep(50);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A JSON document (a payload, an API answer) as tests read it. */
export interface Doc {
  [key: string]: Doc | Doc[] | string | number | boolean | null;
}
