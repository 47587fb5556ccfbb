import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ScopeCategory } from '../auth/scope.ts';
import { Readable } from 'node:stream';
import { InvalidArgumentError, NotFoundError } from '../errors.ts';
import type { ServiceContext } from '../services/context.ts';
import { Listed, setListHeaders } from './pagination.ts';
import type { PathParamDoc } from './pathParams.ts';
import { resolvePathResources } from './preflight.ts';
import { bind, goNamesOf } from './validation.ts';

/**
 * Declarative gates Gitea puts in its route table (api.go): `token` = reqToken (any signed-in user),
 * `admin` = reqToken + reqSiteAdmin, `none` = anonymous allowed.
 */
export type Gate = 'none' | 'token' | 'admin';

/**
 * The pagination headers a list answers with (Gitea chooses per list): `link` = X-Total-Count and Link,
 * `count` = X-Total-Count only, `pages` = both plus X-Page, X-PerPage, X-PageCount and X-HasMore.
 */
export type ListHeaders = 'link' | 'count' | 'pages';

/**
 * What a handler receives: the parsed input and the service context. There is no raw request: query
 * parameters are read only through the route's declared schema, so the OpenAPI document cannot miss one.
 */
export interface ApiInput<B, Q> {
  cx: ServiceContext;
  body: B;
  query: Q;
  params: Record<string, string>;
  reply: FastifyReply;
  /** An upload route's file: the multipart part `attachment`, or the raw request body. */
  upload?: UploadPart;
  /** A text route's body (`textBody`), as sent. */
  text?: string;
  /** A `rawParams` route's path parameters as sent, still percent-escaped (Gitea's PathParamRaw). */
  rawParams?: Record<string, string>;
}

/** The file of an upload route, still streaming: the multipart part's file name (empty for a raw body) and its bytes. */
export interface UploadPart {
  filename: string;
  content: Readable;
}

/** A response the route can answer with, for the document. */
export interface ResponseDoc {
  status: number;
  /** The body's component name (`[Name]` for an array); none = no body. */
  schema?: string;
  /** A body that is not JSON (e.g. `text/plain` for a diff). */
  contentType?: string;
  /** The body may be JSON `null` (Gitea answers some empty lists so). */
  nullable?: true;
  description?: string;
}

/** One REST operation: everything the router, the gates and the OpenAPI document need. */
export interface RouteDef<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
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
  /** Every query parameter the handler reads. */
  query?: Q;
  /** Path parameters whose type or meaning differs from the usual one of their name (see pathParams.ts). */
  params?: Record<string, PathParamDoc>;
  /** The usual success answer. */
  success: ResponseDoc;
  /** Other successful answers the route can give (e.g. 200 for a reaction that already existed). */
  also?: ResponseDoc[];
  /** Error statuses this route can answer, for the document. */
  errors?: number[];
  /** Set by defineList: the route pages with `page`/`limit` and sends these headers. */
  list?: ListHeaders;
  deprecated?: boolean;
  /** The last path parameter, matched greedily (its value may contain `/`, e.g. a branch name or file path). */
  tailParam?: string;
  /**
   * The request body is a file, streamed to the handler as `upload`: a multipart form's `attachment` part, or the
   * raw body (Gitea's asset uploads). Such routes are registered where multipart parsing is on (rest/plugin.ts).
   */
  upload?: true;
  /** The request body is plain text (Gitea's `consumes: text/plain`), given to the handler as `text` whatever its type. */
  textBody?: true;
  /** The handler needs its path parameters as sent (`rawParams`), e.g. names whose escapes mean something. */
  rawParams?: true;
  handler: (
    input: ApiInput<B extends z.ZodType ? z.output<B> : undefined, Q extends z.ZodType ? z.output<Q> : undefined>,
  ) => Promise<unknown>;
}

/** Identity helper that keeps the handler's input typed from the schemas. */
export function defineRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodObject | undefined = undefined>(
  def: RouteDef<B, Q>,
): RouteDef<B, Q> {
  return def;
}

/** Route options carried to the auth hook and the error handler through Fastify's route config. */
export interface RouteConfig {
  scopes: ScopeCategory[] | null;
  gate: Gate;
  /** Go struct field names of the body's fields where they differ from the derived ones (binding messages). */
  goNames: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    cx: ServiceContext;
  }
  interface FastifyContextConfig {
    api?: RouteConfig;
  }
}

/** The path parameters of `path` (a route's `{param}` template) in the request URL, as sent (not decoded). */
function rawParamsOf(url: string, path: string): Record<string, string> {
  const sent = (url.split('?')[0] ?? '').split('/');
  const template = path.split('/');
  const out: Record<string, string> = {};
  // The template is the URL's tail (the prefix /api/v1 precedes it).
  const offset = sent.length - template.length;
  template.forEach((seg, i) => {
    const m = /^\{(\w+)\}$/.exec(seg);
    if (m?.[1]) out[m[1]] = sent[offset + i] ?? '';
  });
  return out;
}

function tailParams(params: Record<string, string>, tail: string | undefined): Record<string, string> {
  return tail ? { ...params, [tail]: params['*'] ?? '' } : params;
}

/** No name, branch or path contains NUL: such a path names nothing (and must not reach git or the file system). */
function checkParams(params: Record<string, string>): void {
  for (const value of Object.values(params)) if (value.includes('\0')) throw new NotFoundError('not found');
}

/**
 * The file of an upload request: the first multipart file part, which must be the `attachment` field (Gitea's
 * FormFile("attachment")), or the raw body as it arrives. `finish` reads the rest of the form, so the request is
 * complete when the answer goes (a half-read request keeps its connection busy until the keep-alive timeout).
 * @throws InvalidArgumentError when a form carries no `attachment` file
 */
async function readUpload(req: FastifyRequest): Promise<{ part: UploadPart; finish: () => Promise<void> }> {
  if (!req.isMultipart()) {
    const body = req.body;
    return { part: { filename: '', content: body instanceof Readable ? body : req.raw }, finish: async () => undefined };
  }
  const parts = req.parts();
  const finish = async () => {
    for await (const rest of parts) if (rest.type === 'file') rest.file.resume();
  };
  for await (const part of parts) {
    if (part.type !== 'file') continue;
    if (part.fieldname === 'attachment') return { part: { filename: part.filename, content: part.file }, finish };
    part.file.resume();
  }
  throw new InvalidArgumentError('http: no such file: the form has no "attachment" file');
}

/** Registers route definitions on an instance (already prefixed with /api/v1). */
export function registerRoutes(app: FastifyInstance, defs: readonly RouteDef[]): void {
  for (const def of defs) {
    const url = def.path.replace(/\{(\w+)\}/g, ':$1');
    app.route({
      method: def.method,
      url: def.tailParam ? url.replace(new RegExp(`:${def.tailParam}$`), '*') : url,
      config: { api: { scopes: def.scopes, gate: def.gate, goNames: def.body ? goNamesOf(def.body) : {} } },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const params = tailParams(req.params as Record<string, string>, def.tailParam);
        checkParams(params);
        if (def.body) await resolvePathResources(req.cx, params);
        const query = def.query ? bind(def.query, req.query) : undefined;
        const body = def.body ? bind(def.body, req.body) : undefined;
        const upload = def.upload ? await readUpload(req) : undefined;
        // Built as one literal: on Node 20 a literal that starts with a spread costs microseconds (rowShape.ts).
        const input: ApiInput<unknown, unknown> = { cx: req.cx, body, query, params, reply, upload: upload?.part };
        if (def.textBody) input.text = typeof req.body === 'string' ? req.body : '';
        if (def.rawParams) input.rawParams = rawParamsOf(req.url, def.path);
        let result: unknown;
        try {
          result = await def.handler(input as Parameters<typeof def.handler>[0]);
        } finally {
          await upload?.finish();
        }
        if (reply.sent) return reply;
        reply.code(def.success.status);
        if (result instanceof Listed) {
          setListHeaders(def.list ?? 'link', req, reply, req.cx.config.rootUrl, result);
          return reply.send(result.body);
        }
        if (result === undefined) return reply.send();
        return reply.send(result);
      },
    });
  }
}
