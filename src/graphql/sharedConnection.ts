import type { ObjectRef } from '@pothos/core';
import { builder } from './builder.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/**
 * The count a connection's resolver gave: `total` beside a page cut in memory or by a connection helper
 * (totalOf), or plugin-prisma's `totalCount` of a relatedConnection/prismaConnection (a number, or a function that
 * counts). Each comes from the field's own query, so it counts what that field's read policy lets through.
 */
export function connectionCount(conn: object): number | Promise<number> {
  if ('total' in conn && typeof conn.total === 'number') return conn.total;
  const tc = (conn as { totalCount?: unknown }).totalCount;
  if (typeof tc === 'number') return tc;
  if (typeof tc === 'function') return (tc as () => number | Promise<number>)();
  return 0;
}

/**
 * GitHub's one connection type of a node type (`UserConnection` with `UserEdge`, …), shared by every field that
 * lists such nodes, with `totalCount`. Pass it as a field's connection options (t.connection, t.relatedConnection,
 * t.prismaConnection); a relatedConnection still needs `totalCount: true` so its count is planned.
 */
export function sharedConnection<Shape>(
  type: ObjectRef<Types, Shape>,
  name: `${string}Connection`,
  edge?: string | ObjectRef<Types, { cursor: string; node?: Shape }>,
) {
  return builder.connectionObject(
    {
      type,
      name,
      fields: (c) => ({
        totalCount: c.int({
          description: 'How many nodes the connection has in all (what the viewer may see).',
          // plugin-prisma answers a connection asked only for its count without loading rows.
          extensions: { pothosPrismaTotalCount: true },
          resolve: connectionCount,
        }),
      }),
    },
    typeof edge === 'object' ? edge : { name: edge ?? name.replace(/Connection$/, 'Edge') },
  );
}
