import type { TestApp } from './app.ts';

/** One entry of a GraphQL response's `errors`. */
export interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; field?: string; limit?: string; [key: string]: unknown };
}

/** A parsed GraphQL response, `data` typed by the caller. */
export interface GqlResult<T> {
  status: number;
  data: T | null | undefined;
  errors: GqlError[] | undefined;
}

export interface GqlOptions {
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Query string for the URL (e.g. `token=…`), without the `?`. */
  query?: string;
  /** Endpoint path; `/api/graphql` by default. */
  path?: string;
}

/** POSTs an operation and parses the JSON response. */
export async function gql<T>(t: TestApp, query: string, opts: GqlOptions = {}): Promise<GqlResult<T>> {
  const url = `${opts.path ?? '/api/graphql'}${opts.query ? `?${opts.query}` : ''}`;
  const res = await t.request('POST', url, { headers: opts.headers ?? {}, body: { query, variables: opts.variables } });
  const body = JSON.parse(res.body) as { data?: T | null; errors?: GqlError[] };
  return { status: res.statusCode, data: body.data, errors: body.errors };
}

/** The `extensions.code` of every error, in order. */
export function errorCodes(res: { errors: GqlError[] | undefined }): (string | undefined)[] {
  return (res.errors ?? []).map((e) => e.extensions?.code);
}

/** Typed mutation error fields, as selected by `... on Error { message code } ... on ValidationError { field }`. */
export interface MutationErrorFields {
  __typename: string;
  message?: string;
  code?: string;
  field?: string | null;
}
