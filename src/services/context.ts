import type { Config } from '../config.ts';
import type { Db, DbTx, Models } from '../db/client.ts';
import { createLoaders, type Loaders } from '../loaders/loaders.ts';
import type { DomainEvent } from '../notify/events.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { TokenScope } from '../auth/scope.ts';

/** How the viewer authenticated. Token scopes apply only to `token`. */
export interface AuthInfo {
  method: 'anonymous' | 'password' | 'token' | 'system';
  scope: TokenScope | null;
  tokenId: number | null;
  /** The admin who used Sudo, when the viewer is impersonated. */
  sudoerId: number | null;
}

/** Long-lived dependencies shared by every request. */
export interface AppDeps {
  db: Db;
  config: Config;
  notifier: Notifier;
}

/** The service context: who is asking, and the handles to do the work. Every service takes it first. */
export interface ServiceContext extends AppDeps {
  viewer: Models.User | null;
  auth: AuthInfo;
  loaders: Loaders;
}

export const ANONYMOUS: AuthInfo = { method: 'anonymous', scope: null, tokenId: null, sudoerId: null };

/** Builds a request-scoped context. */
export function createServiceContext(deps: AppDeps, viewer: Models.User | null, auth: AuthInfo = ANONYMOUS): ServiceContext {
  const reach = { publicOnly: auth.scope?.publicOnly === true, system: auth.method === 'system' };
  return { ...deps, viewer, auth, loaders: createLoaders(deps.db, viewer, reach) };
}

/** A context for the operator's CLI: acts as the system (site-admin rights, no viewer). */
export function createSystemContext(deps: AppDeps): ServiceContext {
  return createServiceContext(deps, null, { method: 'system', scope: null, tokenId: null, sudoerId: null });
}

/**
 * Runs `fn` in one transaction and publishes the events it emitted only after the commit
 * (nothing is published when it throws).
 */
export async function withTx<T>(cx: ServiceContext, fn: (tx: DbTx, emit: (e: DomainEvent) => void) => Promise<T>): Promise<T> {
  const events: DomainEvent[] = [];
  const result = await cx.db.$transaction((tx) => fn(tx, (e) => events.push(e)), { timeout: 15_000, maxWait: 15_000 });
  cx.notifier.publish(events);
  return result;
}
