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

/** Form values are strings; JSON values are typed. These accept both, as Gitea's binding does. */
export const zBool = z.preprocess(
  (v) => (v === 'true' || v === 'on' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
);
export const zInt = z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int());
export const zStringList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string()));
/** Query booleans: absent or unparsable → undefined (Gitea ignores bad optional filters). */
export const zQueryBool = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined),
  z.boolean().optional(),
);
export const zQueryInt = z.preprocess(
  (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : undefined),
  z.number().int().optional(),
);

const GO_NAMES = new WeakMap<z.ZodType, string>();

/** Names a body field by its Go struct field where goFieldName would guess wrong (CreateOrgOption.UserName). */
export function goName<T extends z.ZodType>(schema: T, name: string): T {
  GO_NAMES.set(schema, name);
  return schema;
}

/** Parses `value` with `schema`, turning the first problem into a Gitea-style 422 (`[Field]: Rule`). */
export function bind<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.filter((p): p is string => typeof p === 'string').join('.') ?? '';
  const rule = ruleOf(issue);
  if (!field) throw new ValidationError(`[]: ${issue?.message ?? 'invalid body'}`);
  const fieldSchema = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[field] : undefined;
  const goField = fieldSchema ? GO_NAMES.get(fieldSchema) : undefined;
  throw new ValidationError(rule, { field, rule, ...(goField ? { goField } : {}) });
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
