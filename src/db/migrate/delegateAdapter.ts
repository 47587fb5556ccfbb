import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';

/**
 * A plain object that forwards every `SqlDriverAdapter` member to `inner`, except those given in
 * `overrides`. Used to patch adapter behaviour for the schema engine without subclassing.
 */
export function delegateAdapter(inner: SqlDriverAdapter, overrides: Partial<SqlDriverAdapter> = {}): SqlDriverAdapter {
  const forward: SqlDriverAdapter = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query) => inner.queryRaw(query),
    executeRaw: (query) => inner.executeRaw(query),
    executeScript: (script) => inner.executeScript(script),
    startTransaction: (isolationLevel) => inner.startTransaction(isolationLevel),
    dispose: () => inner.dispose(),
  };
  const getConnectionInfo = inner.getConnectionInfo?.bind(inner);
  if (getConnectionInfo) forward.getConnectionInfo = getConnectionInfo;
  return { ...forward, ...overrides };
}

/** Wraps `dispose` so that a second call is a no-op returning the first call's promise. */
export function disposeOnce(dispose: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= dispose());
}
