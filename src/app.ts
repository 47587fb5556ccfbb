import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { createDb, prepareDb, type Db, type QueryEvent } from './db/client.ts';
import { gitHttp } from './githttp/plugin.ts';
import { mountGraphql } from './graphql/server.ts';
import { activitySubscriber } from './notify/activity.ts';
import { mentionSubscriber } from './notify/mentions.ts';
import { manualMergeSubscriber } from './services/pull/manualMerge.ts';
import { Notifier } from './notify/notifier.ts';
import { pullRefreshSubscriber } from './services/pull/refresh.ts';
import { clientErrorHandler, frameworkErrorHandler, rootErrorHandler, rootNotFoundHandler } from './rest/frameworkErrors.ts';
import { API_BODY_LIMIT, openApiDocument, restApi } from './rest/plugin.ts';
import type { AppDeps } from './services/context.ts';
import { renderIdenticon } from './rest/avatar.ts';

/** The built application: the HTTP server (not listening) and its dependencies. */
export interface App {
  server: FastifyInstance;
  deps: AppDeps;
  /** Loads the GraphQL stack ahead of the first request (it is imported lazily). */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

export interface BuildAppOptions {
  /** Reuse an existing client (tests share one per suite); otherwise one is created from the config. */
  db?: Db;
  onQuery?: (e: QueryEvent) => void;
  logger?: boolean;
}

/** Builds Fastify with the REST API, the GraphQL endpoint and the misc routes. Never listens. */
export async function buildApp(config: Config, opts: BuildAppOptions = {}): Promise<App> {
  const ownsDb = !opts.db;
  const db = opts.db ?? createDb({ provider: config.dbProvider, url: config.databaseUrl, onQuery: opts.onQuery });
  if (ownsDb) await prepareDb(db, config.dbProvider);
  const server = Fastify({
    logger: opts.logger ? { level: config.logLevel } : false,
    // Git and API clients send paths like /api/v1/repos/o/r/contents/a%2Fb; keep them routable.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    bodyLimit: API_BODY_LIMIT,
    trustProxy: true,
    // Errors raised before a route runs answer in Gitea's {"message","url"} shape too.
    frameworkErrors: frameworkErrorHandler(config.rootUrl),
    clientErrorHandler: clientErrorHandler(config.rootUrl),
  });
  server.setErrorHandler(rootErrorHandler(config));
  server.setNotFoundHandler(rootNotFoundHandler(config.rootUrl));
  const notifier = new Notifier((subscriber, event, err) =>
    server.log.error({ err, subscriber, event: event.type }, 'event subscriber failed'),
  );
  const deps: AppDeps = { db, config, notifier };
  notifier.subscribe(activitySubscriber(db, config));
  notifier.subscribe(mentionSubscriber(db));
  notifier.subscribe(pullRefreshSubscriber(deps));
  notifier.subscribe(manualMergeSubscriber(deps));

  await server.register(async (api) => restApi(api, deps), { prefix: '/api/v1' });
  await server.register(async (git) => gitHttp(git, deps));
  const graphql = mountGraphql(server, deps);

  const swagger = openApiDocument(deps);
  server.get('/api/swagger', async () => swagger);
  server.get('/swagger.v1.json', async () => swagger);
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
  server.get<{ Params: { hash: string } }>('/avatars/:hash', async (req, reply) => {
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400');
    return renderIdenticon(req.params.hash);
  });

  return {
    server,
    deps,
    warmUp: () => graphql.warmUp(),
    async close() {
      await server.close();
      await notifier.drain();
      if (ownsDb) await db.$disconnect();
    },
  };
}
