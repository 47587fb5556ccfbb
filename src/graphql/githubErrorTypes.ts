import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * GitHub's error `type` for our `extensions.code` (GitHub's clients read the top-level `type`: gh matches
 * `NOT_FOUND` to tell a missing issue from a pull request). Codes GitHub has no word for get none.
 */
const GITHUB_TYPE: Readonly<Record<string, string>> = {
  NOT_FOUND: 'NOT_FOUND',
  PERMISSION_DENIED: 'FORBIDDEN',
  FORBIDDEN: 'FORBIDDEN',
  UNAUTHENTICATED: 'FORBIDDEN',
  REPO_ARCHIVED: 'FORBIDDEN',
  INVALID_ARGUMENT: 'UNPROCESSABLE',
  VALIDATION: 'UNPROCESSABLE',
  ALREADY_EXISTS: 'UNPROCESSABLE',
  PRECONDITION_FAILED: 'UNPROCESSABLE',
  CONFLICT: 'STALE_DATA',
  EXCESSIVE_PAGINATION: 'EXCESSIVE_PAGINATION',
  QUERY_TOO_COMPLEX: 'MAX_NODE_LIMIT_EXCEEDED',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  DEADLINE_EXCEEDED: 'TIMEOUT',
  INTERNAL_SERVER_ERROR: 'INTERNAL',
};

interface SerializedError {
  extensions?: { code?: unknown };
  [key: string]: unknown;
}

/** The response with each error's GitHub `type` beside its message, as GitHub's GraphQL API answers. */
function stringifyWithTypes(result: ExecutionResult): string {
  return JSON.stringify(result, (key, value: unknown) => {
    if (key !== 'errors' || !Array.isArray(value)) return value;
    return value.map((e: { toJSON?: () => SerializedError } & SerializedError) => {
      const json = typeof e.toJSON === 'function' ? e.toJSON() : e;
      const code = json.extensions?.code;
      const type = typeof code === 'string' ? GITHUB_TYPE[code] : undefined;
      return type ? { type, ...json } : json;
    });
  });
}

/** Writes GitHub's error `type` into every single (not streamed) result. */
export function useGithubErrorTypes(): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      if (!result || Symbol.asyncIterator in result || !result.errors?.length) return;
      setResult({ ...result, stringify: stringifyWithTypes } as ExecutionResult);
    },
  };
}
