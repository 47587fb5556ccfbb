import { z } from 'zod';
import type { RepoRef } from '../services/access/repoAccess.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ListOptions } from '../services/paging.ts';
import { cut } from './errors.ts';

// The parameters of /api/v1 with Gitea's parsing rules, in one place: path parameters (repository reference,
// integer ids and indexes) and query parameters. Each query parameter builder records how the OpenAPI
// document describes it, so a route's declared query schema is both what the handler reads and what the
// document shows.

/** The `{owner}/{repo}` of a path. */
export const repoRef = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** Ids and indexes are 32-bit integer columns: a larger number names no row. */
const MAX_DB_INT = 2_147_483_647;

/**
 * Gitea's ParamsInt64 for a path id or index: anything but a decimal integer reads as 0 (no such row, so 404);
 * so does a number beyond the id range (no row can have it) instead of overflowing the database driver.
 */
export function intParam(raw: string | undefined): number {
  if (!raw || !/^\+?\d{1,20}$/.test(raw)) return 0;
  const n = Number(raw);
  return n <= MAX_DB_INT ? n : 0;
}

/** The `{index}` of an issue or pull request path. */
export const indexParam = (params: Record<string, string>): number => intParam(params.index);

/** The `{id}` of a path. */
export const idParam = (params: Record<string, string>): number => intParam(params.id);

/** A JSON schema fragment as the OpenAPI document shows a parameter (OpenAPI 3.0 Schema Object). */
export type ParamSchema = Record<string, unknown>;

/** How the document shows one query parameter. */
export interface QueryParamDoc {
  schema: ParamSchema;
  description: string;
  /** `form` with `explode: true`: the parameter may repeat (`labels=1&labels=2`). */
  repeated?: boolean;
  deprecated?: boolean;
}

const QUERY_DOCS = new WeakMap<z.ZodType, QueryParamDoc>();

/** The document's description of a query parameter schema built here (undefined for others). */
export function queryParamDoc(schema: z.ZodType): QueryParamDoc | undefined {
  return QUERY_DOCS.get(schema);
}

function documented<T extends z.ZodType>(schema: T, doc: QueryParamDoc): T {
  QUERY_DOCS.set(schema, doc);
  return schema;
}

/** Gitea's Form* read the first value of a repeated key. */
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);
const firstString = (v: unknown): string | undefined => {
  const f = first(v);
  return typeof f === 'string' ? f : undefined;
};

/** Go's strconv.ParseInt(v, 10, 64): a decimal integer that fits 64 bits, or null. */
function parseInt64(v: string | undefined): number | null {
  const s = v?.trim();
  if (!s || !/^[+-]?\d{1,19}$/.test(s)) return null;
  const n = BigInt(s);
  if (n > 9_223_372_036_854_775_807n || n < -9_223_372_036_854_775_808n) return null;
  return Number(n);
}

/**
 * A string query parameter (FormString; the first value wins), passed on as given. `enum`/`default` document the
 * values the service knows (it reads others as it documents, e.g. an unknown sort as the default order).
 */
export function qString(description: string, opts: { enum?: readonly string[]; default?: string; deprecated?: boolean } = {}) {
  const schema: ParamSchema = { type: 'string' };
  if (opts.enum) schema.enum = [...opts.enum];
  if (opts.default !== undefined) schema.default = opts.default;
  return documented(z.preprocess(firstString, z.string().optional()), {
    schema,
    description,
    ...(opts.deprecated ? { deprecated: true } : {}),
  });
}

/** One of `values`, or unset when absent or anything else. */
export function qOneOf<const V extends readonly [string, ...string[]]>(values: V, description: string) {
  return documented(
    z
      .preprocess(firstString, z.string().optional())
      .transform((v): V[number] | undefined =>
        v !== undefined && (values as readonly string[]).includes(v) ? (v as V[number]) : undefined,
      ),
    { schema: { type: 'string', enum: [...values] }, description },
  );
}

/** A boolean filter (FormOptionalBool): `true`/`1` or `false`/`0`; anything else reads as unset. */
export function qBool(description: string, defaultValue?: boolean) {
  return documented(
    z.preprocess((v) => {
      const s = firstString(v);
      return s === 'true' || s === '1' ? true : s === 'false' || s === '0' ? false : undefined;
    }, z.boolean().optional()),
    { schema: { type: 'boolean', ...(defaultValue === undefined ? {} : { default: defaultValue }) }, description },
  );
}

/**
 * An integer filter (FormInt64): unparsable values, and values beyond the 32-bit range of our columns,
 * read as unset, as Gitea reads unparsable ones.
 */
export function qInt(description: string) {
  return documented(
    z.preprocess((v) => {
      const n = parseInt64(firstString(v));
      return n !== null && Math.abs(n) <= MAX_DB_INT ? n : undefined;
    }, z.number().int().optional()),
    { schema: { type: 'integer', format: 'int64' }, description },
  );
}

/** One of `values`; anything else (or nothing) reads as `fallback`, as Gitea's lists read an unknown state as the default. */
export function qEnum<const V extends readonly [string, ...string[]], const D extends V[number]>(
  values: V,
  fallback: D,
  description: string,
) {
  return documented(
    z
      .preprocess(firstString, z.string().optional())
      .transform((v): V[number] => (v !== undefined && (values as readonly string[]).includes(v) ? (v as V[number]) : fallback)),
    { schema: { type: 'string', enum: [...values], default: fallback }, description },
  );
}

/** One of `values` or unset; any other value is a 422. */
export function qStrictEnum<const V extends readonly [string, ...string[]]>(values: V, description: string) {
  return documented(z.preprocess(firstString, z.enum(values).optional()), { schema: { type: 'string', enum: [...values] }, description });
}

/** A comma-separated list (`labels=a,b`): trimmed, blanks dropped; unset when empty. */
export function qCsv(description: string) {
  return documented(
    z.preprocess(firstString, z.string().optional()).transform((v) => {
      const items = (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return items.length ? items : undefined;
    }),
    { schema: { type: 'string' }, description },
  );
}

/** A parameter that may repeat (`labels=1&labels=2`): every value, in order. */
export function qRepeated(description: string, items: ParamSchema = { type: 'string' }) {
  return documented(
    z.preprocess(
      (v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).filter((s): s is string => typeof s === 'string')),
      z.array(z.string()).optional(),
    ),
    { schema: { type: 'array', items }, description, repeated: true },
  );
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Gitea GetQueryBeforeSince: an RFC 3339 time (blank = unset); anything else is a 422 naming the value. */
export function qTime(description: string) {
  return documented(
    z.preprocess((v, ctx) => {
      const s = firstString(v)?.trim();
      if (!s) return undefined;
      const d = new Date(s);
      if (RFC3339.test(s) && !Number.isNaN(d.getTime())) return d;
      ctx.addIssue({ code: 'custom', message: `parsing time "${cut(s, 64)}" as RFC3339 failed`, params: { verbatim: true } });
      return z.NEVER;
    }, z.date().optional()),
    { schema: { type: 'string', format: 'date-time' }, description },
  );
}

/** Gitea's `page`: 1-based; below 1, unparsable or beyond 64 bits → 1; past the id range, past any data. */
export const qPage = documented(
  z.preprocess((v) => {
    const n = parseInt64(firstString(v));
    return n !== null && n > 0 ? Math.min(n, MAX_DB_INT) : 1;
  }, z.number().int()),
  { schema: { type: 'integer', minimum: 1, default: 1 }, description: 'page number of results to return (1-based)' },
);

/** Gitea's `limit`: ≤ 0, unparsable or beyond 64 bits → 30; above 50 → 50. */
export const qLimit = documented(
  z.preprocess((v) => {
    const n = parseInt64(firstString(v));
    return n === null || n <= 0 ? DEFAULT_PAGE_SIZE : Math.min(n, MAX_PAGE_SIZE);
  }, z.number().int()),
  {
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    description: `page size of results (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`,
  },
);

/**
 * The page to load. A page whose offset no row can reach (the 32-bit range) is clamped to the last such page,
 * which is empty anyway; the Link header clamps it to the real last page.
 */
export function listOptionsOf(query: { page: number; limit: number }): ListOptions {
  const lastPage = Math.floor(MAX_DB_INT / query.limit);
  return { page: Math.min(query.page, lastPage), pageSize: query.limit };
}
