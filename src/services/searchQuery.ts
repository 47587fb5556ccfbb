// GitHub's search syntax (the `query` of GraphQL `search` and of REST /search/*): words, "quoted phrases",
// `qualifier:value` and `qualifier:"quoted value"`, `-qualifier:value` to exclude.
import { InvalidArgumentError } from '../errors.ts';
import type { ServiceContext } from './context.ts';

/** One term of a search query. */
export interface SearchTerm {
  /** The qualifier, lower-cased, when the term is `qualifier:value` with a qualifier of `known`; else null (text). */
  qualifier: string | null;
  /** The value (the text itself for a word or phrase), unquoted. */
  value: string;
  /** Whether the term was written with a leading `-`. */
  negated: boolean;
  /** The term as written. */
  raw: string;
}

const TERM = /(-?)(?:([A-Za-z][A-Za-z-]*):)?(?:"([^"]*)"?|(\S+))/g;

/**
 * The terms of a search query. A `name:value` whose name is not one of `known` (GitHub's qualifiers of that kind
 * of search) is text, as GitHub reads it.
 */
export function parseSearchQuery(query: string, known: ReadonlySet<string>): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const m of query.matchAll(TERM)) {
    const [raw, minus, name, quoted, bare] = m;
    const value = quoted ?? bare ?? '';
    const qualifier = name?.toLowerCase();
    if (qualifier && known.has(qualifier)) terms.push({ qualifier, value, negated: minus === '-', raw });
    else terms.push({ qualifier: null, value: name ? `${name}:${value}` : value, negated: minus === '-', raw });
  }
  return terms.filter((t) => t.value !== '' || t.qualifier !== null);
}

/** The error for a qualifier GitHub has that this search does not implement. */
export function unsupportedQualifier(term: SearchTerm): InvalidArgumentError {
  const which = `${term.negated ? '-' : ''}${term.qualifier ?? ''}:`;
  return new InvalidArgumentError(`The search qualifier "${which}" is not supported (in "${term.raw}").`, {
    qualifier: which,
  });
}

/** The error for a value a qualifier does not take. */
export function invalidQualifierValue(term: SearchTerm, expected: string): InvalidArgumentError {
  return new InvalidArgumentError(`"${term.raw}": ${term.qualifier}: takes ${expected}.`, { qualifier: `${term.qualifier}:` });
}

/** A login named in a query: `@me` is the viewer. @throws InvalidArgumentError for `@me` without a signed-in viewer */
export function loginOf(cx: ServiceContext, term: SearchTerm): string {
  if (term.value.toLowerCase() !== '@me') return term.value;
  if (!cx.viewer) throw new InvalidArgumentError(`"${term.raw}": @me needs a signed-in viewer.`, { qualifier: `${term.qualifier}:` });
  return cx.viewer.name;
}

/** A `true`/`false` qualifier value. */
export function booleanOf(term: SearchTerm): boolean {
  const v = term.value.toLowerCase();
  if (v !== 'true' && v !== 'false') throw invalidQualifierValue(term, 'true or false');
  return v === 'true';
}

/** A `sort:` value `<field>` or `<field>-asc|desc` among `fields`; a bare field sorts descending (as GitHub). */
export function sortOf<F extends string>(term: SearchTerm, fields: readonly F[]): { field: F; direction: 'asc' | 'desc' } {
  const m = /^([a-z-]+?)(?:-(asc|desc))?$/.exec(term.value.toLowerCase());
  const field = fields.find((f) => f === m?.[1]);
  if (!m || !field) throw invalidQualifierValue(term, fields.map((f) => `${f}-asc, ${f}-desc`).join(', '));
  return { field, direction: m[2] === 'asc' ? 'asc' : 'desc' };
}

/**
 * The qualified terms of a query, its words pushed to `words`. Excluding (`-word`, `-qualifier:value`) is not
 * supported and refused by name.
 */
export function qualifiedTerms(query: string, known: ReadonlySet<string>, words: string[]): (SearchTerm & { qualifier: string })[] {
  const qualified: (SearchTerm & { qualifier: string })[] = [];
  for (const term of parseSearchQuery(query, known)) {
    if (term.qualifier === null) {
      if (term.negated) throw new InvalidArgumentError(`Excluding words is not supported (in "${term.raw}").`, { term: term.raw });
      words.push(term.value);
    } else if (term.negated) {
      throw unsupportedQualifier(term);
    } else {
      qualified.push({ ...term, qualifier: term.qualifier });
    }
  }
  return qualified;
}

/** Adds the fields an `in:` term names (comma-separated, each one of `allowed`) to `into`. */
export function addInFields<F extends string>(term: SearchTerm, allowed: readonly F[], into: Set<F>): void {
  for (const f of term.value.toLowerCase().split(',')) {
    const field = allowed.find((a) => a === f);
    if (!field) throw invalidQualifierValue(term, allowed.join(' or '));
    into.add(field);
  }
}
