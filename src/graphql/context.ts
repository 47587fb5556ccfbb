import type { ServiceContext } from '../services/context.ts';

/** The GraphQL context: just the service context of the request. */
export interface GraphQLContext {
  cx: ServiceContext;
}
