import { z } from 'zod';
import { ValidationError } from '../errors.ts';

const ACRONYMS = new Set(['id', 'url', 'uid', 'sha', 'ssh', 'http', 'api', 'ip', 'uuid', 'html', 'lfs']);

/** Gitea names fields by their Go struct names in binding errors: `login_name` → `LoginName`, `source_id` → `SourceID`. */
export function goFieldName(jsonName: string): string {
  return jsonName
    .split(/[_.]/)
    .map((p) => (ACRONYMS.has(p) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1)))
    .join('');
}

const WIRE_TYPES = new WeakMap<z.ZodType, Record<string, unknown>>();

/** Records the JSON type a lenient schema accepts on the wire, for the OpenAPI document (its input side is opaque). */
export function wireType<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  WIRE_TYPES.set(schema, json);
  return schema;
}

/** The wire type recorded for a schema built here, if any. */
export function wireTypeOf(schema: z.ZodType): Record<string, unknown> | undefined {
  return WIRE_TYPES.get(schema);
}

/** Form values are strings; JSON values are typed. These accept both, as Gitea's binding does. */
export const zBool = wireType(
  z.preprocess((v) => (v === 'true' || v === 'on' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean()),
  { type: 'boolean' },
);
/** An integer field; beyond the 32-bit range of our columns it is refused (MaxSize/MinSize) rather than overflowing. */
export const zInt = wireType(
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z.number().int().min(-2_147_483_648).max(2_147_483_647),
  ),
  { type: 'integer', format: 'int64' },
);
/** A list of strings; a single string is a list of one. */
export const zStringList = wireType(
  z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string())),
  { type: 'array', items: { type: 'string' } },
);

const ALIASES = new WeakMap<z.ZodType, { aliases: string[]; required: string[] }>();

/**
 * A body whose fields `aliases` are Go-name aliases of others (Gitea's UnmarshalJSON accepts both spellings): they
 * are parsed and read like the rest, but the OpenAPI document names only the JSON fields, `required` among them
 * (required there as in Gitea's document; on the wire the alias may stand in).
 */
export function withAliases<T extends z.ZodObject>(schema: T, aliases: Array<keyof T['shape'] & string>, required: string[] = []): T {
  ALIASES.set(schema, { aliases, required });
  return schema;
}

/** The alias fields of a body schema and the fields its document requires (withAliases), if any. */
export function aliasesOf(schema: z.ZodType): { aliases: string[]; required: string[] } | undefined {
  return ALIASES.get(schema);
}

const GO_NAMES = new WeakMap<z.ZodType, string>();

/** Names a body field by its Go struct field where goFieldName would guess wrong (CreateOrgOption.UserName). */
export function goName<T extends z.ZodType>(schema: T, name: string): T {
  GO_NAMES.set(schema, name);
  return schema;
}

/** The Go field names a body schema sets with goName, by JSON field name (binding messages name Go fields). */
export function goNamesOf(schema: z.ZodType): Record<string, string> {
  if (!(schema instanceof z.ZodObject)) return {};
  const names: Record<string, string> = {};
  for (const [field, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const name = GO_NAMES.get(fieldSchema);
    if (name) names[field] = name;
  }
  return names;
}

/**
 * Parses `value` with `schema`, turning the first problem into a Gitea-style 422: `[Field]: Rule` (the REST
 * error handler names the Go field), or a message of its own for a check that says so (`params.verbatim`).
 */
export function bind<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const nul = nulPath(value, []);
  if (nul) throw new ValidationError('Invalid', { field: nul.filter((p) => typeof p === 'string').join('.'), rule: 'Invalid' });
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.filter((p): p is string => typeof p === 'string').join('.') ?? '';
  if (issue?.code === 'custom' && issue.params?.verbatim === true) throw new ValidationError(issue.message, { param: field });
  const rule = ruleOf(issue);
  if (!field) throw new ValidationError(`[]: ${issue?.message ?? 'invalid body'}`);
  throw new ValidationError(rule, { field, rule });
}

/**
 * Where a string (or a key) holding a NUL character is, if anywhere. No text field can store one (PostgreSQL
 * refuses it), so input with NUL is refused as a whole before it reaches a service.
 */
function nulPath(value: unknown, at: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\0') ? at : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = nulPath(v, [...at, i]);
      if (found) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const found = k.includes('\0') ? [...at, k] : nulPath(v, [...at, k]);
      if (found) return found;
    }
  }
  return null;
}

function ruleOf(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'Invalid';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Required' : `${issue.message}`;
    case 'too_big':
      return 'MaxSize';
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 ? 'Required' : 'MinSize';
    case 'invalid_value':
      return 'In';
    case 'invalid_format':
      return issue.format === 'email' ? 'Email' : issue.format === 'url' ? 'Url' : 'Invalid';
    default:
      return issue.message;
  }
}
