import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Prisma } from '../generated/sqlite/client.ts';
import { getDatamodel } from '../generated/sqlite/pothos-types.ts';
import { ROOT } from '../paths.ts';
import type { DbLike, Models } from './client.ts';
import { executeSql, querySql } from './rawStatements.ts';
import { rowsOf, type ModelName, type ModelRow } from './rowShape.ts';

/** A row of `model` as its `createMany` takes it. */
export type InsertRow<M extends ModelName> = Extract<
  Models.Prisma.TypeMap['model'][M]['operations']['createMany']['args']['data'],
  readonly unknown[]
>[number];

/** A column value as both drivers bind it. */
type Value = string | number | bigint | boolean | Date | null;

/** Per model, what a row that leaves a column out gets: the schema's literal default, or `now` for timestamps. */
interface Defaults {
  literal: Map<string, Value>;
  /** DateTime columns defaulting to `now()` and `@updatedAt` columns: one timestamp per statement, as Prisma does. */
  now: string[];
  /** Optional columns: null when left out. */
  optional: Set<string>;
}
let defaults: Map<string, Defaults> | null = null;

/**
 * The defaults of every model: literals (`@default("")`, `0`, `false`, an enum value) read once from
 * prisma/schema.prisma, timestamps and optional columns from the generated data model.
 */
function defaultsOf(model: ModelName): Defaults {
  if (!defaults) {
    defaults = new Map();
    const literals = schemaLiterals(readFileSync(path.join(ROOT, 'prisma', 'schema.prisma'), 'utf8'));
    for (const [name, m] of Object.entries(getDatamodel().datamodel.models)) {
      const d: Defaults = { literal: literals.get(name) ?? new Map(), now: [], optional: new Set() };
      for (const f of m.fields) {
        if (f.kind !== 'scalar' && f.kind !== 'enum') continue;
        if (f.type === 'DateTime' && (f.isUpdatedAt || f.hasDefaultValue)) d.now.push(f.name);
        if (!f.isRequired) d.optional.add(f.name);
      }
      defaults.set(name, d);
    }
  }
  const d = defaults.get(model);
  if (!d) throw new Error(`unknown model ${model}`);
  return d;
}

const MODEL = /^model (\w+) \{$/;
const FIELD = /^\s+(\w+)\s+(\w+)\??\s.*@default\(("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|[A-Z_][A-Z0-9_]*)\)/;

/** Per model, its fields' literal defaults in prisma/schema.prisma (functions such as now() are not literals). */
function schemaLiterals(schema: string): Map<string, Map<string, Value>> {
  const out = new Map<string, Map<string, Value>>();
  let current: Map<string, Value> | null = null;
  for (const line of schema.split('\n')) {
    const model = MODEL.exec(line);
    if (model) out.set(model[1]!, (current = new Map()));
    else if (line === '}') current = null;
    else if (current) {
      const field = FIELD.exec(line);
      if (!field) continue;
      const [, name, type, raw] = field as unknown as [string, string, string, string];
      current.set(
        name,
        raw.startsWith('"')
          ? (JSON.parse(raw) as string)
          : raw === 'true' || raw === 'false'
            ? raw === 'true'
            : /^-?\d/.test(raw)
              ? type === 'BigInt'
                ? BigInt(raw)
                : Number(raw)
              : raw,
      );
    }
  }
  return out;
}

/** Rows per statement: well under SQLite's and PostgreSQL's limits on bound parameters. */
const MAX_PARAMETERS = 30000;

/**
 * `INSERT INTO "<model>" (…) VALUES (…), (…)`: Prisma's `createMany` of `rows` as one raw statement (per 30,000
 * values), with the same columns and values. Prisma 7 compiles every `createMany` again in its wasm query compiler,
 * because its plan cache leaves them out (prisma/orm#29382); on the writes that add a few rows (an issue's labels
 * and assignees and their comments, notifications, feed rows) that was a tenth of a write's time. A column a row
 * leaves out gets what `createMany` would give it: the schema's literal default, `now` for timestamps (one per
 * call) and null for optional columns. Resolves to the number of rows inserted.
 */
export async function insertRows<M extends ModelName>(db: DbLike, model: M, rows: readonly InsertRow<M>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const { head, values } = statementOf(model, rows);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / values[0]!.length));
  let inserted = 0;
  try {
    for (let i = 0; i < values.length; i += perStatement) {
      const tuples = values.slice(i, i + perStatement).map((v) => Prisma.sql`(${Prisma.join(v)})`);
      inserted += await executeSql(db, Prisma.sql`${head}${Prisma.join(tuples)}`);
    }
  } catch (err) {
    throw asModelError(err, model);
  }
  return inserted;
}

/**
 * Prisma's `create` of one row (no relations) as one raw `INSERT … RETURNING *`: the stored row, with the same
 * defaults as insertRows and Prisma's types (rowShape.ts), and the same errors as `create`.
 */
export async function insertRowReturning<M extends ModelName>(db: DbLike, model: M, row: InsertRow<M>): Promise<ModelRow<M>> {
  const { head, values } = statementOf(model, [row]);
  try {
    const rows = await querySql(db, Prisma.sql`${head}(${Prisma.join(values[0]!)}) RETURNING *`);
    return rowsOf(model, rows)[0]!;
  } catch (err) {
    throw asModelError(err, model);
  }
}

/** The `INSERT INTO "<model>" (…) VALUES ` head and each row's values, every left-out column given its default. */
function statementOf<M extends ModelName>(model: M, rows: readonly InsertRow<M>[]): { head: Prisma.Sql; values: Value[][] } {
  const d = defaultsOf(model);
  const now = new Date();
  const columns = new Set<string>(d.now);
  for (const row of rows) for (const [k, v] of Object.entries(row as object)) if (v !== undefined) columns.add(k);
  const names = [...columns];
  const values = (rows as readonly Record<string, Value | undefined>[]).map((row) =>
    names.map((c) => {
      const v = row[c];
      if (v !== undefined) return v;
      if (d.literal.has(c)) return d.literal.get(c)!;
      if (d.now.includes(c)) return now;
      if (d.optional.has(c)) return null;
      throw new Error(`insertRows: ${model}.${c} has no value and no default`);
    }),
  );
  return { head: Prisma.raw(`INSERT INTO "${model}" (${names.map((c) => `"${c}"`).join(', ')}) VALUES `), values };
}

/** The codes a model query gives the driver's constraint and conflict errors, which a raw query reports as P2010. */
const CODES: Record<string, string> = {
  UniqueConstraintViolation: 'P2002',
  ForeignKeyConstraintViolation: 'P2003',
  NullConstraintViolation: 'P2011',
  TransactionWriteConflict: 'P2034',
};

/**
 * A raw query's error as `createMany` would have thrown it (a unique violation is P2002, not P2010), so callers
 * that catch a race (isUniqueViolation, withRetry) see no difference.
 */
export function asModelError(err: unknown, model: string): unknown {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== 'P2010') return err;
  const cause = (err.meta?.driverAdapterError as { cause?: { kind?: string; originalMessage?: string } } | undefined)?.cause;
  const code = cause?.kind ? CODES[cause.kind] : undefined;
  if (!code) return err;
  return new Prisma.PrismaClientKnownRequestError(cause?.originalMessage ?? err.message, {
    code,
    clientVersion: err.clientVersion,
    meta: { ...err.meta, modelName: model },
  });
}
