import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { freePort } from '../helpers/serverProcess.ts';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { createTestDatabase, PROVIDERS, type TestDatabase } from '../helpers/db.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = 'src/bin/forgegraph.js';
/** Typed over the hint's placeholder: `<` and `>` are what the shell read as redirections when it was not quoted. */
const PASSWORD = 'root-password<1>';
const NEW_PASSWORD = 'root-password-2';
/** Each CLI process starts in a few seconds on an idle machine, several times that on a busy one. */
const SLOW = 180_000;

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command …args` in `cwd` with `env`; its exit code and output. */
function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `node src/bin/forgegraph.js …args` in the checkout with `env`, as the README documents. */
function runCli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<RunResult> {
  return runProcess(process.execPath, [BIN, ...args], env);
}

describe('forgegraph --version, --help and a database it had to create', () => {
  // Independent commands, run side by side.
  it(
    '--version prints the release and the Gitea API level; --help the commands, how to run them and every variable; a command that had to create its database says so (it is usually not the server’s)',
    { timeout: SLOW },
    async () => {
      const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
      const dir = mkdtempSync(path.join(tmpdir(), 'forgegraph-cli-'));
      try {
        const fresh: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
        delete fresh.DATABASE_URL;
        const [ver, help, sub, list] = await Promise.all([
          runCli(process.env, '--version'),
          runCli(process.env, '--help'),
          runCli(process.env, 'admin', 'user', 'create', '--help'),
          runCli(fresh, 'admin', 'user', 'list'),
        ]);
        expect(ver.code).toBe(0);
        expect(ver.stdout).toBe(`forgegraph ${version} (Gitea API 1.27.0)\n`);

        expect(help.code).toBe(0);
        for (const command of ['serve', 'migrate', 'admin']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
        for (const name of [
          'PORT',
          'HOST',
          'DATA_DIR',
          'DATABASE_URL',
          'ROOT_URL',
          'SECRET_KEY',
          'LOG_LEVEL',
          'LOG_FORMAT',
          'SHUTDOWN_DELAY',
        ]) {
          expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
        }
        // The one documented way to run it, which installs nothing (npx installed the checkout into its cache).
        expect(help.stdout).toContain('node src/bin/forgegraph.js <command>');
        // Subcommands show it too: `admin user create --help` is where a new user looks.
        expect(sub.stdout).toContain('DATA_DIR');
        expect(sub.stdout).toContain('--password <password>');

        expect(list.code).toBe(0);
        expect(list.stderr).toBe(
          `Database: SQLite ${path.join(dir, 'forgegraph.db')} (new: created by this command; the server prints the DATA_DIR/DATABASE_URL it uses)\n`,
        );
        expect(list.stdout).toBe('ID\tUsername\tEmail\tIsActive\tIsAdmin\t2FA\n');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe.each(PROVIDERS)('forgegraph CLI (%s)', (provider) => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess | undefined;
  let serverOut = '';
  let baseUrl = '';
  let token = '';

  /** Runs `node src/bin/forgegraph.js …args` in the checkout, as the README documents. */
  function run(...args: string[]): Promise<RunResult> {
    return runCli(env, ...args);
  }

  /** What every command prints on stderr first: the database it opened. */
  function databaseLine(): string {
    return provider === 'sqlite'
      ? `Database: SQLite ${path.join(database.dataDir, 'forgegraph.db')}`
      : `Database: PostgreSQL ${database.url}`;
  }

  async function waitFor(predicate: () => boolean, what: string, ms = 120_000): Promise<void> {
    const until = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; server output:\n${serverOut}`);
      if (server?.exitCode !== null && server?.exitCode !== undefined) throw new Error(`server exited (${server.exitCode}):\n${serverOut}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Reads a user row straight from the database the CLI wrote. */
  async function userRow(login: string) {
    const db: Db = await createDb({ provider, url: database.url });
    try {
      return await db.user.findUnique({ where: { lowerName: login } });
    } finally {
      await db.$disconnect();
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    env = { ...process.env, DATA_DIR: database.dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_DELAY: '0' };
    for (const key of ['DATABASE_URL', 'PORT', 'SECRET_KEY', 'ROOT_URL', 'NODE_OPTIONS', 'NODE_ENV']) delete env[key];
    // SQLite: the default (`file:<DATA_DIR>/forgegraph.db`, the file createTestDatabase names); PostgreSQL: a fresh database.
    if (provider === 'postgresql') env.DATABASE_URL = database.url;
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server?.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    await database.drop();
  });

  it('migrate applies the init migration on a fresh data directory, then reports up to date', { timeout: SLOW }, async () => {
    const first = await run('migrate');
    expect(first.stderr).toBe(`${databaseLine()}\n`);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Applied: (\S+, )*\d{14}_init(, \S+)*\n$/);
    // The first start generates the secret key into the data directory.
    const keyFile = path.join(database.dataDir, 'secret_key');
    expect(existsSync(keyFile)).toBe(true);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    if (provider === 'sqlite') expect(existsSync(path.join(database.dataDir, 'forgegraph.db'))).toBe(true);

    const second = await run('migrate');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('Database is up to date.\n');
  });

  it('serve answers /api/v1/version and, with no users yet, says how to create the first admin', { timeout: SLOW }, async () => {
    const key = readFileSync(path.join(database.dataDir, 'secret_key'), 'utf8');
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.on('data', (d: Buffer) => (serverOut += d.toString()));
    server.stderr?.on('data', (d: Buffer) => (serverOut += d.toString()));
    await waitFor(() => serverOut.includes('admin user create') && serverOut.includes('ready in'), 'the first-start hint');
    // The hint names the data this server uses, so it works from a shell that does not have the server's environment,
    // and the CLI by its path, so it works from any directory.
    const where = provider === 'sqlite' ? `DATA_DIR=${database.dataDir}` : `DATABASE_URL=${database.url} DATA_DIR=${database.dataDir}`;
    expect(serverOut).toContain(
      `No users yet. Create the first administrator with this command, CHANGE-ME replaced by a password of at least 8 characters:\n  ${where} node ${ROOT}/src/bin/forgegraph.js admin user create --username root --password 'CHANGE-ME' --email root@example.com --admin --must-change-password=false\n`,
    );
    expect(serverOut).toContain(`ready in`);
    expect(serverOut).toContain(databaseLine().replace('Database: ', 'database '));

    const res = await fetch(`${baseUrl}/api/v1/version`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    // The key generated on first start is kept, not regenerated.
    expect(readFileSync(path.join(database.dataDir, 'secret_key'), 'utf8')).toBe(key);
  });

  it('a 1-character password is refused with the minimum length, before anything is written', { timeout: SLOW }, async () => {
    const res = await run('admin', 'user', 'create', '--username', 'shorty', '--password', 'x', '--email', 'shorty@example.com');
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('forgegraph: password is too short: it needs at least 8 characters\n');
    expect(await userRow('shorty')).toBeNull();
  });

  it(
    'the printed hint pastes into a shell: as printed it asks for a password; with one typed over CHANGE-ME it creates the admin the server sees',
    { timeout: SLOW },
    async () => {
      const hint = (serverOut.split('\n').find((line) => line.includes(' admin user create ')) ?? '').trim();
      // A new user's shell: none of the server's variables, another directory.
      const shell = { ...env };
      for (const key of ['DATA_DIR', 'DATABASE_URL']) delete shell[key];
      const bash = (command: string) => runProcess('bash', ['-c', command], shell, tmpdir());
      expect(await bash(`set -n; ${hint}`)).toEqual({ code: 0, stdout: '', stderr: '' });
      const asPrinted = await bash(hint);
      expect(asPrinted).toEqual({
        code: 1,
        stdout: '',
        stderr: 'forgegraph: replace CHANGE-ME with a password of your own (at least 8 characters)\n',
      });

      const generated = statSync(path.join(ROOT, 'src/generated')).mtimeMs;
      const res = await bash(`${hint.replace('CHANGE-ME', PASSWORD)} --access-token`);
      // Nothing was installed or generated into the checkout (the first `npx forgegraph` regenerated src/generated).
      expect(statSync(path.join(ROOT, 'src/generated')).mtimeMs).toBe(generated);
      expect(res.stderr).toBe(`${databaseLine()}\n`);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain("New user 'root' has been successfully created!");
      const found = res.stdout.match(/\b[0-9a-f]{40}\b/);
      expect(found).not.toBeNull();
      token = found?.[0] ?? '';

      const me = await fetch(`${baseUrl}/api/v1/user`, { headers: { authorization: `token ${token}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ login: 'root', email: 'root@example.com', is_admin: true });
      const byPassword = await fetch(`${baseUrl}/api/v1/user`, {
        headers: { authorization: `Basic ${Buffer.from(`root:${PASSWORD}`).toString('base64')}` },
      });
      expect(byPassword.status).toBe(200);
    },
  );

  it('admin user list shows root as an active admin', { timeout: SLOW }, async () => {
    const res = await run('admin', 'user', 'list');
    expect(res.stderr).toBe(`${databaseLine()}\n`);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('ID\tUsername\tEmail\tIsActive\tIsAdmin\t2FA');
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^\d+\troot\troot@example\.com\ttrue\ttrue\tfalse$/)]);
  });

  it('admin user change-password sets the password and, by default, must_change_password', { timeout: SLOW }, async () => {
    const res = await run('admin', 'user', 'change-password', '--username', 'root', '--password', NEW_PASSWORD);
    expect(res.stderr).toBe(`${databaseLine()}\n`);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("root's password has been successfully updated!\n");
    expect((await userRow('root'))?.mustChangePassword).toBe(true);

    const basicAuth = (p: string) => ({ authorization: `Basic ${Buffer.from(`root:${p}`).toString('base64')}` });
    const blocked = await fetch(`${baseUrl}/api/v1/user`, { headers: basicAuth(NEW_PASSWORD) });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { message: string }).message).toMatch(/You must change your password/);
    expect((await fetch(`${baseUrl}/api/v1/user`, { headers: basicAuth(PASSWORD) })).status).toBe(401);
  });

  it('creating a duplicate user fails with a clear message and a non-zero exit', { timeout: SLOW }, async () => {
    const res = await run('admin', 'user', 'create', '--username', 'ROOT', '--password', PASSWORD, '--email', 'other@example.com');
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(`${databaseLine()}\nforgegraph: user already exists [name: ROOT]\n`);
  });
});
