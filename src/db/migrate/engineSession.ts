import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { loadSchemaEngine, type SchemaEngine } from './schemaEngineWasm.ts';

/** The schema filter we always pass: no externally managed tables or enums. */
export const NO_FILTERS = { externalTables: [], externalEnums: [] };

/**
 * Runs `fn` with a schema engine connected through `factory`, then releases everything.
 * `engine.free()` does not close the main connection, so we track and dispose it ourselves; shadow
 * connections are disposed by the engine and must not be disposed twice.
 */
export async function withSchemaEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const glue = await loadSchemaEngine();
  const mainConnections: SqlDriverAdapter[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      mainConnections.push(adapter);
      return adapter;
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
  let engine: SchemaEngine | undefined;
  try {
    engine = await glue.SchemaEngine.new({ datamodels: undefined }, ignoreLog, bindMigrationAwareSqlAdapterFactory(tracked));
    return await fn(engine);
  } finally {
    engine?.free();
    await Promise.allSettled(mainConnections.map((c) => c.dispose()));
  }
}

function ignoreLog(): void {}
