import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../services/context.ts';
import { sendAsset } from '../web/asset.ts';
import { graphiqlPage, wantsGraphiql } from '../web/graphiql.ts';
import { acceptGithubMediaTypes } from './githubMediaTypes.ts';
import type { Yoga } from './yoga.ts';

/** The GraphQL endpoint: routes and a lazily built Yoga; `warmUp` loads it ahead of the first request. */
export interface GraphqlMount {
  warmUp(): Promise<void>;
}

/** Mounts Yoga at /api/graphql and /graphql (GET, POST; GraphiQL for browsers, served without internet). */
export function mountGraphql(server: FastifyInstance, deps: AppDeps): GraphqlMount {
  let yoga: Promise<Yoga> | undefined;
  const getYoga = () => (yoga ??= import('./yoga.ts').then(({ createGraphqlServer }) => createGraphqlServer(deps)));
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
    // A JSON answer is whole already: sent as text, not piped through a web stream (multipart answers stream).
    return reply.send(isJson(res) ? await res.text() : res.body);
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

const isJson = (res: Response) => /^application\/(graphql-response\+)?json\b/.test(res.headers.get('content-type') ?? '');

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
