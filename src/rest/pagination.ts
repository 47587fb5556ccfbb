import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ListOptions } from '../services/paging.ts';

/** Gitea's page/limit parsing: page < 1 → 1; limit ≤ 0 or unparsable → 30; limit > 50 → 50. Never an error. */
export function listOptions(query: Record<string, unknown>): ListOptions {
  const page = toInt(query.page);
  const limit = toInt(query.limit);
  return {
    page: page && page > 0 ? page : 1,
    pageSize: !limit || limit <= 0 ? DEFAULT_PAGE_SIZE : Math.min(limit, MAX_PAGE_SIZE),
  };
}

function toInt(v: unknown): number | null {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v.trim())) return null;
  return Number(v);
}

/** Sets `X-Total-Count` (and exposes it to CORS clients). */
export function setTotalCount(reply: FastifyReply, total: number): void {
  reply.header('X-Total-Count', String(total));
  const exposed = reply.getHeader('Access-Control-Expose-Headers');
  reply.header('Access-Control-Expose-Headers', exposed ? `${String(exposed)}, X-Total-Count` : 'X-Total-Count');
}

/**
 * Sets Gitea's `Link` header: next, last, first, prev joined by ',' with sorted query keys, absolute on ROOT_URL.
 * Nothing when total is 0.
 */
export function setLinkHeader(req: FastifyRequest, reply: FastifyReply, rootUrl: string, total: number, opts: ListOptions): void {
  if (total <= 0) return;
  const pages = Math.ceil(total / opts.pageSize);
  const current = Math.min(Math.max(opts.page, 1), pages);
  const url = new URL(req.url, 'http://x');
  const link = (page: number, rel: string) => {
    const params = new URLSearchParams(url.searchParams);
    params.set('page', String(page));
    params.sort();
    return `<${rootUrl}${url.pathname.replace(/^\//, '')}?${params.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (current < pages) links.push(link(current + 1, 'next'), link(pages, 'last'));
  if (current > 1) links.push(link(1, 'first'), link(current - 1, 'prev'));
  if (links.length) reply.header('Link', links.join(','));
}

/** Both headers, for lists Gitea paginates fully. */
export function setPaginationHeaders(req: FastifyRequest, reply: FastifyReply, rootUrl: string, total: number, opts: ListOptions): void {
  setLinkHeader(req, reply, rootUrl, total, opts);
  setTotalCount(reply, total);
}
