// Release asset throughput over real HTTP: uploads (raw body and multipart) and downloads of one large file,
// alternating, with the server's RSS (uploads and downloads stream: memory should not grow with the file).
// Usage: npx tsx bench/attachments.ts [sizeMiB=64] [runs=5]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as repoService from '../src/services/repo/create.ts';
import { BENCH_AUTH, createBenchUser } from './benchUser.ts';

const sizeMiB = Number(process.argv[2] ?? 64);
const runs = Number(process.argv[3] ?? 5);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-attach-'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  try {
    const owner = await createBenchUser(app);
    const cx = createSystemContext(app.deps);
    await repoService.createRepo({ ...cx, viewer: owner }, { kind: 'viewer' }, { name: 'proj', private: false, autoInit: true });
    const auth = BENCH_AUTH;
    const rel = await fetch(`${base}/api/v1/repos/bench/proj/releases`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ tag_name: 'v1' }),
    });
    const releaseId = ((await rel.json()) as { id: number }).id;
    const bytes = randomBytes(sizeMiB * 1024 * 1024);
    const mb = bytes.length / 1e6;
    const raw: number[] = [];
    const form: number[] = [];
    const down: number[] = [];
    let rss = 0;
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      const up = await fetch(`${base}/api/v1/repos/bench/proj/releases/${releaseId}/assets?name=raw-${i}.bin`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      const uuid = ((await up.json()) as { uuid: string }).uuid;
      raw.push(performance.now() - t0);
      t0 = performance.now();
      const fd = new FormData();
      fd.append('attachment', new File([bytes], `form-${i}.bin`));
      await (
        await fetch(`${base}/api/v1/repos/bench/proj/releases/${releaseId}/assets`, { method: 'POST', headers: auth, body: fd })
      ).json();
      form.push(performance.now() - t0);
      t0 = performance.now();
      const got = await fetch(`${base}/attachments/${uuid}`);
      const size = (await got.arrayBuffer()).byteLength;
      if (size !== bytes.length) throw new Error(`downloaded ${size} bytes of ${bytes.length}`);
      down.push(performance.now() - t0);
      rss = Math.max(rss, process.memoryUsage().rss);
    }
    const rate = (ms: number) => `${(mb / (ms / 1000)).toFixed(0)} MB/s (${ms.toFixed(0)} ms)`;
    console.log(`release asset of ${sizeMiB} MiB, ${runs} runs, median:`);
    console.log(`  upload, raw body        ${rate(median(raw))}`);
    console.log(`  upload, multipart       ${rate(median(form))}`);
    console.log(`  download /attachments   ${rate(median(down))}`);
    console.log(`  process RSS peak ${(rss / 2 ** 20).toFixed(0)} MiB (the client's copy of the file included)`);
  } finally {
    app.server.server.closeAllConnections();
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
