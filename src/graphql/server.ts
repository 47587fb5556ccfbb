import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import { parseCredentials } from '../auth/credentials.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { isDomainError } from '../errors.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import { sendAsset } from '../web/asset.ts';
import { graphiqlPage, wantsGraphiql } from '../web/graphiql.ts';
import { LIMITS } from './builder.ts';
import type { GraphQLContext } from './context.ts';
import { useDepthLimit } from './depthLimit.ts';

/** Wall-clock budget for one GraphQL operation. */
export const DEADLINE_MS = 15_000;

/** Fails an operation that runs past the deadline with an error naming the limit. */
function useDeadline(ms: number): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (args) => {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<{ errors: GraphQLError[] }>((resolve) => {
          timer = setTimeout(
            () =>
              resolve({
                errors: [
                  new GraphQLError(`Request exceeded the deadline of ${ms} ms`, {
                    extensions: { code: 'DEADLINE_EXCEEDED', limit: 'deadline', max: ms },
                  }),
                ],
              }),
            ms,
          );
        });
        try {
          return await Promise.race([executeFn(args), deadline]);
        } finally {
          clearTimeout(timer);
        }
      });
    },
  };
}

function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
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
  return createYoga<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/api/graphql',
    logging: false,
    landingPage: false,
    // Browsers get GraphiQL from mountGraphql's handler (compressed, cached), before Yoga.
    graphiql: false,
    maskedErrors: { maskError, isDev: !deps.config.production },
    plugins: [useDeadline(DEADLINE_MS), useDepthLimit(LIMITS.depth)],
    context: async ({ req }) => {
      const url = new URL(req.url, 'http://x');
      const sudo = url.searchParams.get('sudo') || headerValue(req.headers.sudo);
      const resolved = await resolveViewer(
        deps.db,
        deps.config.rootUrl,
        parseCredentials(req.headers.authorization, url.searchParams),
        sudo,
      );
      if (!resolved.ok) {
        const code = resolved.status === 401 ? 'UNAUTHENTICATED' : resolved.status === 404 ? 'NOT_FOUND' : 'FORBIDDEN';
        throw new GraphQLError(resolved.message, { extensions: { code, http: { status: resolved.status } } });
      }
      return { cx: createServiceContext(deps, resolved.user, resolved.auth) };
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
    // Yoga answers only on its one endpoint: hand it the alias's request under that path.
    if (req.raw.url?.startsWith('/graphql')) req.raw.url = `/api${req.raw.url}`;
    const res = await (await getYoga()).handleNodeRequestAndResponse(req, reply, { req, reply });
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

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
