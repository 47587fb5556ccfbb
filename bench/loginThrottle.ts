// Wrong-password throughput and throttling on the three doors (REST, GraphQL, git smart HTTP), and the
// cost of an unknown user versus a wrong password (user enumeration by timing).
// Each door gets a fresh client address; `accepted` counts attempts whose password was actually
// checked (401), `refused` counts 429s. Settings come from the environment (LOGIN_MAX_FAILS_PER_ACCOUNT…).
// Usage: npx tsx bench/loginThrottle.ts [seconds per door=5] [timing samples=200] [concurrency=4]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as userService from '../src/services/user/user.ts';

const seconds = Number(process.argv[2] ?? 5);
const samples = Number(process.argv[3] ?? 200);
const concurrency = Number(process.argv[4] ?? 4);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-login-'));
const PASSWORD = 'bench-password-1';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

interface Door {
  name: string;
  request(app: App, authorization: string, remoteAddress: string): Promise<number>;
}

const DOORS: Door[] = [
  {
    name: 'REST GET /api/v1/user',
    request: async (app, authorization, remoteAddress) =>
      (await app.server.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization }, remoteAddress })).statusCode,
  },
  {
    name: 'GraphQL { viewer { login } }',
    request: async (app, authorization, remoteAddress) =>
      (
        await app.server.inject({
          method: 'POST',
          url: '/api/graphql',
          headers: { authorization, 'content-type': 'application/json' },
          payload: JSON.stringify({ query: '{ viewer { login } }' }),
          remoteAddress,
        })
      ).statusCode,
  },
  {
    name: 'git info/refs (upload-pack)',
    request: async (app, authorization, remoteAddress) =>
      (
        await app.server.inject({
          method: 'GET',
          url: '/bench/repo.git/info/refs?service=git-upload-pack',
          headers: { authorization },
          remoteAddress,
        })
      ).statusCode,
  },
];

interface Flood {
  accepted: number;
  refused: number;
  other: number;
  firstRefusal: number | null;
  elapsedMs: number;
}

/** Sends wrong passwords from one address for `seconds`, `concurrency` at a time; `user(i)` names the account. */
async function flood(app: App, door: Door, address: string, user: (i: number) => string): Promise<Flood> {
  const out: Flood = { accepted: 0, refused: 0, other: 0, firstRefusal: null, elapsedMs: 0 };
  const start = performance.now();
  const until = start + seconds * 1000;
  let sent = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const i = ++sent;
      const status = await door.request(app, basic(user(i), `wrong-${i}`), address);
      if (status === 401) out.accepted++;
      else if (status === 429) {
        out.refused++;
        if (out.firstRefusal === null || i < out.firstRefusal) out.firstRefusal = i;
      } else out.other++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  out.elapsedMs = performance.now() - start;
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Median and p90 latency of `samples` sequential REST sign-ins with the given login, each from its own address. */
async function timeSignIns(app: App, login: (i: number) => string, tag: number): Promise<{ median: number; p90: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const res = await app.server.inject({
      method: 'GET',
      url: '/api/v1/user',
      headers: { authorization: basic(login(i), `wrong-${i}`) },
      remoteAddress: `10.${tag}.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    });
    times.push(performance.now() - t0);
    if (res.statusCode !== 401) throw new Error(`expected 401, got ${res.statusCode}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: median(times), p90: sorted[Math.floor(sorted.length * 0.9)] ?? 0 };
}

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const loginEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('LOGIN_')));
  const config = loadConfig({ ...loginEnv, DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  await app.server.ready();
  await app.warmUp();
  try {
    const sys = createSystemContext(app.deps);
    for (const name of ['bench', 'victim']) {
      await userService.createUser(sys, { username: name, email: `${name}@example.com`, password: PASSWORD, mustChangePassword: false });
    }
    console.log(`login throttling: ${seconds} s per door, concurrency ${concurrency}, settings from LOGIN_* env (defaults otherwise)`);
    let door = 0;
    for (const d of DOORS) {
      door++;
      const one = await flood(app, d, `192.0.2.${door}`, () => 'victim');
      const many = await flood(app, d, `198.51.100.${door}`, (i) => `user${i}`);
      for (const [label, r] of [
        ['one account, one address ', one],
        ['many accounts, one address', many],
      ] as const) {
        const rate = (r.accepted / r.elapsedMs) * 1000;
        console.log(
          `${d.name.padEnd(30)} ${label}: accepted ${String(r.accepted).padStart(5)} (${rate.toFixed(1)}/s), 429 ${String(r.refused).padStart(6)}, ` +
            `first 429 at attempt ${r.firstRefusal ?? '-'}${r.other ? `, other ${r.other}` : ''}`,
        );
      }
    }
    // A success from another address is not blocked by the flood on 'victim' above.
    const innocent = await app.server.inject({
      method: 'GET',
      url: '/api/v1/user',
      headers: { authorization: basic('victim', PASSWORD) },
      remoteAddress: '203.0.113.7',
    });
    console.log(`victim signs in from another address after the flood: HTTP ${innocent.statusCode}`);

    const wrong = await timeSignIns(app, () => 'bench', 1);
    const unknown = await timeSignIns(app, (i) => `nobody-${i}`, 2);
    console.log(
      `timing (${samples} sequential REST sign-ins each): wrong password median ${wrong.median.toFixed(2)} ms (p90 ${wrong.p90.toFixed(2)}), ` +
        `unknown user median ${unknown.median.toFixed(2)} ms (p90 ${unknown.p90.toFixed(2)})`,
    );
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
