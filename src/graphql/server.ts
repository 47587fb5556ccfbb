import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { parseCredentials } from '../auth/credentials.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { isDomainError } from '../errors.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import { sendAsset } from '../web/asset.ts';
import { graphiqlPage, wantsGraphiql } from '../web/graphiql.ts';
import { useExclusiveFieldTypes } from './exclusiveFieldTypes.ts';
import { useGithubErrorTypes } from './githubErrorTypes.ts';
import { acceptGithubMediaTypes } from './githubMediaTypes.ts';
import type { GraphQLContext } from './context.ts';
import { useDepthLimit } from './depthLimit.ts';
import { LIMITS } from './limits/limits.ts';
import { BUSY_RETRY_AFTER_SECONDS, busyMessageOf } from '../services/busy.ts';
import { useNodeIdsLimit } from './limits/nodeIds.ts';
import { useCostLimit } from './limits/useCostLimit.ts';
import { useDeadline } from './limits/useDeadline.ts';
import { useDocumentLimits } from './limits/useDocumentLimits.ts';
import { useSelectionLimits } from './limits/useSelectionLimits.ts';
import { SubscriptionSlots } from './limits/subscriptions.ts';

function maskError(error: unknown, message: string, isDev: boolean | undefined, transactionTimeoutMs: number): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const busy = busyMessageOf(original, transactionTimeoutMs);
  if (busy) {
    const gql = error instanceof GraphQLError ? error : null;
    return new GraphQLError(busy, {
      nodes: gql?.nodes,
      path: gql?.path,
      extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } } },
    });
  }
  if (isDomainError(original)) {
    const gql = error instanceof GraphQLError ? error : null;
    return new GraphQLError(original.message, {
      nodes: gql?.nodes,
      path: gql?.path,
      extensions: { code: original.code, ...(typeof original.data.field === 'string' ? { field: original.data.field } : {}) },
    });
  }
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return error;
  return new GraphQLError(isDev && error instanceof Error ? error.message : message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

type Yoga = YogaServerInstance<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>;

/** Builds Yoga over the schema. Loaded lazily: graphql-yoga and the schema take ~1 s to import. */
async function createGraphqlServer(deps: AppDeps): Promise<Yoga> {
  const [{ createYoga }, { schema }] = await Promise.all([import('graphql-yoga'), import('./schema.ts')]);
  const subscriptionSlots = new SubscriptionSlots();
  return createYoga<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/api/graphql',
    logging: false,
    landingPage: false,
    // Browsers get GraphiQL from mountGraphql's handler (compressed, cached), before Yoga.
    graphiql: false,
    maskedErrors: {
      maskError: (error, message, isDev) => maskError(error, message, isDev, deps.config.transactionTimeoutMs),
      isDev: !deps.config.production,
    },
    // In request order (see limits/limits.ts): the text, the syntax tree, validation, cost, execution.
    plugins: [
      useDocumentLimits(LIMITS),
      useSelectionLimits(LIMITS),
      useDepthLimit(LIMITS.depth),
      useExclusiveFieldTypes(),
      useNodeIdsLimit(LIMITS.nodeIds),
      useCostLimit(LIMITS),
      useDeadline(LIMITS.deadline),
      useGithubErrorTypes(),
    ],
    context: async ({ req }) => {
      const url = new URL(req.url, 'http://x');
      const sudo = url.searchParams.get('sudo') || headerValue(req.headers.sudo);
      const resolved = await resolveViewer(deps, parseCredentials(req.headers.authorization, url.searchParams), { clientIp: req.ip, sudo });
      if (!resolved.ok) {
        const { status } = resolved;
        const code = status === 429 ? 'RATE_LIMITED' : status === 401 ? 'UNAUTHENTICATED' : status === 404 ? 'NOT_FOUND' : 'FORBIDDEN';
        const retry = resolved.retryAfterSeconds;
        throw new GraphQLError(resolved.message, {
          extensions: { code, http: { status, ...(retry ? { headers: { 'Retry-After': String(retry) } } : {}) } },
        });
      }
      const clientKey = resolved.user ? `user:${resolved.user.id}` : `ip:${req.ip}`;
      return { cx: createServiceContext(deps, resolved.user, resolved.auth), subscriptionSlots, clientKey };
    },
  });
}

/** The GraphQL endpoint: routes and a lazily built Yoga; `warmUp` loads it ahead of the first request. */
export interface GraphqlMount {
  warmUp(): Promise<void>;
}

/** Mounts Yoga at /api/graphql and /graphql (GET, POST; GraphiQL for browsers, served without internet). */
export function mountGraphql(server: FastifyInstance, deps: AppDeps): GraphqlMount {
  let yoga: Promise<Yoga> | undefined;
  const getYoga = () => (yoga ??= createGraphqlServer(deps));
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (wantsGraphiql(req.method, req.headers.accept)) return sendAsset(req, reply, await graphiqlPage());
    const accept = acceptGithubMediaTypes(req.headers.accept);
    if (accept) req.headers.accept = accept;
    // Yoga answers only on its one endpoint: hand it the alias's request under that path.
    if (req.raw.url?.startsWith('/graphql')) req.raw.url = `/api${req.raw.url}`;
    if (req.method === 'HEAD') return head(await getYoga(), req, reply);
    const res = await (await getYoga()).handleNodeRequestAndResponse(req, reply, { req, reply });
    if (res.body && res.headers.get('content-type')?.startsWith('text/event-stream')) return streamEvents(reply, res);
    res.headers.forEach((value, key) => reply.header(key, value));
    reply.status(res.status);
    return reply.send(res.body);
  };
  for (const url of ['/api/graphql', '/graphql']) {
    server.route({ url, method: ['GET', 'POST', 'OPTIONS'], handler });
  }
  return {
    async warmUp() {
      await getYoga();
    },
  };
}

/**
 * HEAD answers what GET would, without the body (Fastify's HEAD route drops it and keeps the Content-Length). Yoga
 * knows no HEAD, so it is asked the GET; an event stream is not opened.
 */
async function head(yoga: Yoga, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  const res = await yoga.fetch(new Request(new URL(req.raw.url ?? '/', 'http://localhost'), { method: 'GET', headers }), { req, reply });
  res.headers.forEach((value, key) => reply.header(key, value));
  reply.status(res.status);
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return reply.send();
  }
  return reply.send(Buffer.from(await res.arrayBuffer()));
}

/**
 * Streams a subscription's Server-Sent Events to the client and cancels the stream when the client goes away, so
 * the subscription ends (its iterator returns, its slot and bus listener are released) instead of lingering.
 */
async function streamEvents(reply: FastifyReply, res: Response): Promise<void> {
  reply.hijack();
  const out = reply.raw;
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => (headers[key] = value));
  out.writeHead(res.status, headers);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  out.on('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      out.write(value);
    }
  } catch {
    // The client left or the stream failed: nothing more to send.
  } finally {
    out.off('close', cancel);
    out.end();
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
