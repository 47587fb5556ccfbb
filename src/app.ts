import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { createDb, prepareDb, type Db, type QueryEvent } from './db/client.ts';
import { startWalCheckpointer } from './db/walCheckpointer.ts';
import { RepoLocks } from './db/repoLocks.ts';
import { pendingMigrations } from './db/migrationsApplied.ts';
import { Metrics } from './ops/metrics.ts';
import { mountOps, type OpsState } from './ops/plugin.ts';
import { currentRequest } from './ops/requestContext.ts';
import { readQueueState } from './jobs/queueState.ts';
import { gitHttp } from './githttp/plugin.ts';
import { packageRegistries } from './packages/plugin.ts';
import { oauthProvider } from './oauth/plugin.ts';
import { mountGraphql } from './graphql/server.ts';
import { githubApi } from './githubapi/plugin.ts';
import { CronScheduler } from './jobs/cronScheduler.ts';
import { JobWorker } from './jobs/worker.ts';
import { activitySubscriber } from './notify/activity.ts';
import { mentionSubscriber } from './notify/mentions.ts';
import { notificationOutbox } from './notify/notificationJob.ts';
import { notificationJobHandler } from './services/notification/fanOut.ts';
import { autoWatchSubscriber } from './services/watch/autoWatch.ts';
import { manualMergeFollowUp } from './services/pull/manualMerge.ts';
import { Notifier } from './notify/notifier.ts';
import { refreshBaseJobHandler, refreshPullsFollowUp } from './services/pull/refresh.ts';
import { openApiDocument, restApi, API_BODY_LIMIT } from './rest/plugin.ts';
import { createSystemContext, type AppDeps, type ServiceContext } from './services/context.ts';
import { cronTasks } from './services/cron/tasks.ts';
import { pushJobHandler } from './services/repo/pushJob.ts';
import { wikiEventHandler } from './services/wiki/wikiEvent.ts';
import { autoMergeHandler } from './services/pull/autoMerge.ts';
import { commitStatusEventHandler } from './services/status/statusEvent.ts';
import { mergePullRequest } from './services/pull/merge.ts';
import { deliverHandler } from './webhooks/deliver.ts';
import { prepareHandler } from './webhooks/prepare.ts';
import { webhookSubscriber } from './webhooks/subscriber.ts';
import { liveSubscriber } from './notify/live.ts';
import { LiveBus } from './notify/liveBus.ts';
import { createLiveTarget } from './notify/liveTarget.ts';
import { readInstallation } from './db/installation.ts';
import { issueReferencesFollowUp } from './services/issue/commitRefs.ts';
import { xrefJobHandler, xrefTxSubscriber } from './services/issue/xrefJobs.ts';
import { clientErrorHandler, frameworkErrorHandler, rootErrorHandler, rootNotFoundHandler } from './rest/frameworkErrors.ts';
import { mountAvatars } from './rest/avatarFiles.ts';
import { LoginThrottle } from './auth/loginThrottle.ts';
import { redisLimiters } from './auth/redisLimiter.ts';
import { OAuthKeys } from './auth/oauthKeys.ts';
import { TokenCache } from './auth/tokenCache.ts';
import { authInvalidation } from './db/authInvalidation.ts';
import { createReadPath, registerReadPath } from './db/readPath.ts';
import { reportAuthWrites } from './db/authWrites.ts';
import { loggerOptions } from './logger.ts';
import { lazySchemaCompilers } from './lazyPackage.ts';
import { mountLanding } from './web/landing.ts';
import { downloadRoutes } from './rest/downloads.ts';
import { attachmentSweepSubscriber } from './services/attachment/orphans.ts';
import { actionsFilesSweepSubscriber } from './services/actions/orphanFiles.ts';
import { releaseTagSyncFollowUp } from './services/release/tagSync.ts';
import { mountSwaggerUi } from './web/swaggerUi.ts';
import { mountWebFiles } from './rest/webFiles.ts';
import { artifactService } from './runner/artifacts.ts';
import { ARTIFACT_V4_BASE } from './services/actions/artifactsV4.ts';
import { runnerProtocol } from './runner/plugin.ts';
import { actionsPushFollowUp } from './services/actions/pushTrigger.ts';
import { licenseFollowUp, licenseJobHandler } from './services/repo/licenseJob.ts';
import { repoUpkeepJobHandler } from './services/repo/upkeepJob.ts';
import { seedInstanceRegistrationToken } from './services/actions/registrationTokens.ts';
import { actionsTriggerHandler, actionsTriggerSubscriber } from './services/actions/eventTriggers.ts';
import { migrateJobHandler } from './services/migration/migrateJob.ts';
import { mirrorSyncHandler } from './services/migration/mirrorSync.ts';
import { pushMirrorFollowUp, pushMirrorHandler } from './services/migration/pushMirror.ts';
import type { HostKey } from './ssh/hostKeys.ts';
import type { SshServer } from './ssh/server.ts';

/** How long a connection accepted just before the listener closed may take to send its request. */
const FRESH_CONNECTION_GRACE_MS = 1000;

/**
 * Closes the listener and waits for the requests already accepted. Connections waiting in the listen backlog are
 * accepted and their requests read first (two turns of the event loop): the kernel resets those still there when
 * the listener closes. Node's close() also closes at once every connection with no request in progress, those
 * accepted a moment ago whose request is still on its way included (their clients would read a reset): idle
 * connections are closed only after FRESH_CONNECTION_GRACE_MS. Busy ones close after their answer (src/ops/plugin.ts).
 */
async function closeServer(server: FastifyInstance): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  const http = server.server;
  const closeIdle = http.closeIdleConnections;
  http.closeIdleConnections = () => undefined;
  const grace = setTimeout(() => closeIdle.call(http), FRESH_CONNECTION_GRACE_MS);
  try {
    await server.close();
  } finally {
    clearTimeout(grace);
    http.closeIdleConnections = closeIdle;
  }
}

/** The built application: the HTTP server (not listening) and its dependencies. */
export interface App {
  server: FastifyInstance;
  deps: AppDeps;
  /** The durable job worker (deps.jobs); `drain()` runs what is runnable now. */
  jobs: JobWorker;
  /** The cron scheduler (state in the CronTask table). */
  cron: CronScheduler<ServiceContext>;
  /** Metrics and the draining flag (graceful shutdown). */
  ops: OpsState;
  /** Loads the GraphQL stack ahead of the first request (it is imported lazily). */
  warmUp(): Promise<void>;
  /** Starts the background work `serve` runs: the job worker (JOBS_WORKER) and the cron scheduler (CRON_ENABLED). */
  startBackground(): Promise<void>;
  /**
   * Starts the built-in SSH server when the settings ask for it (START_SSH_SERVER or SSH_LISTEN_PORT, not
   * DISABLE_SSH), with the host keys of <DATA_DIR>/ssh (generated on the first start): its address and keys, or null.
   */
  listenSsh(): Promise<{ address: AddressInfo; hostKeys: HostKey[] } | null>;
  /**
   * Graceful stop: /readyz fails at once while requests are served as usual for `delayMs` (answers then carry
   * `Connection: close`), so a balancer stops routing here first; then the listener closes, requests already
   * accepted are answered (SSH connections close once their git commands finished), and the scheduler and the
   * worker finish or release their work.
   */
  close(delayMs?: number): Promise<void>;
}

export interface BuildAppOptions {
  /** Reuse an existing client (tests share one per suite); otherwise one is created from the config. */
  db?: Db;
  onQuery?: (e: QueryEvent) => void;
  logger?: boolean;
  /** Where log lines go (JSON per line); implies `logger`. Tests capture the log with it. */
  logStream?: NodeJS.WritableStream;
  /** The failed sign-in counters; by default in this process's memory from `config.loginThrottle`. */
  loginThrottle?: LoginThrottle;
}

/** Builds Fastify with the REST API, the GraphQL endpoint and the misc routes. Never listens. */
export async function buildApp(config: Config, opts: BuildAppOptions = {}): Promise<App> {
  const ownsDb = !opts.db;
  // Statements are counted per request (metrics) on the app's own client.
  const countStatement = (e: QueryEvent) => {
    const request = currentRequest();
    if (request) request.statements++;
    opts.onQuery?.(e);
  };
  const baseDb =
    opts.db ??
    (await createDb({
      provider: config.dbProvider,
      url: config.databaseUrl,
      onQuery: countStatement,
      lockWaitMs: config.transactionTimeoutMs,
    }));
  if (ownsDb) await prepareDb(baseDb, config.dbProvider);
  // Namespaces what this process publishes outside itself (Redis, PostgreSQL advisory locks).
  const installation = await readInstallation(baseDb);
  const authChanges = authInvalidation(config.dbProvider, config.databaseUrl, (err) =>
    server.log.warn({ err }, 'token cache listener lost'),
  );
  const tokenCache = new TokenCache(authChanges);
  const db = reportAuthWrites(baseDb, () => tokenCache.invalidate());
  const reads = createReadPath(config.dbProvider, config.databaseUrl, countStatement);
  registerReadPath(db, reads);
  const server = Fastify({
    logger: opts.logger || opts.logStream ? loggerOptions(config.logLevel, opts.logStream, config.logFormat) : false,
    // Git and API clients send paths like /api/v1/repos/o/r/contents/a%2Fb; keep them routable.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustProxy,
    // A request id from the balancer (X-Request-Id) is kept; otherwise one is made. Both are answered and logged.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Errors raised before a route runs answer in Gitea's {"message","url"} shape too.
    frameworkErrors: frameworkErrorHandler(config.rootUrl),
    clientErrorHandler: clientErrorHandler(config.rootUrl),
    // Closing, a request that arrives on a connection accepted before is answered (with Connection: close), not 503.
    return503OnClosing: false,
    // No route declares a JSON schema: ajv and fast-json-stringify are loaded only if one ever does.
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
  server.setErrorHandler(rootErrorHandler(config));
  server.setNotFoundHandler(rootNotFoundHandler(config.rootUrl));
  const notifier = new Notifier((subscriber, event, err) =>
    server.log.error({ err, subscriber, event: event.type }, 'event subscriber failed'),
  );
  const jobs = new JobWorker(db, config.dbProvider, config.jobs, server.log);
  const checkpointer = ownsDb
    ? startWalCheckpointer(baseDb, { onError: (err) => server.log.warn({ err }, 'SQLite checkpoints back on the server thread') })
    : null;
  const liveTarget = createLiveTarget(config.redisUrl, (err) => server.log.warn({ err }, 'live events: Redis connection error'));
  const live = new LiveBus({ target: liveTarget.target, namespace: installation.namespace, listening: liveTarget.listening });
  // Failed sign-in counters: shared through Redis when the instances have one, else in this process.
  const throttleStore =
    config.redisUrl && !opts.loginThrottle
      ? redisLimiters(config.redisUrl, installation.namespace, (err) => server.log.warn({ err }, 'login throttle: Redis connection error'))
      : null;
  const repoLocks = new RepoLocks(config.dbProvider, config.databaseUrl, {
    lockClass: installation.lockClass,
    waitMs: config.repoLockTimeoutMs,
  });
  const metrics = new Metrics(() => readQueueState(db));
  repoLocks.observe(({ waitedMs, heldMs }) => {
    metrics.repoLockWait.observe(waitedMs / 1000);
    metrics.repoLockHeld.observe(heldMs / 1000);
  });
  const ops: OpsState = { metrics, draining: false };
  const deps: AppDeps = {
    db,
    config,
    notifier,
    jobs,
    live,
    repoLocks,
    loginThrottle: opts.loginThrottle ?? new LoginThrottle(config.loginThrottle, throttleStore?.factory),
    tokenCache,
    oauthKeys: new OAuthKeys(db, config.secretKey),
  };
  notifier.subscribe(activitySubscriber(db));
  notifier.subscribe(mentionSubscriber(db));
  // Notification threads: a fan-out job written in the emitting transaction, run by the worker.
  notifier.subscribeInTransaction(notificationOutbox());
  notifier.subscribeInTransaction(autoWatchSubscriber());
  jobs.register(notificationJobHandler(deps));
  notifier.subscribe(attachmentSweepSubscriber(db, config.attachments));
  notifier.subscribe(actionsFilesSweepSubscriber(db, config.dataDir));
  // Webhooks: events become prepare jobs in their transaction; prepare writes the deliveries, deliver sends them.
  notifier.subscribeInTransaction(webhookSubscriber(config));
  jobs.register(prepareHandler(deps));
  jobs.register(deliverHandler(db, config, (outcome) => metrics.webhookDeliveries.inc({ outcome })));
  notifier.subscribe(liveSubscriber(live));
  notifier.subscribeInTransaction(xrefTxSubscriber(config.rootUrl));
  jobs.register(xrefJobHandler(deps));
  // Actions: pull request, issue and release events start workflows through a job written in their transaction.
  notifier.subscribeInTransaction(actionsTriggerSubscriber());
  jobs.register(actionsTriggerHandler(deps));
  jobs.register(commitStatusEventHandler(deps));
  jobs.register(wikiEventHandler(deps));
  jobs.register(
    autoMergeHandler(deps, (cx, ref, index, plan) =>
      mergePullRequest(
        cx,
        ref,
        index,
        {
          do: plan.style,
          mergeTitleField: plan.message,
          deleteBranchAfterMerge: plan.deleteBranchAfterMerge,
          authorEmail: plan.authorEmail,
        },
        { auto: true },
      ),
    ),
  );
  // After a push's rows: pull request heads and stats first, then merges made outside the API, then references and
  // closing keywords of the pushed commits, then the release rows of pushed tags.
  jobs.register(
    pushJobHandler(deps, [
      refreshPullsFollowUp,
      manualMergeFollowUp,
      issueReferencesFollowUp,
      releaseTagSyncFollowUp,
      actionsPushFollowUp,
      pushMirrorFollowUp,
      licenseFollowUp,
    ]),
  );
  jobs.register(refreshBaseJobHandler(deps));
  jobs.register(licenseJobHandler(deps));
  jobs.register(repoUpkeepJobHandler(deps));
  // Migrations, pull mirror syncs and push mirrors (services/migration).
  jobs.register(migrateJobHandler(deps));
  jobs.register(mirrorSyncHandler(deps));
  jobs.register(pushMirrorHandler(deps));
  const cron = new CronScheduler(
    db,
    cronTasks(config),
    () => createSystemContext(deps),
    { leaseMs: config.jobs.leaseMs, shutdownTimeoutMs: config.jobs.shutdownTimeoutMs },
    server.log,
  );

  let migrated = false;
  mountOps(server, ops, {
    database: async () => void (await db.$queryRawUnsafe('SELECT 1')),
    // Once every migration of this build is applied it stays so: later checks skip the read.
    async pendingMigrations() {
      if (migrated) return [];
      const pending = await pendingMigrations(db, config.dbProvider);
      migrated = pending.length === 0;
      return pending;
    },
  });
  await server.register(async (api) => restApi(api, deps), { prefix: '/api/v1' });
  await server.register(async (api) => githubApi(api, deps), { prefix: '/api/v3' });
  await server.register(async (git) => gitHttp(git, deps));
  await server.register(async (downloads) => downloadRoutes(downloads, deps));
  await server.register(async (registries) => packageRegistries(registries, deps), { prefix: '/api/packages' });
  await server.register(async (runners) => runnerProtocol(runners, deps), { prefix: '/api/actions' });
  await server.register(async (artifacts) => artifactService(artifacts, deps), { prefix: `/${ARTIFACT_V4_BASE}` });
  if (config.oauth2.enabled) await server.register(async (oauth) => oauthProvider(oauth, deps));
  if (config.runnerRegistrationToken) await seedInstanceRegistrationToken(createSystemContext(deps), config.runnerRegistrationToken);
  const graphql = mountGraphql(server, deps);

  // Built on the first request (then kept), not at start: converting every route's zod schemas took ~0.1 s of each start.
  server.get('/swagger.v1.json', async () => openApiDocument(deps));
  mountSwaggerUi(server, config);
  mountLanding(server, config);
  mountWebFiles(server, deps);
  server.get('/api/v1/swagger', async (_req, reply) => reply.redirect('/api/swagger', 303));
  server.get('/api/healthz', async (_req, reply) => {
    const time = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    let status: 'pass' | 'fail' = 'pass';
    try {
      await db.$queryRawUnsafe('SELECT 1');
    } catch {
      status = 'fail';
    }
    reply.code(status === 'pass' ? 200 : 424).type('application/json');
    return JSON.stringify({ status, description: config.appName, checks: { 'database:ping': [{ status, time }] } }, null, 2);
  });
  mountAvatars(server, config.avatars);

  let ssh: SshServer | null = null;
  return {
    server,
    deps,
    jobs,
    cron,
    warmUp: () => graphql.warmUp(),
    async startBackground() {
      if (config.jobs.worker) jobs.start();
      if (config.cron.enabled) await cron.start();
    },
    ops,
    async listenSsh() {
      if (!config.ssh.startServer) return null;
      if (ssh) throw new Error('the SSH server is already listening');
      // Imported here: ssh2 is loaded only by servers that run SSH (~70 ms of each start otherwise).
      const [{ loadHostKeys }, { SshServer }] = await Promise.all([import('./ssh/hostKeys.ts'), import('./ssh/server.ts')]);
      const hostKeys = await loadHostKeys(config.ssh.hostKeyDir);
      ssh = new SshServer(deps, config.ssh, hostKeys, server.log.child({ component: 'ssh' }));
      return { address: await ssh.listen(), hostKeys };
    },
    async close(delayMs = 0) {
      // Readiness fails first and the balancer gets `delayMs` to notice; then requests (git operations included)
      // finish, then background work.
      ops.draining = true;
      if (delayMs > 0) await sleep(delayMs);
      live.close();
      await Promise.all([closeServer(server), ssh?.close()]);
      await cron.stop();
      await jobs.stop();
      await notifier.drain();
      await authChanges.close();
      await reads.close();
      await repoLocks.close();
      await liveTarget.close();
      await throttleStore?.close();
      await checkpointer?.close();
      if (ownsDb) await baseDb.$disconnect();
    },
  };
}
