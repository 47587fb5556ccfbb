import type * as S from '../generated/sqlite/client.ts';
import { getDatamodel } from '../generated/sqlite/pothos-types.ts';

/** A model of the Prisma schema. */
export type ModelName = S.Prisma.ModelName;
/** A model's row as Prisma returns it (scalar columns). */
export type ModelRow<M extends ModelName> = S.Prisma.TypeMap['model'][M]['payload']['scalars'];

type Convert = (v: unknown) => unknown;

// SQLite stores DateTime as ISO text (`…+00:00`; SQL defaults write `YYYY-MM-DD HH:MM:SS`, UTC), booleans as
// 0/1 and BigInt as integers; PostgreSQL's driver (readPath.ts) already returns Date, boolean and bigint.
const ZONED = /[zZ]|[+-]\d\d:?\d\d$/;
const toDate: Convert = (v) => {
  if (v === null || v instanceof Date) return v;
  if (typeof v === 'number') return new Date(v);
  const s = String(v);
  // Prisma's own writes end in `+00:00`: the common case needs no pattern.
  if (s.endsWith('+00:00') || ZONED.test(s)) return new Date(s);
  return new Date(`${s.replace(' ', 'T')}Z`);
};
const toBoolean: Convert = (v) => (v === null || typeof v === 'boolean' ? v : Boolean(v));
const toBigInt: Convert = (v) => (v === null || typeof v === 'bigint' ? v : BigInt(v as number | string));
const toBytes: Convert = (v) => (v === null || v instanceof Uint8Array ? v : Buffer.from(v as string));

const CONVERTERS: Record<string, Convert> = { DateTime: toDate, Boolean: toBoolean, BigInt: toBigInt, Bytes: toBytes };

interface ModelShape {
  columns: string[];
  conversions: [string, Convert][];
}
let shapes: Map<string, ModelShape> | null = null;

/** Per model, its columns and those whose driver value differs from Prisma's (read once from the datamodel). */
function shapeOf(model: ModelName): ModelShape {
  if (!shapes) {
    shapes = new Map();
    for (const [name, m] of Object.entries(getDatamodel().datamodel.models)) {
      const shape: ModelShape = { columns: [], conversions: [] };
      for (const f of m.fields) {
        if (f.kind !== 'scalar' && f.kind !== 'enum') continue;
        shape.columns.push(f.name);
        const convert = f.kind === 'scalar' ? CONVERTERS[f.type] : undefined;
        if (convert) shape.conversions.push([f.name, convert]);
      }
      shapes.set(name, shape);
    }
  }
  const shape = shapes.get(model);
  if (!shape) throw new Error(`unknown model ${model}`);
  return shape;
}

/** The select list of `model`'s columns (`a."id", a."name", …`) without `omit`: SQL for both databases. */
export function columnsOf<M extends ModelName>(model: M, alias: string, omit: readonly (keyof ModelRow<M> & string)[] = []): string {
  const key = `${model} ${alias} ${omit.join(' ')}`;
  let list = selectLists.get(key);
  if (list === undefined) {
    list = shapeOf(model)
      .columns.filter((c) => !omit.includes(c as keyof ModelRow<M> & string))
      .map((c) => `${alias}."${c}"`)
      .join(', ');
    selectLists.set(key, list);
  }
  return list;
}
const selectLists = new Map<string, string>();

/**
 * Driver rows of `model` with Prisma's JS types; columns not selected stay absent. The rows of one statement
 * have the same columns: which of them need converting is decided on the first row, not asked of every row.
 */
export function rowsOf<M extends ModelName>(model: M, rows: Record<string, unknown>[]): ModelRow<M>[] {
  const first = rows[0];
  if (first === undefined) return rows as ModelRow<M>[];
  const present = shapeOf(model).conversions.filter(([name]) => name in first);
  if (present.length === 0) return rows as ModelRow<M>[];
  for (const row of rows) {
    for (let i = 0; i < present.length; i++) {
      const [name, convert] = present[i]!;
      row[name] = convert(row[name]);
    }
  }
  return rows as ModelRow<M>[];
}

type Copier = (row: object, extra: object) => object;
const copiers = new Map<string, Copier>();

/**
 * `{ ...row, ...extra }` for a row of `model` that carries every column (a `SELECT *` or a Prisma row without
 * `select`; other keys of `row` are not copied), built by an object literal compiled once per model and set of
 * extra keys. On Node 20 (V8 11.3) any object literal that starts with a spread and has anything after it (a
 * property or another spread) is slow (measured: `{ ...src, a }` of a 2- to 9-key object 1.4–3.2 µs, `{ ...a, ...b }`
 * 1.8 µs, a 9-key row with five added ~25 µs, a 48-column repository with five relations ~35 µs; this: ~0.2 µs).
 * A literal that starts with a property (`{ a, ...src }`) and `Object.assign({}, src, extra)` are fast (0.1–0.4 µs).
 * Node 24's V8 is fast either way. The other places that avoid the pattern point here.
 */
export function rowWith<M extends ModelName, E extends object>(model: M, row: ModelRow<M>, extra: E): ModelRow<M> & E {
  const extraKeys = Object.keys(extra);
  const key = `${model}\0${extraKeys.join('\0')}`;
  let copy = copiers.get(key);
  if (!copy) {
    const columns = shapeOf(model).columns.filter((c) => !extraKeys.includes(c));
    const fields = [
      ...columns.map((c) => `${JSON.stringify(c)}: r[${JSON.stringify(c)}]`),
      ...extraKeys.map((k) => `${JSON.stringify(k)}: e[${JSON.stringify(k)}]`),
    ];
    copy = new Function('r', 'e', `return { ${fields.join(', ')} };`) as Copier;
    copiers.set(key, copy);
  }
  return copy(row, extra) as ModelRow<M> & E;
}
