/** Form or query fields: the first value of each name, strings only. */
export type Fields = Partial<Record<string, string>>;

/** The string fields of a parsed query or body (a repeated name keeps its first value; anything else is dropped). */
export function fieldsOf(input: unknown): Fields {
  const out: Fields = {};
  if (typeof input !== 'object' || input === null) return out;
  for (const [k, v] of Object.entries(input)) {
    const value: unknown = Array.isArray(v) ? v[0] : v;
    if (typeof value === 'string') out[k] = value;
  }
  return out;
}
