/** A page request, already normalized by the transport (1-based page, size within limits). */
export interface ListOptions {
  page: number;
  pageSize: number;
}

/** A page of results plus the total number of matching rows. */
export interface Page<T> {
  items: T[];
  total: number;
}

export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 50;

/** An offset window, for cursor/offset pagination (GraphQL connections). */
export interface ListWindow {
  skip: number;
  take: number;
}

/** Prisma skip/take for a page or a window. */
export function skipTake(opts: ListOptions | ListWindow): ListWindow {
  if ('skip' in opts) return { skip: opts.skip, take: opts.take };
  return { skip: (opts.page - 1) * opts.pageSize, take: opts.pageSize };
}

/**
 * The `Link` header value (RFC 8288) of page `opts` of a list of `total` items requested at `requestUrl` (a path
 * with its query): next, last, first and prev, joined by ',', with sorted query keys, absolute on `rootUrl`. Null
 * when there is no other page. The REST transports (Gitea's /api/v1, GitHub's /api/v3) send it.
 */
export function pageLinks(rootUrl: string, requestUrl: string, total: number, opts: ListOptions): string | null {
  if (total <= 0) return null;
  const pages = Math.ceil(total / opts.pageSize);
  const current = Math.min(Math.max(opts.page, 1), pages);
  const url = new URL(requestUrl, 'http://x');
  const link = (page: number, rel: string) => {
    const params = new URLSearchParams(url.searchParams);
    params.set('page', String(page));
    params.sort();
    return `<${rootUrl}${url.pathname.replace(/^\//, '')}?${params.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (current < pages) links.push(link(current + 1, 'next'), link(pages, 'last'));
  if (current > 1) links.push(link(1, 'first'), link(current - 1, 'prev'));
  return links.length ? links.join(',') : null;
}
