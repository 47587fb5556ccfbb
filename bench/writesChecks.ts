// The two checks of bench/writes.ts besides latency: the statements of a write do not grow with how many labels,
// assignees and watchers it involves (fan-out goes through durable jobs), and 32 concurrent issue creations are
// each answered 201 or 503 with Retry-After, never a 500 after a transaction timeout.

type Call = (host: string, method: string, url: string, body?: unknown) => Promise<{ id: number; number: number }>;

export interface FanOut {
  name: string;
  one: number;
  ten: number;
}
export interface Checks {
  fanOut: FanOut[];
  contention: string;
}

const basic = (user: string) => ({ authorization: `Basic ${Buffer.from(`${user}:bench-password-1`).toString('base64')}` });

/**
 * Statements of create issue, comment and replace labels (with their subscribers and jobs) in a repository with 1
 * and with 10 labels given, assignees given and watchers (`fan1`, `fan10`; users w0…w9 made by `createUser`).
 */
export async function fanOutStatements(
  host: string,
  call: Call,
  counter: { n: number },
  settle: () => Promise<void>,
  createUser: (name: string) => Promise<unknown>,
): Promise<FanOut[]> {
  const users = Array.from({ length: 10 }, (_, k) => `w${k}`);
  for (const u of users) await createUser(u);
  // Everything a write sets off counts (event subscribers, jobs): their timing relative to the answer varies.
  const counted = async (fn: () => Promise<unknown>) => {
    await settle();
    counter.n = 0;
    await fn();
    await settle();
    return counter.n;
  };
  const results: Record<string, number>[] = [];
  for (const n of [1, 10]) {
    const repo = `fan${n}`;
    await call(host, 'POST', '/api/v1/user/repos', { name: repo, auto_init: true });
    const labels: number[] = [];
    for (let k = 0; k < 11; k++)
      labels.push((await call(host, 'POST', `/api/v1/repos/bench/${repo}/labels`, { name: `l${k}`, color: '#00aa00' })).id);
    for (const u of users.slice(0, n)) {
      await call(host, 'PUT', `/api/v1/repos/bench/${repo}/collaborators/${u}`, { permission: 'write' });
      const res = await fetch(`${host}/api/v1/repos/bench/${repo}/subscription`, { method: 'PUT', headers: basic(u) });
      if (!res.ok) throw new Error(`watch ${repo} as ${u}: ${res.status}`);
    }
    const create = () =>
      call(host, 'POST', `/api/v1/repos/bench/${repo}/issues`, {
        title: 'fan-out',
        labels: labels.slice(0, n),
        assignees: users.slice(0, n),
      });
    await create(); // warm
    let number = 0;
    const r: Record<string, number> = {};
    r['create issue'] = await counted(async () => (number = (await create()).number));
    r.comment = await counted(() => call(host, 'POST', `/api/v1/repos/bench/${repo}/issues/${number}/comments`, { body: 'hello' }));
    r['add labels'] = await counted(() =>
      call(host, 'PUT', `/api/v1/repos/bench/${repo}/issues/${number}/labels`, { labels: labels.slice(1, n + 1) }),
    );
    results.push(r);
  }
  return Object.keys(results[0]!).map((name) => ({ name, one: results[0]![name]!, ten: results[1]![name]! }));
}

/** 32 concurrent issue creations: the answers by status (503s must carry Retry-After) and the slowest. */
export async function contention(host: string, auth: Record<string, string>): Promise<string> {
  const statuses = new Map<string, number>();
  let slowest = 0;
  await Promise.all(
    Array.from({ length: 32 }, async (_, i) => {
      const t0 = performance.now();
      const res = await fetch(`${host}/api/v1/repos/bench/ours/issues`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `contended ${i}`, assignees: ['ann', 'bob'] }),
      });
      await res.text();
      slowest = Math.max(slowest, performance.now() - t0);
      const key =
        res.status === 503 ? `503${res.headers.get('retry-after') ? '+Retry-After' : ' without Retry-After'}` : String(res.status);
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }),
  );
  return `${[...statuses].map(([k, v]) => `${v}× ${k}`).join(', ')}; slowest ${Math.round(slowest)} ms`;
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/** Row counts of every application table (one statement), for the rows-inserted comparison of bench/writes.ts. */
export async function tableCounts(provider: 'sqlite' | 'postgresql', query: Query): Promise<Map<string, number>> {
  const names = (
    await query(
      provider === 'sqlite'
        ? `SELECT name AS t FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\'`
        : `SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE '\\_%'`,
    )
  ).map((r) => String(r.t));
  const [row] = await query(`SELECT ${names.map((t, k) => `(SELECT COUNT(*) FROM "${t}") AS c${k}`).join(', ')}`);
  return new Map(names.map((t, k) => [t, Number(row![`c${k}`])]));
}

/** The tables a write inserted into, with how many rows: `after` minus `before`, e.g. `Comment +1, Job +1`. */
export function rowsInserted(before: Map<string, number>, after: Map<string, number>): string {
  const grown = [...after]
    .filter(([t, n]) => n !== (before.get(t) ?? 0))
    .map(([t, n]) => `${t} ${n > (before.get(t) ?? 0) ? '+' : ''}${n - (before.get(t) ?? 0)}`);
  return grown.sort().join(', ') || 'none';
}
