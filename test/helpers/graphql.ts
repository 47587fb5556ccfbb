import type { TestApp } from './app.ts';
import { encodeGlobalID } from '@pothos/plugin-relay';

/** One entry of a GraphQL response's `errors`. */
export interface GqlError {
  message: string;
  /** GitHub's error type (NOT_FOUND, FORBIDDEN, UNPROCESSABLE…), from extensions.code (src/graphql/githubErrorTypes.ts). */
  type?: string;
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

/** A refused mutation, as GitHub answers one: the field is null and an error at its path says why. */
export interface MutationError {
  message: string;
  /** Our stable code (NOT_FOUND, PERMISSION_DENIED, VALIDATION…). */
  code: string | undefined;
  /** GitHub's type for it (NOT_FOUND, FORBIDDEN, UNPROCESSABLE…). */
  type: string | undefined;
  /** The input field at fault (validation errors). */
  field: string | undefined;
}

/**
 * The error of mutation field `name` (the error whose path starts at it), or null when the mutation succeeded. A
 * refused mutation's field is null; a field with a value and an error, or an error elsewhere, fails the caller.
 */
export function mutationError(res: { data: unknown; errors: GqlError[] | undefined }, name: string): MutationError | null {
  const data = res.data as Record<string, unknown> | null | undefined;
  const err = (res.errors ?? []).find((e) => e.path?.[0] === name);
  if (!err) {
    if (res.errors?.length) throw new Error(`errors outside ${name}: ${JSON.stringify(res.errors)}`);
    return null;
  }
  if (data?.[name] != null) throw new Error(`${name} has a value and an error: ${JSON.stringify(res)}`);
  const field = err.extensions?.field;
  return { message: err.message, code: err.extensions?.code, type: err.type, field: typeof field === 'string' ? field : undefined };
}

/** The global id (GitHub's `repositoryId`) of owner/name, read from the database, whoever may see it. */
export async function repoGlobalId(t: TestApp, owner: string, name: string): Promise<string> {
  const row = await t.db.repository.findFirstOrThrow({
    where: { lowerName: name.toLowerCase(), owner: { lowerName: owner.toLowerCase() } },
  });
  return encodeGlobalID('Repository', row.id);
}
