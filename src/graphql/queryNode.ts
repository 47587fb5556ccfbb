// GitHub's Query implements Node (`id: ID!`, the constant GitHub answers, which node(id:) resolves back to Query).
// Pothos gives root types no interfaces, so the built schema's Query is rebuilt with Node added.
import { GraphQLObjectType, GraphQLSchema, isInterfaceType } from 'graphql';
import type { GlobalId } from './ids.ts';

/** The id of Query: GitHub's, base64 of its legacy `05:Query`. */
export const QUERY_NODE_ID = 'MDU6UXVlcnk=';

/** Whether a decoded global id is Query's (`05` is no type name, so decodeNodeId leaves the id whole). */
export const isQueryNodeId = (gid: GlobalId): boolean => gid.typename === '' && gid.id === QUERY_NODE_ID;

/** What node(id:) answers for Query's id (Node's resolveType reads `__typename`). */
export const QUERY_NODE = { __typename: 'Query' } as const;

/** `schema` with its Query type implementing Node (no field returns Query, so replacing the type is enough). */
export function queryImplementsNode(schema: GraphQLSchema): GraphQLSchema {
  const query = schema.getQueryType();
  const node = schema.getType('Node');
  if (!query || !isInterfaceType(node)) throw new Error('queryImplementsNode: the schema needs a Query type and a Node interface');
  const queryConfig = query.toConfig();
  const nodeQuery = new GraphQLObjectType({ ...queryConfig, interfaces: [...queryConfig.interfaces, node] });
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, query: nodeQuery, types: config.types.map((t) => (t === query ? nodeQuery : t)) });
}
