// Clone speed through Forgegraph's smart HTTP versus `git clone --no-local` from the bare directory.
// Builds a ~5,000-commit repository with `git fast-import`, pushes it through the server (recording the push),
// then clones it both ways, alternating, and prints medians and the ratio.
// Usage: npx tsx bench/clone.ts [runs=10] [commits=5000]
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { median, pushBigRepository, spread, timedClone } from './cloneFixture.ts';

const runs = Number(process.argv[2] ?? 10);
const commits = Number(process.argv[3] ?? 5000);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-clone-'));

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.server.address() as AddressInfo).port;
  try {
    const served = await pushBigRepository(app, port, tmp, commits);
    const http: number[] = [];
    const local: number[] = [];
    await timedClone(tmp, `http://127.0.0.1:${port}/bench/big.git`, []); // warm-up (page cache)
    for (let i = 0; i < runs; i++) {
      await timedClone(tmp, `http://127.0.0.1:${port}/bench/big.git`, http);
      await timedClone(tmp, served, local, ['--no-local']);
    }
    console.log(`bare clone, ${runs} runs each, alternating (median, min–max):`);
    console.log(`  forgegraph smart HTTP   ${spread(http)}`);
    console.log(`  git clone --no-local    ${spread(local)}`);
    console.log(`  ratio http / --no-local ${(median(http) / median(local)).toFixed(2)}x`);
    // Each request spawns git; fork() cost grows with the server's RSS (3 requests per protocol-v2 clone).
    console.log(`  server RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
