// JSON reads from a source forge's REST API, with the migration's credentials and paging.
import { setTimeout as sleep } from 'node:timers/promises';

/** A GET on a source API. */
export interface SourceApi {
  /** GET `path` (relative to the API root) as JSON. @throws Error with the status */
  json<T>(path: string): Promise<T>;
  /** Every page of a list endpoint (`page`/`per_page` or `limit`), until a short page. */
  all<T>(path: string, pageSize: number, limitParam?: 'limit' | 'per_page'): Promise<T[]>;
  /** Bytes of a file on the source (only URLs under the source's origin). */
  bytes(url: string): Promise<Buffer>;
}

/** Gitea `[migrations] MAX_ATTEMPTS` and RETRY_BACKOFF (shortened: a local source recovers quickly). */
const MAX_ATTEMPTS = 3;
const RETRY_BACKOFF_MS = 500;

/** The innermost message of a fetch failure (undici wraps the socket error as `cause`). */
function causeOf(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

/** A client for the API at `root` (ends with `/`), sending `authorization` when given. */
export function sourceApi(root: string, authorization: string | undefined): SourceApi {
  const headers: Record<string, string> = { accept: 'application/json', ...(authorization ? { authorization } : {}) };
  const origin = new URL(root).origin;
  async function get(url: string): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, { headers, redirect: 'error' });
      } catch (err) {
        // Gitea's RetryDownloader: MAX_ATTEMPTS 3 with a backoff, for connection failures and server errors.
        if (attempt >= MAX_ATTEMPTS) throw new Error(`GET ${new URL(url).pathname} failed: ${causeOf(err)}`, { cause: err });
        await sleep(RETRY_BACKOFF_MS * attempt);
        continue;
      }
      if (res.status >= 500 && attempt < MAX_ATTEMPTS) {
        await res.body?.cancel();
        await sleep(RETRY_BACKOFF_MS * attempt);
        continue;
      }
      if (res.status === 401 || res.status === 403) throw new Error(`Authentication failed: ${res.status} on ${new URL(url).pathname}`);
      if (!res.ok) throw new Error(`GET ${new URL(url).pathname} answered ${res.status}`);
      return res;
    }
  }
  const api: SourceApi = {
    async json<T>(path: string): Promise<T> {
      return (await (await get(new URL(path, root).toString())).json()) as T;
    },
    async all<T>(path: string, pageSize: number, limitParam: 'limit' | 'per_page' = 'limit'): Promise<T[]> {
      const out: T[] = [];
      for (let page = 1; ; page++) {
        const sep = path.includes('?') ? '&' : '?';
        const items = await api.json<T[]>(`${path}${sep}page=${page}&${limitParam}=${pageSize}`);
        out.push(...items);
        if (items.length < pageSize) return out;
      }
    },
    async bytes(url: string): Promise<Buffer> {
      if (new URL(url).origin !== origin) throw new Error(`asset ${url} is not on the source's host`);
      return Buffer.from(await (await get(url)).arrayBuffer());
    },
  };
  return api;
}

/** Source requests in flight at once per list (Gitea's downloader is sequential; a few in parallel hide the latency). */
const CONCURRENCY = 8;

/** `fn` over `items` with at most CONCURRENCY calls running, results in the items' order. */
export async function mapConcurrent<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}
