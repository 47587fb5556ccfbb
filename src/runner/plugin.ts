// The runner protocol at /api/actions (Gitea routers/api/actions/actions.go): Connect (and gRPC, gRPC-Web) with
// binary protobuf or JSON, for act_runner and Forgegraph's own runner.
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import type { FastifyInstance } from 'fastify';
import { createSystemContext, type AppDeps } from '../services/context.ts';
import { domainErrors } from './errors.ts';
import { PingService } from './gen/ping/v1/services_pb.ts';
import { RunnerService } from './gen/runner/v1/services_pb.ts';
import { runnerService } from './runnerService.ts';

/** A log batch of the runner is at most a few MiB; this bounds what one call may send. */
const READ_MAX_BYTES = 32 * 1024 * 1024;

/** Mounts the services (call inside a plugin registered with prefix `/api/actions`). */
export async function runnerProtocol(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const cx = createSystemContext(deps);
  await app.register(fastifyConnectPlugin, {
    interceptors: [domainErrors],
    readMaxBytes: READ_MAX_BYTES,
    // Gitea's connect-go compresses answers of 1 KiB or more for clients that accept gzip.
    compressMinBytes: 1024,
    routes(router) {
      router.service(PingService, { ping: (req) => ({ data: `Hello, ${req.data}!` }) });
      router.service(RunnerService, runnerService(cx));
    },
  });
}
