// Generic registry throughput and the package list's statement count.
// Uploads a file of SIZE MB (default 50) with a streamed HTTP PUT and downloads it back (streamed), RUNS times, and
// prints median MB/s both ways and the process's peak RSS growth; then counts the SQL statements of
// GET /api/v1/packages/{owner} for 1 and for 40 package versions (the count must not depend on the rows).
// Usage: npx tsx bench/packages.ts [sizeMB=50] [runs=5]
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as userService from '../src/services/user/user.ts';

const sizeMb = Number(process.argv[2] ?? 50);
const runs = Number(process.argv[3] ?? 5);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-packages-'));
const PASSWORD = 'bench-password-1';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function call(
  port: number,
  method: string,
  urlPath: string,
  auth: string,
  body?: string,
): Promise<{ status: number; bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: urlPath, headers: { authorization: auth } }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, sha256: hash.digest('hex') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) createReadStream(body).pipe(req);
    else req.end();
  });
}

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  let statements = 0;
  const app = await buildApp(config, { onQuery: () => statements++ });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.server.address() as AddressInfo).port;
  try {
    const sys = createSystemContext(app.deps);
    await userService.createUser(sys, { username: 'bench', email: 'bench@example.com', password: PASSWORD, mustChangePassword: false });
    const auth = `Basic ${Buffer.from(`bench:${PASSWORD}`).toString('base64')}`;
    const file = path.join(tmp, 'payload.bin');
    const chunk = Buffer.alloc(1024 * 1024);
    const parts: Buffer[] = [];
    for (let i = 0; i < sizeMb; i++) {
      for (let j = 0; j < chunk.length; j += 4) chunk.writeUInt32LE((i * 2654435761 + j * 40503) >>> 0, j);
      parts.push(Buffer.from(chunk));
    }
    const data = Buffer.concat(parts);
    writeFileSync(file, data);
    const expected = createHash('sha256').update(data).digest('hex');
    parts.length = 0;

    const up: number[] = [];
    const down: number[] = [];
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sample = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    for (let i = 0; i < runs; i++) {
      const target = `/api/packages/bench/generic/big/${i}/payload.bin`;
      let t0 = performance.now();
      const put = await call(port, 'PUT', target, auth, file);
      up.push(sizeMb / ((performance.now() - t0) / 1000));
      if (put.status !== 201) throw new Error(`upload answered ${put.status}`);
      t0 = performance.now();
      const got = await call(port, 'GET', target, auth);
      down.push(sizeMb / ((performance.now() - t0) / 1000));
      if (got.status !== 200 || got.sha256 !== expected) throw new Error(`download answered ${got.status}, ${got.bytes} bytes`);
    }
    clearInterval(sample);
    console.log(`generic registry, ${sizeMb} MB file, ${runs} runs (SQLite, client and server in one process):`);
    console.log(`  upload   median ${median(up).toFixed(0)} MB/s (runs: ${up.map((v) => v.toFixed(0)).join(', ')})`);
    console.log(`  download median ${median(down).toFixed(0)} MB/s (runs: ${down.map((v) => v.toFixed(0)).join(', ')})`);
    console.log(`  peak RSS growth ${((rssPeak - rssBefore) / 1024 / 1024).toFixed(0)} MB (the test file itself is ${sizeMb} MB)`);

    const listStatements = async (owner: string): Promise<number> => {
      const ownerAuth = `Basic ${Buffer.from(`${owner}:${PASSWORD}`).toString('base64')}`;
      statements = 0;
      const res = await call(port, 'GET', `/api/v1/packages/${owner}?limit=50`, ownerAuth);
      if (res.status !== 200) throw new Error(`list answered ${res.status}`);
      return statements;
    };
    for (const [name, versions] of [
      ['one', 1],
      ['forty', 40],
    ] as const) {
      await userService.createUser(sys, { username: name, email: `${name}@example.com`, password: PASSWORD, mustChangePassword: false });
      const ownerAuth = `Basic ${Buffer.from(`${name}:${PASSWORD}`).toString('base64')}`;
      const small = path.join(tmp, 'small.txt');
      writeFileSync(small, 'x');
      for (let v = 0; v < versions; v++) await call(port, 'PUT', `/api/packages/${name}/generic/p${v % 5}/${v}/f.txt`, ownerAuth, small);
    }
    const one = await listStatements('one');
    const forty = await listStatements('forty');
    console.log(`GET /api/v1/packages/{owner}: ${one} SQL statements for 1 version, ${forty} for 40 versions (authentication included)`);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
