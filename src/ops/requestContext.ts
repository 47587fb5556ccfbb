import { AsyncLocalStorage } from 'node:async_hooks';

/** What the process knows about the request it is working for (set for the whole Fastify request lifecycle). */
export interface RequestContext {
  reqId: string;
  /** SQL statements issued so far. */
  statements: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (the rest of a request's lifecycle) with `context` as the current request. */
export function runInRequest(context: RequestContext, fn: () => void): void {
  storage.run(context, fn);
}

/** The request the current code works for, if any (log lines and statement counts use it). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
