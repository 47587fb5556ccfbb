import { z } from 'zod';
import type { ListOptions } from '../services/paging.ts';
import { Listed } from './pagination.ts';
import { listOptionsOf, qLimit, qPage } from './params.ts';
import { defineRoute, type ApiInput, type ListHeaders, type RouteDef } from './route.ts';

const PAGING = { page: qPage, limit: qLimit };

/** The query of a list route: its own parameters plus `page` and `limit`. */
type ListQuery<Q extends z.ZodObject> = z.output<Q> & { page: number; limit: number };

/** What a list route's `load` and `convert` receive: the handler's input and the page to load. */
type ListInput<Q extends z.ZodObject> = ApiInput<undefined, ListQuery<Q>> & { page: ListOptions };

/** A paginated GET: Gitea's list sequence (page/limit → service → pagination headers → convert) in one place. */
export interface ListDef<Q extends z.ZodObject, R extends { total: number }> extends Omit<
  RouteDef<undefined, Q>,
  'method' | 'body' | 'query' | 'handler' | 'list' | 'success'
> {
  /** The list's own query parameters; `page` and `limit` are added. */
  query?: Q;
  /** Which pagination headers Gitea sends on this list. */
  headers: ListHeaders;
  /** The response body's component name: `[Item]`, or a wrapper such as `SearchResults`. */
  schema: string;
  /** An empty page is answered `null` (Gitea's reaction lists). */
  nullable?: true;
  /** Loads one page; `total` counts the whole list. */
  load: (input: ListInput<Q>) => Promise<R>;
  /** The response body of the page. */
  convert: (result: R, input: ListInput<Q>) => unknown;
}

/** Defines a paginated GET route (see ListDef). */
export function defineList<Q extends z.ZodObject = z.ZodObject<Record<never, never>>, R extends { total: number } = { total: number }>(
  def: ListDef<Q, R>,
): RouteDef {
  const { query, headers, schema, nullable, load, convert, ...doc } = def;
  return defineRoute({
    ...doc,
    method: 'GET',
    query: (query ?? z.object({})).extend(PAGING),
    list: headers,
    success: { status: 200, schema, ...(nullable ? { nullable } : {}) },
    handler: async (input) => {
      // The route's input (made for this request; a GET has no body) with the page added in place, not copied
      // (on Node 20 a spread copy with properties added costs microseconds: src/db/rowShape.ts).
      const listInput = Object.assign(input, { page: listOptionsOf(input.query) }) as ListInput<Q>;
      const result = await load(listInput);
      return new Listed(convert(result, listInput), result.total, listInput.page);
    },
  }) as RouteDef;
}
