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
  request(app: App, authorization: string, remoteAddress: string): Promise<{ statusCode: number; headers: Record<string, unknown> }>;
}

const DOORS: Door[] = [
  {
    name: 'REST GET /api/v1/user',
    request: (app, authorization, remoteAddress) =>
      app.server.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization }, remoteAddress }),
  },
  {
    name: 'GraphQL { viewer { login } }',
    request: (app, authorization, remoteAddress) =>
      app.server.inject({
        method: 'POST',
        url: '/api/graphql',
        headers: { authorization, 'content-type': 'application/json' },
        payload: JSON.stringify({ query: '{ viewer { login } }' }),
        remoteAddress,
      }),
  },
  {
    name: 'git info/refs (upload-pack)',
    request: (app, authorization, remoteAddress) =>
      app.server.inject({
        method: 'GET',
        url: '/bench/repo.git/info/refs?service=git-upload-pack',
        headers: { authorization },
        remoteAddress,
      }),
  },
];

interface Flood {
  accepted: number;
  refused: number;
  other: number;
  firstRefusal: number | null;
  /** ms from the start to the first 429, and its Retry-After. */
  firstRefusalMs: number | null;
  retryAfter: string | null;
  elapsedMs: number;
}

/** Sends wrong passwords from one address for `seconds`, `concurrency` at a time; `user(i)` names the account. */
async function flood(app: App, door: Door, address: string, user: (i: number) => string): Promise<Flood> {
  const out: Flood = { accepted: 0, refused: 0, other: 0, firstRefusal: null, firstRefusalMs: null, retryAfter: null, elapsedMs: 0 };
  const start = performance.now();
  const until = start + seconds * 1000;
  let sent = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const i = ++sent;
      const res = await door.request(app, basic(user(i), `wrong-${i}`), address);
      if (res.statusCode === 401) out.accepted++;
      else if (res.statusCode === 429) {
        out.refused++;
        if (out.firstRefusal === null || i < out.firstRefusal) {
          out.firstRefusal = i;
          out.firstRefusalMs = performance.now() - start;
          out.retryAfter = String(res.headers['retry-after']);
        }
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

/** One REST sign-in with a wrong password; returns its latency in ms. */
async function signIn(app: App, login: string, remoteAddress: string): Promise<number> {
  const t0 = performance.now();
  const res = await app.server.inject({
    method: 'GET',
    url: '/api/v1/user',
    headers: { authorization: basic(login, `wrong-${remoteAddress}`) },
    remoteAddress,
  });
  const ms = performance.now() - t0;
  if (res.statusCode !== 401) throw new Error(`expected 401, got ${res.statusCode}`);
  return ms;
}

/** Wrong password for an existing user versus an unknown user, interleaved (each attempt from its own address). */
async function timing(app: App): Promise<Record<'wrong' | 'unknown', number[]>> {
  const out = { wrong: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < samples; i++) {
    const host = `${Math.floor(i / 250)}.${(i % 250) + 1}`;
    out.wrong.push(await signIn(app, 'bench', `10.1.${host}`));
    out.unknown.push(await signIn(app, `nobody-${i}`, `10.2.${host}`));
  }
  return out;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

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
            `first 429 at attempt ${r.firstRefusal ?? '-'}` +
            (r.firstRefusalMs === null ? '' : ` after ${r.firstRefusalMs.toFixed(0)} ms, Retry-After ${r.retryAfter}`) +
            (r.other ? `, other ${r.other}` : ''),
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

    const t = await timing(app);
    const fmt = (xs: number[]) => `median ${median(xs).toFixed(2)} ms, p10 ${pct(xs, 0.1).toFixed(2)}, p90 ${pct(xs, 0.9).toFixed(2)}`;
    console.log(`timing (${samples} REST sign-ins each, interleaved): wrong password ${fmt(t.wrong)}; unknown user ${fmt(t.unknown)}`);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
