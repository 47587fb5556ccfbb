import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageLinks, type ListOptions } from '../services/paging.ts';

/** Longest `Link` header sent: a longer one (a query of many kilobytes) is left out; X-Total-Count still tells the size. */
export const MAX_LINK_HEADER = 8 * 1024;

/** What a list route's handler returns: one page of the list; the router adds the pagination headers. */
export class Listed {
  constructor(
    readonly body: unknown,
    readonly total: number,
    readonly page: ListOptions,
  ) {}
}

function expose(reply: FastifyReply, names: string): void {
  const exposed = reply.getHeader('Access-Control-Expose-Headers');
  reply.header('Access-Control-Expose-Headers', exposed ? `${String(exposed)}, ${names}` : names);
}

/** Sets `X-Total-Count` (and exposes it to CORS clients). */
export function setTotalCount(reply: FastifyReply, total: number): void {
  reply.header('X-Total-Count', String(total));
  expose(reply, 'X-Total-Count');
}

/** Sets Gitea's `Link` header (pageLinks), unless it would exceed MAX_LINK_HEADER. */
function setLinkHeader(req: FastifyRequest, reply: FastifyReply, rootUrl: string, total: number, opts: ListOptions): void {
  const header = pageLinks(rootUrl, req.url, total, opts);
  if (header && header.length <= MAX_LINK_HEADER) reply.header('Link', header);
}

/** Gitea's extra page headers of the pull request files and commits lists. */
function setPageHeaders(reply: FastifyReply, total: number, opts: ListOptions): void {
  const pages = Math.ceil(total / opts.pageSize);
  reply.header('X-Page', String(opts.page));
  reply.header('X-PerPage', String(opts.pageSize));
  reply.header('X-PageCount', String(pages));
  reply.header('X-HasMore', String(opts.page < pages));
  expose(reply, 'X-Page, X-PerPage, X-PageCount, X-HasMore');
}

/** The headers of one kind of list (see ListHeaders in route.ts). */
export function setListHeaders(
  kind: 'link' | 'count' | 'pages',
  req: FastifyRequest,
  reply: FastifyReply,
  rootUrl: string,
  listed: Listed,
): void {
  if (kind !== 'count') setLinkHeader(req, reply, rootUrl, listed.total, listed.page);
  setTotalCount(reply, listed.total);
  if (kind === 'pages') setPageHeaders(reply, listed.total, listed.page);
}
