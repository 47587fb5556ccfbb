/** The texts one call site of `sql` built, with the values each was built from. */
interface Built {
  values: readonly (string | number)[];
  text: string;
}

/** Per call site (its template's strings, the same object on every call), the texts it built. */
const sites = new WeakMap<TemplateStringsArray, Built[]>();

/** Texts kept per call site: a site builds a few (a column list, one of two clauses); beyond, texts are built afresh. */
const MAX_PER_SITE = 16;

const sameValues = (a: readonly (string | number)[], b: readonly (string | number)[]): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * A statement's text from a template literal (`sql\`SELECT ${columns} FROM …\``), as the same string object each
 * time the call site gives the same values. The read path keys its caches by a statement's text (its expansions and
 * prepared statements, readPath.ts): a text built afresh on every call is a new string that the first lookup must
 * flatten and hash, ~1 µs for a 600-character statement (`node` on Node 20 and 24), several times a request. Values
 * are interpolated as they are: they are SQL (column lists, clauses), never user input.
 */
export function sql(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  let built = sites.get(strings);
  if (built) {
    for (const b of built) if (sameValues(b.values, values)) return b.text;
  } else {
    sites.set(strings, (built = []));
  }
  let text = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) text += `${values[i]}${strings[i + 1] ?? ''}`;
  if (built.length < MAX_PER_SITE) built.push({ values, text });
  return text;
}
