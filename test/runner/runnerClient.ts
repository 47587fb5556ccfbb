// A runner.v1 client from the generated stubs over real HTTP (what act_runner does, in either encoding).
import type { AddressInfo } from 'node:net';
import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { PingService } from '../../src/runner/gen/ping/v1/services_pb.ts';
import { RunnerService } from '../../src/runner/gen/runner/v1/services_pb.ts';
import type { TestApp } from '../helpers/app.ts';

export type Encoding = 'binary' | 'json';

export interface RunnerClients {
  ping: Client<typeof PingService>;
  /** Calls with x-runner-uuid / x-runner-token when `as` is given. */
  runner(as?: { uuid: string; token: string }): Client<typeof RunnerService>;
}

/** The app's base URL, listening on a free port. */
export async function listenBase(t: TestApp): Promise<string> {
  if (!t.app.server.server.listening) await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}`;
}

export function runnerClients(base: string, encoding: Encoding): RunnerClients {
  const transport = (interceptors: Interceptor[] = []) =>
    createConnectTransport({ baseUrl: `${base}/api/actions`, httpVersion: '1.1', useBinaryFormat: encoding === 'binary', interceptors });
  return {
    ping: createClient(PingService, transport()),
    runner(as) {
      const auth: Interceptor = (next) => (req) => {
        if (as) {
          req.header.set('x-runner-uuid', as.uuid);
          req.header.set('x-runner-token', as.token);
        }
        return next(req);
      };
      return createClient(RunnerService, transport([auth]));
    },
  };
}

/**
 * A runner registered with the registration token `tokenPath` gives to `headers` (e.g. a repository's), and its
 * id and authenticated client.
 */
export async function registeredRunner(
  t: TestApp,
  base: string,
  opts: { tokenPath: string; headers: Record<string, string>; name: string; labels: string[]; encoding?: Encoding },
): Promise<{ id: number; client: Client<typeof RunnerService> }> {
  const res = await t.request('POST', `/api/v1${opts.tokenPath}`, { headers: opts.headers });
  if (res.statusCode !== 200) throw new Error(`registration token: ${res.statusCode} ${res.body}`);
  const c = runnerClients(base, opts.encoding ?? 'json');
  const { runner } = await c.runner().register({ name: opts.name, token: res.json<{ token: string }>().token, labels: opts.labels });
  return { id: Number(runner?.id), client: c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' }) };
}
