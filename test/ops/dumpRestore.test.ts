import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, getDatamodel, prepareDb } from '../../src/db/client.ts';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import { basic, startTestApp } from '../helpers/app.ts';
import { createTestDatabase, PROVIDERS, type TestDatabase } from '../helpers/db.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const JSON_AUTH = { ...basic('alice'), 'content-type': 'application/json' };

/** `node src/bin/forgegraph.js …args` with the database and data directory of `db`. */
function cli(db: TestDatabase, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/bin/forgegraph.js', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', DATA_DIR: db.dataDir, DATABASE_URL: db.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every row of every table, as comparable JSON (ordered by id or key). */
async function snapshot(provider: DbProvider, url: string): Promise<Record<string, string[]>> {
  const db = await createDb({ provider, url });
  await prepareDb(db, provider);
  try {
    const out: Record<string, string[]> = {};
    for (const [name, model] of Object.entries(getDatamodel().datamodel.models)) {
      const scalars = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum').map((f) => f.name);
      const id = model.fields.find((f) => f.isId)?.name;
      const orderBy = (id ? [id] : (model.primaryKey?.fields ?? scalars)).map((f) => ({ [f]: 'asc' }));
      const delegate = (db as unknown as Record<string, { findMany(a: object): Promise<object[]> }>)[
        name[0]!.toLowerCase() + name.slice(1)
      ]!;
      const rows = await delegate.findMany({ orderBy });
      out[name] = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    }
    return out;
  } finally {
    await db.$disconnect();
  }
}

const refs = (gitDir: string) => execFileSync('git', ['--git-dir', gitDir, 'show-ref'], { encoding: 'utf8' });

const pairs: Array<[DbProvider, DbProvider]> = PROVIDERS.flatMap((from) => PROVIDERS.map((to): [DbProvider, DbProvider] => [from, to]));

/** `forgegraph dump` then `forgegraph restore` into a fresh database and data directory: same rows, same files. */
describe.each(pairs)('forgegraph dump (%s) and restore (%s)', (from, to) => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('restores every row, the repositories, attachments and the secret key; the restored server serves them', async () => {
    const t = await startTestApp(from);
    cleanup.push(() => t.close());
    await t.createUser('alice');
    const repo = await t.request('POST', '/api/v1/user/repos', { headers: JSON_AUTH, body: { name: 'kept', auto_init: true } });
    expect(repo.statusCode).toBe(201);
    const issue = await t.request('POST', '/api/v1/repos/alice/kept/issues', { headers: JSON_AUTH, body: { title: 'survives a restore' } });
    expect(issue.statusCode).toBe(201);
    const hook = await t.request('POST', '/api/v1/repos/alice/kept/hooks', {
      headers: JSON_AUTH,
      body: { type: 'gitea', config: { url: 'http://example.com/hook', content_type: 'json', secret: 's3cret' }, events: ['push'] },
    });
    expect(hook.statusCode).toBe(201);
    const boundary = 'xyzzy';
    const upload = await t.request('POST', '/api/v1/repos/alice/kept/issues/1/assets', {
      headers: { ...basic('alice'), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nattached bytes\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode).toBe(201);
    const source: TestDatabase = { provider: from, url: t.config.databaseUrl, dataDir: t.config.dataDir, drop: async () => undefined };

    const out = mkdtempSync(path.join(tmpdir(), 'fg-dump-'));
    cleanup.push(() => rmSync(out, { recursive: true, force: true }));
    const dumped = await cli(source, 'dump', '--output', path.join(out, 'd'));
    expect(dumped.stderr + dumped.stdout).toContain('Dumped');
    expect(dumped.code).toBe(0);

    const target = await createTestDatabase(to);
    cleanup.push(() => target.drop());
    const restored = await cli(target, 'restore', '--input', path.join(out, 'd'));
    expect(restored.stderr + restored.stdout).toContain('Restored');
    expect(restored.code).toBe(0);

    // Same rows (ids, times, sizes, encrypted secrets) in every table.
    const [a, b] = await Promise.all([snapshot(from, source.url), snapshot(to, target.url)]);
    expect(a.Issue?.length).toBe(1);
    // (CronTask rows follow: restore runs resync_all_hooks, which records that run.)
    for (const table of Object.keys(a).filter((name) => name !== 'CronTask'))
      expect({ table, rows: b[table] }).toEqual({ table, rows: a[table] });
    expect(
      (await snapshot(to, target.url)).CronTask?.some((row) =>
        row.includes('"name":"resync_all_hooks","schedule":"@every 72h","enabled":false,"execTimes":1'),
      ),
    ).toBe(true);
    // Same repositories and files.
    const gitDir = (dir: string) => path.join(dir, 'repositories', 'alice', 'kept.git');
    expect(refs(gitDir(target.dataDir))).toBe(refs(gitDir(source.dataDir)));
    expect(readFileSync(path.join(target.dataDir, 'secret_key'), 'utf8')).toBe(
      readFileSync(path.join(source.dataDir, 'secret_key'), 'utf8'),
    );

    // A server on the restored database and data directory serves the issue, the file and the attachment, and
    // creates new rows after the restored ids.
    const r = await startTestApp(to, { DATA_DIR: target.dataDir, DATABASE_URL: target.url });
    cleanup.push(() => r.close());
    expect((await r.request('GET', '/api/v1/repos/alice/kept/issues/1', { headers: basic('alice') })).json()).toMatchObject({
      title: 'survives a restore',
    });
    expect((await r.request('GET', '/api/v1/repos/alice/kept/raw/README.md', { headers: basic('alice') })).statusCode).toBe(200);
    const asset = upload.json<{ browser_download_url: string }>().browser_download_url;
    const file = await r.request('GET', new URL(asset).pathname, { headers: basic('alice') });
    expect(file.body).toBe('attached bytes');
    const next = await r.request('POST', '/api/v1/repos/alice/kept/issues', { headers: JSON_AUTH, body: { title: 'after restore' } });
    expect(next.statusCode).toBe(201);
    expect(next.json<{ number: number; id: number }>().number).toBe(2);
  }, 180_000);
});
