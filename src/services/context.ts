import type { AuthInfo } from '../auth/authInfo.ts';
import type { Config } from '../config.ts';
import type { Db, DbTx, Models } from '../db/client.ts';
import { flushOutbox, openOutbox, transactionCommitted } from '../jobs/enqueue.ts';
import type { JobWorker } from '../jobs/worker.ts';
import { createLoaders, type Loaders } from '../loaders/loaders.ts';
import type { DomainEvent } from '../notify/events.ts';
import type { LiveBus } from '../notify/liveBus.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { LoginThrottle } from '../auth/loginThrottle.ts';
import type { OAuthKeys } from '../auth/oauthKeys.ts';
import type { TokenCache } from '../auth/tokenCache.ts';
import type { RepoLocks } from '../db/repoLocks.ts';

/** Long-lived dependencies shared by every request. */
export interface AppDeps {
  db: Db;
  config: Config;
  notifier: Notifier;
  /** Counts failed sign-ins per account+address and per address (shared by REST, GraphQL and git). */
  loginThrottle: LoginThrottle;
  /** Durable background jobs: `hold` records work before a change outside the database (src/jobs). */
  jobs: JobWorker;
  /** Live updates for GraphQL subscriptions (published after commit by the live subscriber). */
  live: LiveBus;
  /** Token → user for authentication, invalidated across instances (the server's; absent in the CLI). */
  tokenCache?: TokenCache | undefined;
  /** The OAuth2/OpenID Connect signing key (kept in the database, shared by every instance). */
  oauthKeys: OAuthKeys;
  /** Serializes the ref-moving sections of one repository's git writes (across instances on PostgreSQL). */
  repoLocks: RepoLocks;
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
  const reach = {
    publicOnly: auth.scope?.publicOnly === true,
    system: auth.method === 'system',
    actionsTask: auth.actionsTask,
    deployKeyId: auth.sshKey?.deploy ? auth.sshKey.id : undefined,
  };
  // Each dependency named, not `{ ...deps, viewer, … }`: on Node 20 properties added after a spread cost ~5 µs
  // per request here (src/db/rowShape.ts rowWith).
  return {
    db: deps.db,
    config: deps.config,
    notifier: deps.notifier,
    loginThrottle: deps.loginThrottle,
    jobs: deps.jobs,
    live: deps.live,
    tokenCache: deps.tokenCache,
    oauthKeys: deps.oauthKeys,
    repoLocks: deps.repoLocks,
    viewer,
    auth,
    loaders: createLoaders(deps.db, viewer, reach),
  };
}

/** A context for the operator's CLI: acts as the system (site-admin rights, no viewer). */
export function createSystemContext(deps: AppDeps): ServiceContext {
  return createServiceContext(deps, null, { method: 'system', scope: null, tokenId: null, sudoerId: null });
}

/**
 * Runs `fn` in one transaction and publishes the events it emitted only after the commit (nothing is published
 * when it throws). In-transaction subscribers see the events before the commit and may enqueue jobs with it;
 * jobs enqueued in the transaction (src/jobs/enqueue.ts) are written together before the commit and wake the
 * workers after it.
 */
export async function withTx<T>(cx: ServiceContext, fn: (tx: DbTx, emit: (e: DomainEvent) => void) => Promise<T>): Promise<T> {
  // What the request read before it writes is not reused after (Loaders.pathRepo).
  cx.loaders.pathRepo = null;
  const events: DomainEvent[] = [];
  let txClient: DbTx | undefined;
  const result = await cx.db.$transaction(
    async (tx) => {
      txClient = tx;
      openOutbox(tx);
      const result = await fn(tx, (e) => events.push(e));
      await cx.notifier.beforeCommit(tx, events);
      await flushOutbox(tx);
      return result;
    },
    { timeout: cx.config.transactionTimeoutMs, maxWait: cx.config.transactionTimeoutMs },
  );
  if (txClient) transactionCommitted(txClient);
  cx.notifier.publish(events);
  return result;
}
