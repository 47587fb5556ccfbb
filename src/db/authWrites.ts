import type { Db } from './client.ts';
import { sameConnection } from './rawStatements.ts';

const WRITES = new Set(['update', 'updateMany', 'updateManyAndReturn', 'upsert', 'delete', 'deleteMany']);

/**
 * The client with every write to users and tokens, and every revocation of an OAuth2 grant, reported to `changed` as soon as the statement ran, so this
 * instance's token cache forgets at once — before the response, and before PostgreSQL's NOTIFY comes back (the
 * NOTIFY is what tells the other instances; see db/authInvalidation.ts).
 */
export function reportAuthWrites(db: Db, changed: () => void): Db {
  const watch = {
    async $allOperations({ operation, args, query }: { operation: string; args: unknown; query: (args: unknown) => Promise<unknown> }) {
      if (!WRITES.has(operation)) return query(args);
      try {
        return await query(args);
      } finally {
        changed();
      }
    },
  };
  const tokenWatch = {
    $allOperations(op: Parameters<typeof watch.$allOperations>[0]) {
      // Recording when a token was last used changes nothing a cache holds (the triggers ignore it too).
      const data = (op.args as { data?: Record<string, unknown> } | undefined)?.data;
      if (op.operation === 'update' && data && Object.keys(data).every((k) => k === 'lastUsedAt')) return op.query(op.args);
      return watch.$allOperations(op);
    },
  };
  const grantWatch = {
    // Only a grant's deletion revokes tokens; the rest of its row is nothing a cache holds.
    $allOperations(op: Parameters<typeof watch.$allOperations>[0]) {
      return op.operation === 'delete' || op.operation === 'deleteMany' ? watch.$allOperations(op) : op.query(op.args);
    },
  };
  const extended = db.$extends({ query: { user: watch, accessToken: tokenWatch, oAuth2Grant: grantWatch } }) as unknown as Db;
  // Raw statements bypass query extensions anyway: they may run on the connection directly (rawStatements.ts).
  sameConnection(extended, db);
  return extended;
}
