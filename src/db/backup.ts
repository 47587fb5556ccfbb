import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { getDatamodel, Models, type Db, type DbTx } from './client.ts';
import type { DbProvider } from './migrate/dbProvider.ts';
import { executeSql } from './rawStatements.ts';

/** What a dump holds besides the database: the data directory's stored files (Gitea's dump: repos, data). */
const DATA_ENTRIES = ['repositories', 'attachments', 'packages', 'avatars', 'repo-avatars', 'secret_key'] as const;
const PAGE = 1000;
const FORMAT = 'forgegraph-dump/1';

/** manifest.json of a dump directory. */
export interface DumpManifest {
  format: typeof FORMAT;
  createdAt: string;
  /** The provider the dump was taken from (the export is logical: it restores into either). */
  provider: DbProvider;
  /** Migrations applied to the dumped database: the restoring build must have applied the same. */
  migrations: string[];
  /** Rows per model. */
  rows: Record<string, number>;
  /** Data directory entries copied under `data/`. */
  data: string[];
}

interface ModelInfo {
  name: string;
  delegate: string;
  scalars: Array<{ name: string; type: string }>;
  orderBy: readonly string[];
  /** The Int id column whose sequence follows the restored ids (PostgreSQL), or null. */
  serialId: string | null;
}

function models(): ModelInfo[] {
  const { datamodel } = getDatamodel();
  return Object.entries(datamodel.models).map(([name, model]) => {
    const scalars = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum').map((f) => ({ name: f.name, type: f.type }));
    const id = model.fields.find((f) => f.isId);
    const orderBy = id ? [id.name] : (model.primaryKey?.fields ?? scalars.map((s) => s.name));
    return {
      name,
      delegate: name[0]!.toLowerCase() + name.slice(1),
      scalars,
      orderBy,
      serialId: id?.type === 'Int' && id.hasDefaultValue ? id.name : null,
    };
  });
}

type Row = Record<string, unknown>;
type Delegate = {
  findMany(args: object): Promise<Row[]>;
  createMany(args: { data: Row[] }): Promise<unknown>;
  count(): Promise<number>;
  deleteMany(): Promise<unknown>;
};
const delegateOf = (db: Db | DbTx, m: ModelInfo) => (db as unknown as Record<string, Delegate>)[m.delegate]!;

/** JSON for a row: BigInt and Bytes tagged (JSON has neither); dates as ISO strings. */
function encode(row: Row): string {
  return JSON.stringify(row, (_k, v: unknown) => {
    if (typeof v === 'bigint') return { $bigint: v.toString() };
    if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('base64') };
    return v;
  });
}

function decode(line: string, m: ModelInfo): Row {
  const row = JSON.parse(line) as Row;
  for (const { name, type } of m.scalars) {
    const v = row[name];
    if (v === null || v === undefined) continue;
    if (type === 'DateTime') row[name] = new Date(v as string);
    else if (type === 'BigInt') row[name] = BigInt((v as { $bigint: string }).$bigint);
    else if (type === 'Bytes') row[name] = Buffer.from((v as { $bytes: string }).$bytes, 'base64');
  }
  return row;
}

async function appliedMigrations(db: Db): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Array<{ migration_name: string }>>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name',
  );
  return rows.map((r) => r.migration_name);
}

/**
 * Writes a dump into the empty directory `out`: `manifest.json`, `database/<Model>.jsonl` (every row, in id
 * order, read in one repeatable-read snapshot on PostgreSQL) and `data/` (repositories, attachments, packages,
 * avatars, repository avatars and the generated secret key). Take it while writes are stopped (or accept that files written during the
 * copy may be newer than the database rows), as with `gitea dump`.
 */
export async function dumpTo(db: Db, provider: DbProvider, dataDir: string, out: string): Promise<DumpManifest> {
  if (existsSync(out) && (await readdir(out)).length) throw new Error(`${out} is not empty`);
  await mkdir(path.join(out, 'database'), { recursive: true });
  const rows: Record<string, number> = {};
  const exportAll = async (tx: DbTx) => {
    for (const m of models()) {
      const file = createWriteStream(path.join(out, 'database', `${m.name}.jsonl`));
      let n = 0;
      for (let skip = 0; ; skip += PAGE) {
        const page = await delegateOf(tx, m).findMany({ orderBy: m.orderBy.map((f) => ({ [f]: 'asc' })), skip, take: PAGE });
        for (const row of page) file.write(`${encode(row)}\n`);
        n += page.length;
        if (page.length < PAGE) break;
      }
      await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
      rows[m.name] = n;
    }
  };
  await db.$transaction(
    async (tx) => {
      // The transaction's first statement (a raw statement runs on its connection; a model query would run in a
      // savepoint, where PostgreSQL refuses SET TRANSACTION).
      if (provider === 'postgresql') await executeSql(tx, Models.Prisma.sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`);
      await exportAll(tx);
    },
    { timeout: 3_600_000, maxWait: 60_000 },
  );
  const data: string[] = [];
  for (const entry of DATA_ENTRIES) {
    const from = path.join(dataDir, entry);
    if (!existsSync(from)) continue;
    await cp(from, path.join(out, 'data', entry), { recursive: true, preserveTimestamps: true });
    data.push(entry);
  }
  const manifest: DumpManifest = {
    format: FORMAT,
    createdAt: new Date().toISOString(),
    provider,
    migrations: await appliedMigrations(db),
    rows,
    data,
  };
  await writeFile(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Restores a dump into a migrated database with no users and into `dataDir` (its stored files must not exist
 * yet): rows with foreign keys checked at commit (SQLite) or with triggers off for the transaction
 * (PostgreSQL, needs a superuser or the table owner), then PostgreSQL's id sequences moved past the restored ids.
 * Either provider restores a dump of either. Returns the manifest.
 */
export async function restoreFrom(db: Db, provider: DbProvider, dataDir: string, dumpDir: string): Promise<DumpManifest> {
  const manifest = JSON.parse(await readFile(path.join(dumpDir, 'manifest.json'), 'utf8')) as DumpManifest;
  if (manifest.format !== FORMAT) throw new Error(`${dumpDir} is not a Forgegraph dump (format ${String(manifest.format)})`);
  const applied = await appliedMigrations(db);
  if (applied.join() !== manifest.migrations.join()) {
    throw new Error(
      `the dump was taken at migration ${manifest.migrations.at(-1)}, this database is at ${applied.at(-1)}: restore with the same Forgegraph release`,
    );
  }
  if ((await db.user.count()) > 0) throw new Error('the database already holds users: restore into a new, empty database');
  // The secret key a fresh data directory generated is replaced by the dump's (its secrets are encrypted with it).
  for (const entry of manifest.data.filter((e) => e !== 'secret_key')) {
    if (existsSync(path.join(dataDir, entry))) throw new Error(`${path.join(dataDir, entry)} exists: restore into a new data directory`);
  }
  const all = models();
  await db.$transaction(
    async (tx) => {
      if (provider === 'postgresql') await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
      else await tx.$executeRawUnsafe('PRAGMA defer_foreign_keys = ON');
      // Rows a fresh database may already hold (cron task rows written at start) give way to the dump's.
      for (const m of all) await delegateOf(tx, m).deleteMany();
      for (const m of all) {
        const file = path.join(dumpDir, 'database', `${m.name}.jsonl`);
        if (!existsSync(file)) continue;
        let batch: Row[] = [];
        const flush = async () => {
          if (batch.length) await delegateOf(tx, m).createMany({ data: batch });
          batch = [];
        };
        for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
          if (!line) continue;
          batch.push(decode(line, m));
          if (batch.length >= PAGE) await flush();
        }
        await flush();
        if (provider === 'postgresql' && m.serialId) {
          const id = `"${m.serialId}"`;
          await tx.$executeRawUnsafe(
            `SELECT setval(pg_get_serial_sequence('"${m.name}"', '${m.serialId}'), COALESCE(MAX(${id}), 1), MAX(${id}) IS NOT NULL) FROM "${m.name}" HAVING pg_get_serial_sequence('"${m.name}"', '${m.serialId}') IS NOT NULL`,
          );
        }
      }
    },
    { timeout: 3_600_000, maxWait: 60_000 },
  );
  await mkdir(dataDir, { recursive: true });
  for (const entry of manifest.data) {
    await cp(path.join(dumpDir, 'data', entry), path.join(dataDir, entry), { recursive: true, preserveTimestamps: true, force: true });
  }
  return manifest;
}
