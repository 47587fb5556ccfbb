import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ScopeCategory } from '../auth/scope.ts';
import type { ServiceContext } from '../services/context.ts';
import { resolvePathResources } from './preflight.ts';
import { bind } from './validation.ts';

/**
 * Declarative gates Gitea puts in its route table (api.go): `token` = reqToken (any signed-in user),
 * `admin` = reqToken + reqSiteAdmin, `basic` = reqBasicOrRevProxyAuth, `none` = anonymous allowed.
 */
export type Gate = 'none' | 'token' | 'admin';

/** What a handler receives: the parsed input and the service context. */
export interface ApiInput<B, Q> {
  cx: ServiceContext;
  body: B;
  query: Q;
  params: Record<string, string>;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** One REST operation: everything the router, the gates and the OpenAPI document need. */
export interface RouteDef<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Gitea's path, relative to /api/v1, with `{param}` placeholders. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Token scope categories required (GET/HEAD → read, others → write); null = no scope check. */
  scopes: ScopeCategory[] | null;
  gate: Gate;
  body?: B;
  query?: Q;
  /** Success status and the response schema's component name (`[Name]` for an array). */
  success: { status: number; schema?: string };
  /** Other statuses this route can answer, for the document. */
  errors?: number[];
  /** The last path parameter, matched greedily (its value may contain `/`, e.g. a branch name or file path). */
  tailParam?: string;
  handler: (
    input: ApiInput<B extends z.ZodType ? z.output<B> : undefined, Q extends z.ZodType ? z.output<Q> : undefined>,
  ) => Promise<unknown>;
}

/** Identity helper that keeps the handler's input typed from the schemas. */
export function defineRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  def: RouteDef<B, Q>,
): RouteDef<B, Q> {
  return def;
}

/** Route options carried to the auth hook through Fastify's route config. */
export interface RouteConfig {
  scopes: ScopeCategory[] | null;
  gate: Gate;
}

declare module 'fastify' {
  interface FastifyRequest {
    cx: ServiceContext;
  }
  interface FastifyContextConfig {
    api?: RouteConfig;
  }
}

function tailParams(params: Record<string, string>, tail: string | undefined): Record<string, string> {
  return tail ? { ...params, [tail]: params['*'] ?? '' } : params;
}

/** Registers route definitions on an instance (already prefixed with /api/v1). */
export function registerRoutes(app: FastifyInstance, defs: readonly RouteDef[]): void {
  for (const def of defs) {
    const url = def.path.replace(/\{(\w+)\}/g, ':$1');
    app.route({
      method: def.method,
      url: def.tailParam ? url.replace(new RegExp(`:${def.tailParam}$`), '*') : url,
      config: { api: { scopes: def.scopes, gate: def.gate } },
      handler: async (req, reply) => {
        const params = tailParams(req.params as Record<string, string>, def.tailParam);
        if (def.body) await resolvePathResources(req.cx, params);
        const query = def.query ? bind(def.query, req.query) : undefined;
        const body = def.body ? bind(def.body, req.body) : undefined;
        const result = await def.handler({
          cx: req.cx,
          body,
          query,
          params,
          req,
          reply,
        } as Parameters<typeof def.handler>[0]);
        if (reply.sent) return reply;
        reply.code(def.success.status);
        if (result === undefined) return reply.send();
        return reply.send(result);
      },
    });
  }
}
