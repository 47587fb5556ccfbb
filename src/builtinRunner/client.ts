// The runner protocol client: Connect over HTTP/1.1 with binary protobuf, as act_runner speaks it.
import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { PingService } from '../runner/gen/ping/v1/services_pb.ts';
import { RunnerService } from '../runner/gen/runner/v1/services_pb.ts';

export type RunnerClient = Client<typeof RunnerService>;

/** The version the runner reports (Register, Declare and GITEA_ACTIONS_RUNNER_VERSION). */
export const RUNNER_VERSION = 'forgegraph-runner-0.1.0';

function transport(address: string, interceptors: Interceptor[] = []) {
  return createConnectTransport({ baseUrl: `${address}/api/actions`, httpVersion: '1.1', useBinaryFormat: true, interceptors });
}

/** A RunnerService client; with `as`, every call carries the runner's uuid and token. */
export function runnerClient(address: string, as?: { uuid: string; token: string }): RunnerClient {
  const auth: Interceptor = (next) => (req) => {
    if (as) {
      req.header.set('x-runner-uuid', as.uuid);
      req.header.set('x-runner-token', as.token);
    }
    return next(req);
  };
  return createClient(RunnerService, transport(address, [auth]));
}

/** Ping: says whether the address speaks the runner protocol. @throws ConnectError */
export async function ping(address: string, data: string): Promise<string> {
  return (await createClient(PingService, transport(address)).ping({ data })).data;
}
