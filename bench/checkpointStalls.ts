// SQLite's WAL checkpoints on the server's thread versus on the checkpoint worker (src/db/walCheckpointer.ts), in one
// run on one database: a writer creates issues (3 labels, 2 assignees) one after another while a reader GETs the
// repository one after another, for `seconds` per phase; the phases alternate between the two modes (inline: SQLite's
// automatic checkpoint at 1,000 pages inside the commit that crosses it, as before; worker: the server's default).
// Per phase: writes and reads done, their p50/p99/max latency, the event loop's delay p99/max (a checkpoint on the
// server's thread stalls every request, reads too), and the commits that took 5 ms or more.
// Usage: npx tsx bench/checkpointStalls.ts [seconds=6] [rounds=2]
import './serverRuntime.ts';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDb, prepareDb } from '../src/db/client.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { connectionOf } from '../src/db/sqliteTransactionGate.ts';
import { startWalCheckpointer, type WalCheckpointer } from '../src/db/walCheckpointer.ts';
import { scratchDatabase } from './scratchDb.ts';
import { listenWithWriteRepo } from './writeFixture.ts';

const seconds = Number(process.argv[2] ?? 6);
const rounds = Number(process.argv[3] ?? 2);

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const ms = (x: number) => x.toFixed(2).padStart(6);

const database = await scratchDatabase('sqlite', 'checkpoint-stalls');
await deployMigrations({ provider: 'sqlite', url: database.url });
const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
const commits: number[] = [];
let counting = false;
const onQuery = (e: { query: string; duration: number }) => {
  if (counting && e.query === 'COMMIT') commits.push(e.duration);
};
// The bench owns the client, so it decides where checkpoints run (the app starts the worker only on a client it made).
const db = await createDb({ provider: 'sqlite', url: database.url, onQuery });
await prepareDb(db, 'sqlite');
const app = await buildApp(config, { db });
const connection = connectionOf(db)!.gate.database!;
let checkpointer: WalCheckpointer | null = null;
try {
  const { call, labels } = await listenWithWriteRepo(app);
  let n = 0;
  const write = () =>
    call('POST', '/api/v1/repos/bench/ours/issues', { title: `Issue ${n++}`, body: 'Body', labels, assignees: ['ann', 'bob'] });
  const read = () => call('GET', '/api/v1/repos/bench/ours');
  for (let i = 0; i < 100; i++) await Promise.all([write(), read()]);

  console.log(`node ${process.version}; ${seconds} s per phase; one writer (create issue) and one reader (GET repository) at once; ms`);
  console.log('checkpoints | writes | write p50 | p99 | max | reads | read p50 | p99 | max | loop delay p99 | max | commits ≥ 5 ms');
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['inline', 'worker'] as const) {
      if (mode === 'worker') checkpointer = startWalCheckpointer(db);
      else {
        await checkpointer?.close();
        checkpointer = null;
        connection.pragma('wal_autocheckpoint = 1000');
      }
      const writes: number[] = [];
      const reads: number[] = [];
      const loop = monitorEventLoopDelay({ resolution: 1 });
      commits.length = 0;
      counting = true;
      loop.enable();
      const end = performance.now() + seconds * 1000;
      const timedLoop = async (op: () => Promise<unknown>, into: number[]) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await op();
          into.push(performance.now() - t0);
        }
      };
      await Promise.all([timedLoop(write, writes), timedLoop(read, reads)]);
      loop.disable();
      counting = false;
      const slow = commits.filter((d) => d >= 5).length;
      console.log(
        [
          mode.padEnd(6),
          String(writes.length).padStart(5),
          ms(pct(writes, 0.5)),
          ms(pct(writes, 0.99)),
          ms(Math.max(...writes)),
          String(reads.length).padStart(5),
          ms(pct(reads, 0.5)),
          ms(pct(reads, 0.99)),
          ms(Math.max(...reads)),
          ms(loop.percentile(99) / 1e6),
          ms(loop.max / 1e6),
          `${slow} of ${commits.length}`,
        ].join(' | '),
      );
    }
  }
} finally {
  await checkpointer?.close();
  await app.close();
  await db.$disconnect();
  await database.drop();
}
