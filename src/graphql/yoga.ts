// Yoga over the schema, with the limits and error handling of the endpoint. Loaded at the first GraphQL request
// (server.ts): graphql-js, Yoga and the schema are not loaded by a server that is never asked a GraphQL question.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { parseCredentials, queryOf } from '../auth/credentials.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { isDomainError } from '../errors.ts';
import { BUSY_RETRY_AFTER_SECONDS, busyMessageOf } from '../services/dbErrors.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import { useCompiledExecution } from './compiledExecution.ts';
import type { GraphQLContext } from './context.ts';
import { useDepthLimit } from './depthLimit.ts';
import { useExclusiveFieldTypes } from './exclusiveFieldTypes.ts';
import { useGithubErrorTypes } from './githubErrorTypes.ts';
import { LIMITS } from './limits/limits.ts';
import { useNodeIdsLimit } from './limits/nodeIds.ts';
import { SubscriptionSlots } from './limits/subscriptions.ts';
import { useCostLimit } from './limits/useCostLimit.ts';
import { useDeadline } from './limits/useDeadline.ts';
import { useDocumentLimits } from './limits/useDocumentLimits.ts';
import { useSelectionLimits } from './limits/useSelectionLimits.ts';

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

export type Yoga = YogaServerInstance<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>;

/** Builds Yoga over the schema (graphql-yoga and the schema take ~1 s to import). */
export async function createGraphqlServer(deps: AppDeps): Promise<Yoga> {
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
      useCompiledExecution(),
      useDeadline(LIMITS.deadline),
      useGithubErrorTypes(),
    ],
    context: async ({ req }) => {
      const query = queryOf(req.url);
      const sudo = query.get('sudo') || headerValue(req.headers.sudo);
      const resolved = await resolveViewer(deps, parseCredentials(req.headers.authorization, query), { clientIp: req.ip, sudo });
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

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
