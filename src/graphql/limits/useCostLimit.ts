import { complexityFromQuery } from '@pothos/plugin-complexity';
import { getOperationAST, getVariableValues, GraphQLError, Kind, type DefinitionNode, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { limitError } from './limits.ts';

/**
 * Yoga plugin: refuses an operation over the breadth or complexity limit (plugin-complexity's count, with the
 * field costs declared in the schema) after validation and before execution, so before any resolver — and so
 * before any permission check: an over-cost query gets the cost error whoever sends it. The field cost functions
 * may also throw a named-limit error themselves (page sizes, `nodes(ids:)`); that is refused here too.
 */
export function useCostLimit(limits: { breadth: number; complexity: number }): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      // No such operation, or variables that do not coerce: execution reports those in its usual way.
      if (!operation) return;
      const variables = getVariableValues(args.schema, operation.variableDefinitions ?? [], args.variableValues ?? {}, { maxErrors: 1 });
      if ('errors' in variables) return;
      const document: DocumentNode = {
        kind: Kind.DOCUMENT,
        definitions: [operation, ...args.document.definitions.filter((d: DefinitionNode) => d.kind === Kind.FRAGMENT_DEFINITION)],
      };
      let cost: { breadth: number; complexity: number };
      try {
        cost = complexityFromQuery(document, {
          schema: args.schema,
          ctx: args.contextValue as object,
          variables: args.variableValues ?? {},
        });
      } catch (error) {
        if (error instanceof GraphQLError) return setResultAndStopExecution({ errors: [withStatus(error)] });
        throw error;
      }
      for (const limit of ['breadth', 'complexity'] as const) {
        if (cost[limit] > limits[limit]) {
          const error = limitError(
            `Query exceeds the ${limit} limit: ${limit} ${cost[limit]} is more than the maximum of ${limits[limit]}`,
            {
              code: 'QUERY_TOO_COMPLEX',
              limit,
              value: cost[limit],
              max: limits[limit],
            },
          );
          return setResultAndStopExecution({ errors: [error] });
        }
      }
    },
  };
}

/** A refusal from a field's cost function: a request error (400) unless it says otherwise. */
function withStatus(error: GraphQLError): GraphQLError {
  const http = error.extensions.http as { status?: number } | undefined;
  return http?.status ? error : new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: 400 } } });
}
