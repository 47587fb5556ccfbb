import {
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

// GitHub's clients select one field name with different leaf types on types that never meet, e.g. gh's
// `issueOrPullRequest(number: 1) { ... on Issue { state } ... on PullRequest { state } }` (IssueState! and
// PullRequestState!). graphql-js's OverlappingFieldsCanBeMerged refuses it even though no object can be both, so
// the response can never hold two values under one key; GitHub (graphql-ruby) accepts it. We drop exactly that
// refusal — two fields whose parents are different object types — and keep every other overlap error.

const LEAF_CONFLICT = /^Fields "[_A-Za-z][_0-9A-Za-z]*" conflict because they return conflicting types /;

/** The object or interface type each field node of the document is selected on. */
function parentTypes(schema: GraphQLSchema, document: DocumentNode): Map<ASTNode, GraphQLNamedType | null | undefined> {
  const parents = new Map<ASTNode, GraphQLNamedType | null | undefined>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node: FieldNode) {
        parents.set(node, typeInfo.getParentType());
      },
    }),
  );
  return parents;
}

/** Whether `error` is a leaf-type overlap between fields of two different object types (which never both apply). */
function isExclusiveLeafConflict(error: GraphQLError, parents: () => Map<ASTNode, GraphQLNamedType | null | undefined>): boolean {
  if (!LEAF_CONFLICT.test(error.message) || error.nodes?.length !== 2) return false;
  const [a, b] = error.nodes.map((n) => parents().get(n));
  return isObjectType(a) && isObjectType(b) && a !== b;
}

/** Accepts same-named leaf fields of different types on mutually exclusive object types, as GitHub does. */
export function useExclusiveFieldTypes(): Plugin {
  return {
    onValidate({ params }) {
      return ({ result, setResult }) => {
        if (!result.length) return;
        let parents: Map<ASTNode, GraphQLNamedType | null | undefined> | undefined;
        const lazyParents = () => (parents ??= parentTypes(params.schema, params.documentAST));
        const kept = result.filter((e) => !isExclusiveLeafConflict(e, lazyParents));
        if (kept.length !== result.length) setResult(kept);
      };
    },
  };
}
