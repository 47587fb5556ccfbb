import type * as S from '../generated/sqlite/client.ts';
import { getDatamodel } from '../generated/sqlite/pothos-types.ts';

/** A model of the Prisma schema. */
export type ModelName = S.Prisma.ModelName;
/** A model's row as Prisma returns it (scalar columns). */
export type ModelRow<M extends ModelName> = S.Prisma.TypeMap['model'][M]['payload']['scalars'];

type Convert = (v: unknown) => unknown;

// SQLite stores DateTime as ISO text (`…+00:00`; SQL defaults write `YYYY-MM-DD HH:MM:SS`, UTC), booleans as
// 0/1 and BigInt as integers; PostgreSQL's driver (readPath.ts) already returns Date, boolean and bigint.
const toDate: Convert = (v) => {
  if (v === null || v instanceof Date) return v;
  if (typeof v === 'number') return new Date(v);
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
};
const toBoolean: Convert = (v) => (v === null || typeof v === 'boolean' ? v : Boolean(v));
const toBigInt: Convert = (v) => (v === null || typeof v === 'bigint' ? v : BigInt(v as number | string));
const toBytes: Convert = (v) => (v === null || v instanceof Uint8Array ? v : Buffer.from(v as string));

const CONVERTERS: Record<string, Convert> = { DateTime: toDate, Boolean: toBoolean, BigInt: toBigInt, Bytes: toBytes };

let conversions: Map<string, [string, Convert][]> | null = null;

/** Per model, the columns whose driver value differs from Prisma's (read once from the generated datamodel). */
function conversionsOf(model: ModelName): [string, Convert][] {
  if (!conversions) {
    conversions = new Map();
    for (const [name, m] of Object.entries(getDatamodel().datamodel.models)) {
      const list: [string, Convert][] = [];
      for (const f of m.fields) {
        const convert = f.kind === 'scalar' ? CONVERTERS[f.type] : undefined;
        if (convert) list.push([f.name, convert]);
      }
      conversions.set(name, list);
    }
  }
  return conversions.get(model) ?? [];
}

/** Driver rows of `model` with Prisma's JS types; columns not selected stay absent. */
export function rowsOf<M extends ModelName>(model: M, rows: Record<string, unknown>[]): ModelRow<M>[] {
  const list = conversionsOf(model);
  for (const row of rows) {
    for (const [name, convert] of list) if (name in row) row[name] = convert(row[name]);
  }
  return rows as ModelRow<M>[];
}
