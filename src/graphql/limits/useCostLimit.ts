import { complexityFromQuery } from '@pothos/plugin-complexity';
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  type DefinitionNode,
  type DocumentNode,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { limitError } from './limits.ts';

/** Complexities kept per query: one for each of its last variable sets. */
const VARIABLE_SETS_PER_OPERATION = 16;
/** Variables longer than this as JSON are not kept as a key (a query with a long list of ids is counted each time). */
const MAX_VARIABLES_KEY = 1024;

/**
 * Yoga plugin: refuses an operation over the complexity limit (plugin-complexity's count over the field costs
 * declared in the schema) after validation and before execution, so before any resolver and any permission
 * check: an over-cost query gets the cost error whoever sends it. Field cost functions may throw a named-limit
 * error themselves (page sizes, `nodes(ids:)`); that is refused here too. Breadth is useSelectionLimits' job.
 *
 * The count depends only on the operation and its variables (the schema's cost functions read arguments, never the
 * context), so a query's complexity once counted is kept with its parsed node (Yoga's parse cache hands the same
 * document for the same text) under its variables: a repeated query is not walked again (~100 µs for the nested
 * issue query of bench/issues.ts). Bounded: a few short variable sets per query; mutations (whose variables carry
 * bodies and file contents, and rarely repeat) and refusals are counted each time.
 */
export function useCostLimit(limits: { complexity: number }): Plugin {
  const counted = new WeakMap<OperationDefinitionNode, Map<string, number>>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      // No such operation, or variables that do not coerce: execution reports those in its usual way.
      if (!operation) return;
      const key = operation.operation === 'query' ? JSON.stringify(args.variableValues ?? {}) : undefined;
      const variablesKey = key !== undefined && key.length <= MAX_VARIABLES_KEY ? key : undefined;
      let byVariables = counted.get(operation);
      let complexity = variablesKey === undefined ? undefined : byVariables?.get(variablesKey);
      if (complexity === undefined) {
        const variables = getVariableValues(args.schema, operation.variableDefinitions ?? [], args.variableValues ?? {}, { maxErrors: 1 });
        if ('errors' in variables) return;
        const document: DocumentNode = {
          kind: Kind.DOCUMENT,
          definitions: [operation, ...args.document.definitions.filter((d: DefinitionNode) => d.kind === Kind.FRAGMENT_DEFINITION)],
        };
        try {
          ({ complexity } = complexityFromQuery(document, {
            schema: args.schema,
            ctx: args.contextValue as object,
            variables: args.variableValues ?? {},
          }));
        } catch (error) {
          if (error instanceof GraphQLError) return setResultAndStopExecution({ errors: [withStatus(error)] });
          throw error;
        }
        if (variablesKey !== undefined) {
          if (!byVariables) counted.set(operation, (byVariables = new Map()));
          if (byVariables.size >= VARIABLE_SETS_PER_OPERATION) byVariables.clear();
          byVariables.set(variablesKey, complexity);
        }
      }
      if (complexity > limits.complexity) {
        const error = limitError(
          `Query exceeds the complexity limit: this query requests up to ${complexity} possible nodes, which exceeds the maximum of ${limits.complexity}`,
          {
            code: 'QUERY_TOO_COMPLEX',
            limit: 'complexity',
            value: complexity,
            max: limits.complexity,
          },
        );
        setResultAndStopExecution({ errors: [error] });
      }
    },
  };
}

/** A refusal from a field's cost function is a request error, like limitError's. */
function withStatus(error: GraphQLError): GraphQLError {
  if (error.extensions.http) return error;
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: 400, spec: true } } });
}
