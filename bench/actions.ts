// Time from a push to the start of its job with an idle runner: a commit with a workflow goes in through the
// contents API (a push like any other), a registered runner polls FetchTask every POLL ms (act_runner: 2 s),
// and the figure is the time until FetchTask hands out the job. Also the jobs list's statements per request.
// Usage: npx tsx bench/actions.ts [runs=10] [pollMs=50]
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { RunnerService } from '../src/runner/gen/runner/v1/services_pb.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as repoService from '../src/services/repo/create.ts';
import { BENCH_AUTH, createBenchUser } from './benchUser.ts';

const runs = Number(process.argv[2] ?? 10);
const pollMs = Number(process.argv[3] ?? 50);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-actions-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  let statements = 0;
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config, { onQuery: () => statements++ });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  try {
    const sys = createSystemContext(app.deps);
    const owner = await createBenchUser(app, { admin: true });
    await repoService.createRepo({ ...sys, viewer: owner }, { kind: 'viewer' }, { name: 'proj', private: false, autoInit: true });
    const headers = {
      authorization: BENCH_AUTH.authorization,
      'content-type': 'application/json',
    };
    const regToken = (
      (await (await fetch(`${base}/api/v1/admin/actions/runners/registration-token`, { method: 'POST', headers })).json()) as {
        token: string;
      }
    ).token;
    const transport = (h: Record<string, string> = {}) =>
      createConnectTransport({
        baseUrl: `${base}/api/actions`,
        httpVersion: '1.1',
        useBinaryFormat: true,
        interceptors: [
          (next) => (req) => {
            for (const [k, v] of Object.entries(h)) req.header.set(k, v);
            return next(req);
          },
        ],
      });
    const { runner } = await createClient(RunnerService, transport()).register({
      name: 'bench',
      token: regToken,
      labels: ['ubuntu-latest'],
    });
    const client = createClient(RunnerService, transport({ 'x-runner-uuid': runner?.uuid ?? '', 'x-runner-token': runner?.token ?? '' }));
    let version = (await client.fetchTask({})).tasksVersion;

    const times: number[] = [];
    let sha = '';
    for (let i = 0; i < runs; i++) {
      const content = Buffer.from(`on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${i}\n`).toString(
        'base64',
      );
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/repos/bench/proj/contents/.gitea/workflows/ci.yml`, {
        method: i === 0 ? 'POST' : 'PUT',
        headers,
        body: JSON.stringify({ content, message: `run ${i}`, ...(sha ? { sha } : {}) }),
      });
      sha = ((await res.json()) as { content: { sha: string } }).content.sha;
      for (;;) {
        const r = await client.fetchTask({ tasksVersion: version });
        version = r.tasksVersion;
        if (r.task) {
          times.push(performance.now() - t0);
          await client.updateTask({ state: { id: r.task.id, result: 1 } });
          break;
        }
        await sleep(pollMs);
      }
    }
    statements = 0;
    await fetch(`${base}/api/v1/admin/actions/jobs?limit=50`, { headers });
    console.log(
      `push → job start (idle runner polling every ${pollMs} ms), ${runs} runs: median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    );
    console.log(`GET /admin/actions/jobs (${runs} jobs): ${statements} statements`);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
