import { GraphQLError } from 'graphql';

/**
 * Every GraphQL limit, each reported by name (`extensions.limit`) and maximum (`extensions.max`) when exceeded.
 * In request order: the document limits apply to the raw text before it is parsed; breadth and duplicates to the
 * syntax tree before it is validated; depth while it is validated; complexity and page sizes (`first`/`last`,
 * `nodes(ids:)`) before anything executes; the deadline while it executes.
 */
export const LIMITS = {
  /** UTF-8 bytes of the query document (variables not included). */
  size: 256 * 1024,
  /** Lexical tokens of the document (graphql-js `parse` option `maxTokens`). */
  tokens: 10_000,
  /** Aliased fields in the document, `__typename` included. */
  aliases: 200,
  /** Directives (`@include`, `@skip`, …) in the document. */
  directives: 100,
  /** Levels of nested fields; inline fragments add none, fragment spreads add their fragment's depth. */
  depth: 20,
  /** Fields one operation selects, fragments expanded, `__typename` included (checked before validation). */
  breadth: 500,
  /** Fields sharing one response name in one selection set, inline fragments and spreads merged (before validation). */
  duplicates: 50,
  /**
   * GitHub's node limit: the nodes an operation may return, counted as GitHub counts them — each connection's
   * `first`/`last` (the default page size when neither is given) times the `first`/`last` of every connection around
   * it, summed; other fields count nothing. GitHub's maximum: GitHub's clients fit as they fit there (`gh pr status`,
   * three lists of 10 pull requests each with 100 check contexts and 100 latest reviews, is about 6,000 nodes). The
   * breadth and depth limits bound the fields, the deadline the work.
   */
  complexity: 500_000,
  /** Ids in one `nodes(ids:)` call (GitHub's limit). */
  nodeIds: 100,
  /** Wall-clock milliseconds for one operation's execution. */
  deadline: 15_000,
} as const;

/** The name of a limit, as reported in `extensions.limit`. */
export type LimitName = keyof typeof LIMITS;

/** The document limits checked before parsing. */
export type DocumentLimits = Pick<Record<LimitName, number>, 'size' | 'tokens' | 'aliases' | 'directives' | 'depth'>;

/**
 * A refusal naming its limit: `extensions: { code, limit, max }` (plus `value` when it is known). It is a request
 * error, like a validation error: HTTP 400 for clients that accept `application/graphql-response+json`, 200 for
 * `application/json` ones (GraphQL over HTTP; Yoga reads `http.spec`). An oversized document is always 413.
 */
export function limitError(
  message: string,
  ext: { code: string; limit: string; max: number; value?: number },
  status: 400 | 413 = 400,
): GraphQLError {
  return new GraphQLError(message, { extensions: { ...ext, http: { status, spec: status === 400 } } });
}
