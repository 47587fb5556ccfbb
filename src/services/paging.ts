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
