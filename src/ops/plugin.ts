import { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.ts';
import { runInRequest, type RequestContext } from './requestContext.ts';

/** What readiness checks: each throws (or returns a reason) when the instance must not get traffic. */
export interface ReadinessChecks {
  /** A round trip to the database. */
  database(): Promise<void>;
  /** The migrations of this build not yet applied (empty when ready). */
  pendingMigrations(): Promise<string[]>;
}

/** The operations surface of one instance: whether it drains (SIGTERM), and its metrics. */
export interface OpsState {
  metrics: Metrics;
  /** True from the start of a graceful shutdown: /readyz fails so the balancer stops sending requests; answers close their connection. */
  draining: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The git smart-HTTP operation a route serves (src/githttp/plugin.ts), for the git duration histogram. */
    gitOperation?: 'upload-pack' | 'receive-pack' | 'advertisement';
  }
}

/** The git service a request ran (for the git duration histogram), or null: its route says; info/refs names it in its query. */
function gitService(req: FastifyRequest): string | null {
  const operation = req.routeOptions.config.gitOperation;
  if (operation !== 'advertisement') return operation ?? null;
  const q = /[?&]service=git-(upload-pack|receive-pack)/.exec(req.url);
  return q ? `${q[1]}-advertisement` : null;
}

/**
 * Request ids (X-Request-Id in and out; every log line of the request carries it, see src/logger.ts), request
 * metrics measured when the response is finished (hijacked git responses included), and the endpoints
 * `/metrics` (Prometheus text), `/healthz` (liveness: the process serves) and `/readyz` (readiness: database
 * reachable, migrations applied, not draining).
 */
export function mountOps(server: FastifyInstance, state: OpsState, checks: ReadinessChecks): void {
  const { metrics } = state;
  server.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    // Draining: answered as usual, but the client (or balancer) opens its next connection elsewhere.
    if (state.draining) reply.raw.setHeader('Connection', 'close');
    const context: RequestContext = { reqId: req.id, statements: 0 };
    const started = performance.now();
    // `on`, not `once`: a response closes once, and `once` wraps the listener on every request.
    reply.raw.on('close', () => {
      // Draining, a kept-alive connection that was busy when the drain began is closed once it has answered
      // (Node would keep it open, idle, for the keep-alive timeout after the listener closed).
      if (state.draining && req.raw.socket instanceof Socket) req.raw.socket.end();
      const route = req.routeOptions.url ?? 'unmatched';
      const seconds = (performance.now() - started) / 1000;
      metrics.requestDuration.observe({ method: req.method, route, status_code: String(reply.raw.statusCode) }, seconds);
      metrics.statementsPerRequest.observe({ route }, context.statements);
      const service = gitService(req);
      if (service) metrics.gitDuration.observe({ service }, seconds);
    });
    runInRequest(context, done);
  });

  server.get('/metrics', async (_req, reply) => {
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
  server.get('/healthz', async (_req, reply) => reply.type('application/json').send({ status: 'pass' }));
  server.get('/readyz', async (_req, reply) => {
    const failures: Record<string, string> = {};
    if (state.draining) failures.draining = 'shutting down';
    try {
      await checks.database();
      const pending = await checks.pendingMigrations();
      if (pending.length) failures.migrations = `${pending.length} pending: ${pending.join(', ')}`;
    } catch (err) {
      failures.database = err instanceof Error ? err.message : String(err);
    }
    const ok = Object.keys(failures).length === 0;
    return reply
      .code(ok ? 200 : 503)
      .type('application/json')
      .send({ status: ok ? 'pass' : 'fail', checks: failures });
  });
}
