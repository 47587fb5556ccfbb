import { Lexer, Source, TokenKind, type GraphQLError } from 'graphql';
import { limitError, type DocumentLimits } from './limits.ts';

const complex = (limit: keyof DocumentLimits, max: number, what: string) =>
  limitError(`Query exceeds the ${limit} limit: ${what}`, { code: 'QUERY_TOO_COMPLEX', limit, max });

/**
 * The first document limit `source` exceeds, or null. Runs before the parser, on graphql-js's own lexer: it holds
 * a few counters (no syntax tree, no recursion) and stops at the first violation, so an abusive document costs
 * only the tokens read up to its limit. Nesting is checked here because the parser recurses once per level.
 * The depth counted here is the depth rule's, minus fragment spreads (which do not nest the parser), so this
 * never refuses what the depth rule accepts. A document with a syntax error is left to the parser to report.
 */
export function scanDocument(source: string, limits: DocumentLimits): GraphQLError | null {
  // UTF-8 needs at least one byte per UTF-16 unit: the length alone settles most oversized documents.
  const bytes = source.length > limits.size ? source.length : Buffer.byteLength(source, 'utf8');
  if (bytes > limits.size) {
    return limitError(
      `Query document exceeds the size limit: ${bytes} bytes is more than the maximum of ${limits.size} bytes`,
      { code: 'DOCUMENT_TOO_LARGE', limit: 'size', value: bytes, max: limits.size },
      413,
    );
  }
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let aliases = 0;
  let directives = 0;
  /** Open `(`: inside them are arguments and variable definitions, whose `{` and `[` are values, not selections. */
  let parens = 0;
  /** Open `[`/`{` inside parentheses (list and object values, list types): the parser recurses on each. */
  let values = 0;
  /** Field depth of each open selection set: a field's set is one deeper than its parent, an inline fragment's is not. */
  const sets: number[] = [];
  /** The last name in the current selection set was a field's, so a `{` now opens that field's selections. */
  let field = false;
  /** Names that are not fields: a directive's name (after `@`) and a type condition (after `... on`). */
  let skipNames = 0;
  let afterSpread = false;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > limits.tokens) return complex('tokens', limits.tokens, `more than the maximum of ${limits.tokens} tokens`);
      const spread = afterSpread;
      afterSpread = false;
      switch (token.kind) {
        case TokenKind.NAME:
          if (skipNames > 0) skipNames--;
          else if (parens > 0) break;
          else if (spread) {
            // `... on Type` (inline fragment) or `...Name` (fragment spread): neither is a field.
            if (token.value === 'on') skipNames = 1;
            field = false;
          } else {
            const level = sets.at(-1);
            if (level === undefined) break; // operation and fragment headers
            field = true;
            if (level + 1 > limits.depth) {
              return complex('depth', limits.depth, `fields nest deeper than the maximum of ${limits.depth} levels`);
            }
          }
          break;
        case TokenKind.SPREAD:
          afterSpread = true;
          field = false;
          break;
        case TokenKind.AT:
          if (++directives > limits.directives) {
            return complex('directives', limits.directives, `more than the maximum of ${limits.directives} directives`);
          }
          skipNames = 1;
          break;
        case TokenKind.COLON:
          // Outside parentheses a colon can only follow an alias.
          if (parens === 0 && ++aliases > limits.aliases) {
            return complex('aliases', limits.aliases, `more than the maximum of ${limits.aliases} aliases`);
          }
          break;
        case TokenKind.PAREN_L:
          parens++;
          break;
        case TokenKind.PAREN_R:
          parens = Math.max(0, parens - 1);
          break;
        case TokenKind.BRACKET_L:
        case TokenKind.BRACE_L:
          if (parens > 0 || token.kind === TokenKind.BRACKET_L) {
            if (++values > limits.depth) {
              return complex('depth', limits.depth, `argument values nest deeper than the maximum of ${limits.depth} levels`);
            }
          } else {
            const parent = sets.at(-1);
            sets.push(parent === undefined ? 0 : parent + (field ? 1 : 0));
            field = false;
            // Inline fragments nest selection sets without adding depth; they still make the parser recurse.
            if (sets.length > 2 * limits.depth + 1) {
              return complex(
                'depth',
                limits.depth,
                `selection sets nest deeper than ${2 * limits.depth} levels, twice the maximum of ${limits.depth}`,
              );
            }
          }
          break;
        case TokenKind.BRACKET_R:
        case TokenKind.BRACE_R:
          if (parens > 0 || token.kind === TokenKind.BRACKET_R) values = Math.max(0, values - 1);
          else {
            sets.pop();
            field = false;
          }
          break;
      }
    }
  } catch {
    // A lexical error: the parser reports it, having read no further than this scan.
  }
  return null;
}
