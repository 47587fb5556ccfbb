// Several `forgegraph serve` processes on one PostgreSQL database and one data directory behind a real HAProxy
// (round-robin, readiness checks on /readyz): the scale-out layout of the README, for the multi-instance test
// and bench/scaleOut.ts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../src/db/client.ts';
import type { TestDatabase } from './db.ts';
import { prepareServerDatabase, serverEnv } from './serverDatabase.ts';
import { freePort, ServerProcess } from './serverProcess.ts';

/** The haproxy binary, or null when it is not installed (Debian: apt-get install haproxy). */
export function haproxyBinary(): string | null {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

/** One instance of the cluster. */
export interface Instance {
  name: string;
  port: number;
  /** The running process (a new one after `restart`). */
  process: ServerProcess;
  url: string;
  /** The environment it was started with. */
  env: Record<string, string>;
}

/** A running cluster: its balancer URL, instances, database and a client of the test's own. */
export interface Cluster {
  url: string;
  instances: Instance[];
  database: TestDatabase;
  db: Db;
  /** Requests answered per instance, counted from HAProxy's X-Served-By header by `fetch`. */
  servedBy: Map<string, number>;
  /** fetch through the balancer (path relative to the root), counting the instance that answered. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  /** Stops instance `index` gracefully (SIGTERM, as an orchestrator does) and starts it again on its port. */
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

function haproxyConfig(port: number, instances: Array<{ name: string; port: number }>): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  option http-server-close',
    // A request that never reached a server (connection refused: the instance is gone) goes to another one;
    // a request a server accepted is never replayed (it may have been written).
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure',
    'frontend fe',
    `  bind 127.0.0.1:${port}`,
    '  default_backend be',
    'backend be',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  timeout check 3s',
    '  default-server inter 300ms fall 3 rise 2',
    '  http-response set-header X-Served-By %s',
    ...instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check`),
    '',
  ].join('\n');
}

/** Starts `n` instances on a fresh PostgreSQL database (with alice) behind HAProxy; `env` is added to each. */
export async function startCluster(n: number, env: Record<string, string> = {}): Promise<Cluster> {
  const haproxy = haproxyBinary();
  if (!haproxy) throw new Error('haproxy is not installed');
  const { database, db } = await prepareServerDatabase('postgresql');
  const lbPort = await freePort();
  const url = `http://127.0.0.1:${lbPort}/`;
  const instances: Instance[] = [];
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    const name = `fg${i + 1}`;
    const instanceEnv = serverEnv(database, port, { ROOT_URL: url, ...env });
    instances.push({ name, port, process: new ServerProcess(instanceEnv), url: `http://127.0.0.1:${port}/`, env: instanceEnv });
  }
  await Promise.all(instances.map((i) => i.process.ready(i.port)));
  const cfg = path.join(database.dataDir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig(lbPort, instances));
  const lb: ChildProcess = spawn(haproxy, ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const lbOutput: string[] = [];
  lb.stderr?.on('data', (d: Buffer) => lbOutput.push(d.toString()));
  // Ready when every instance answered through the balancer (its checks found them up).
  const servedBy = new Map<string, number>();
  const deadline = Date.now() + 30_000;
  const seen = new Set<string>();
  while (seen.size < n) {
    if (Date.now() > deadline) throw new Error(`HAProxy did not reach every instance: ${lbOutput.join('')}`);
    try {
      const res = await fetch(`${url}readyz`);
      const by = res.headers.get('x-served-by');
      if (res.ok && by) seen.add(by);
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return {
    url,
    instances,
    database,
    db,
    servedBy,
    async fetch(pathname, init) {
      const res = await fetch(new URL(pathname, url), init);
      const by = res.headers.get('x-served-by') ?? 'none';
      servedBy.set(by, (servedBy.get(by) ?? 0) + 1);
      return res;
    },
    async restart(index) {
      const instance = instances[index];
      if (!instance) throw new Error(`no instance ${index}`);
      await instance.process.stop();
      instance.process = new ServerProcess(instance.env);
      await instance.process.ready(instance.port);
    },
    async close() {
      await Promise.all(instances.map((i) => i.process.stop()));
      lb.kill('SIGTERM');
      await db.$disconnect();
      await database.drop();
    },
  };
}
