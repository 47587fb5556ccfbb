// Issue #30 finding 10, with two real instances: two `forgegraph serve` processes starting at the same moment on
// one database and one data directory without hooks both come up, leave complete executable hooks, and a push
// through each runs them (the pre-receive hook records it). The race itself is driven harder, 100 rounds of
// concurrent installs, in test/git/installHooks.test.ts.
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooksDir } from '../../src/git/installHooks.ts';
import { GitClient, gitUrl } from '../githttp/gitClient.ts';
import { basic, PASSWORD } from '../helpers/app.ts';
import { PROVIDERS, type TestDatabase } from '../helpers/db.ts';
import { prepareServerDatabase, serverEnv } from '../helpers/serverDatabase.ts';
import { freePort, ServerProcess } from '../helpers/serverProcess.ts';
import type { Db } from '../../src/db/client.ts';

const ON_POSTGRES = PROVIDERS.includes('postgresql');

describe.skipIf(!ON_POSTGRES)('two instances starting together on a fresh data directory (postgresql)', () => {
  let database: TestDatabase;
  let db: Db;
  const servers: ServerProcess[] = [];
  const ports: number[] = [];
  const git = new GitClient();

  beforeAll(async () => {
    ({ database, db } = await prepareServerDatabase('postgresql'));
    rmSync(hooksDir(database.dataDir), { recursive: true, force: true });
    for (let i = 0; i < 2; i++) ports.push(await freePort());
    for (const port of ports) servers.push(new ServerProcess(serverEnv(database, port)));
    await Promise.all(servers.map((s, i) => s.ready(ports[i]!)));
  });
  afterAll(async () => {
    git.dispose();
    await Promise.all(servers.map((s) => s.stop()));
    await db?.$disconnect();
    await database?.drop();
  });

  it('both serve, the hooks are whole and executable, and a push through each is recorded', async () => {
    expect(servers.map((s) => s.exitCode())).toEqual([null, null]);
    for (const name of ['pre-receive']) {
      const file = path.join(hooksDir(database.dataDir), name);
      expect(statSync(file).mode & 0o111).toBe(0o111);
      expect(readFileSync(file, 'utf8')).toMatch(/^#!.*\n[\s\S]*Installed by Forgegraph[\s\S]*\n$/);
    }
    const created = await fetch(`http://127.0.0.1:${ports[0]}/api/v1/user/repos`, {
      method: 'POST',
      headers: { ...basic('alice'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'together', auto_init: true, default_branch: 'main' }),
    });
    expect(created.status).toBe(201);
    const work = git.dir('work');
    await git.ok(['clone', '-q', gitUrl(ports[0]!, 'alice', 'together', { user: 'alice', secret: PASSWORD }), work]);
    await git.ok(['config', 'user.email', 'alice@example.com'], { cwd: work });
    for (const [i, port] of ports.entries()) {
      await git.commit(work, `f${i}.txt`, `${i}\n`);
      await git.ok(['push', '-q', gitUrl(port, 'alice', 'together', { user: 'alice', secret: PASSWORD }), `HEAD:refs/heads/b${i}`], {
        cwd: work,
      });
    }
    const res = await fetch(`http://127.0.0.1:${ports[1]}/api/v1/repos/alice/together/branches`, { headers: basic('alice') });
    expect(((await res.json()) as { name: string }[]).map((b) => b.name).sort()).toEqual(['b0', 'b1', 'main']);
  });
});
