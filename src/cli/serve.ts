// `forgegraph serve`: migrations, the app on its port, background work, and the graceful stop on SIGTERM/SIGINT/SIGHUP.
import { adaptHeap } from '../bin/heapShape.js';
import { describeDatabase, loadConfig } from '../config.ts';
import { formatDuration } from '../jobs/duration.ts';
import { firstAdminHint } from './firstAdmin.ts';
import { migrate } from './system.ts';

/** Signals that arrive this soon after the first are the same stop (Ctrl-C reaches `npm start` and its server both). */
const SAME_STOP_MS = 1000;

export async function serve(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const applied = await migrate(config);
  const { buildApp } = await import('../app.ts');
  const app = await buildApp(config, { logger: true });
  const log = app.server.log;
  if (applied.length) log.info({ applied }, `applied ${applied.length} database migration(s)`);
  await app.server.listen({ port: config.port, host: config.host });
  const ssh = await app.listenSsh().catch((err: unknown) => {
    throw new Error(
      `the SSH server cannot listen on ${config.ssh.listenHost}:${config.ssh.listenPort} (SSH_LISTEN_HOST, SSH_LISTEN_PORT)`,
      {
        cause: err,
      },
    );
  });
  await app.startBackground();
  // GraphQL loads at its first request (~0.3 s once; idle RSS ~18 MB lower while nobody asks), or now with
  // GRAPHQL_PRELOAD. The heap is shaped for the long run once the start's work is done (src/bin/heapShape.js).
  if (config.graphqlPreload) {
    void app
      .warmUp()
      .catch((err: unknown) => log.error({ err }, 'GraphQL failed to load'))
      .finally(adaptHeap);
  } else {
    adaptHeap();
  }
  const ms = Math.round(performance.now() - started);
  const sshLine = ssh
    ? `, SSH on ${ssh.address.address}:${ssh.address.port} with host keys ${ssh.hostKeys.map((k) => k.fingerprint).join(', ')}`
    : '';
  log.info(
    `Forgegraph ${config.packageVersion} ready in ${ms} ms: ${config.rootUrl} (REST ${config.rootUrl}api/v1, GraphQL ${config.rootUrl}api/graphql, git ${config.rootUrl}{owner}/{repo}.git${sshLine}); database ${describeDatabase(config)}, data in ${config.dataDir}`,
  );
  if ((await app.deps.db.user.count({ where: { type: 'INDIVIDUAL' } })) === 0) process.stdout.write(firstAdminHint(config));
  // Graceful stop: /readyz fails while requests are still served for SHUTDOWN_DELAY (the balancer takes the instance
  // out of rotation meanwhile); then the listener closes, requests and git operations already accepted finish, and
  // the scheduler and the workers finish or release their work. A second signal (a second later or more) ends it at once.
  let stopping = 0;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      if (performance.now() - stopping < SAME_STOP_MS) return;
      log.error(`${signal} again: exiting without finishing`);
      process.exit(1);
    }
    stopping = performance.now();
    log.info(
      `${signal}: shutting down: /readyz fails; requests are served for ${formatDuration(config.shutdownDelayMs)} (SHUTDOWN_DELAY), then the listener closes and requests, git operations and jobs in flight finish`,
    );
    const force = setTimeout(
      () => {
        log.error('shutdown timed out; exiting');
        process.exit(1);
      },
      config.shutdownDelayMs + config.jobs.shutdownTimeoutMs + 30_000,
    );
    force.unref();
    await app.close(config.shutdownDelayMs);
    log.info('shutdown complete');
    process.exit(0);
  };
  // SIGHUP (a closed terminal, or the whole process group told to hang up) stops gracefully too, instead of Node's
  // default of exiting at once mid-request.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, (s) => void stop(s));
}
