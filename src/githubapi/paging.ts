// GitHub's REST paging: `page` (from 1) and `per_page` (30 by default, at most 100), and the `Link` header of the
// other pages (gh follows rel="next").
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageLinks, type ListOptions } from '../services/paging.ts';

const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;

/** A positive integer of a query value, else `fallback`. */
function positive(v: unknown, fallback: number): number {
  const n = typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : 0;
  return n > 0 ? n : fallback;
}

/** The page a request asks for (GitHub ignores values it cannot read and caps per_page at 100). */
export function githubPageOf(query: unknown): ListOptions {
  const q = (query ?? {}) as Record<string, unknown>;
  return { page: positive(q.page, 1), pageSize: Math.min(positive(q.per_page, DEFAULT_PER_PAGE), MAX_PER_PAGE) };
}

/** Sets the `Link` header of a page of `total` items (none when everything fits on one page). */
export function setGithubLinks(req: FastifyRequest, reply: FastifyReply, page: ListOptions, total: number): void {
  const header = pageLinks(req.cx.config.rootUrl, req.url, total, page);
  if (header) reply.header('Link', header);
}
