// The SSH server as a process part: host keys kept across restarts (and shared by instances on one data
// directory), its time and connection limits, the graceful drain on close, and DISABLE_SSH.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { HostKey } from '../../src/ssh/hostKeys.ts';
import { basic, type TestApp } from '../helpers/app.ts';
import { childOutput } from '../helpers/childOutput.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture } from '../githttp/gitClient.ts';
import { SshClient, startSshTestApp, type KeyPair } from './sshClient.ts';

const run = promisify(execFile);

/** The host keys a server presents (`type base64`, sorted), as ssh-keyscan reads them (run async: the server is in this process). */
async function keyscan(port: number): Promise<string[]> {
  const { stdout } = await run('ssh-keyscan', ['-p', String(port), '-t', 'ed25519,rsa', '127.0.0.1']);
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' ').slice(1).join(' '))
    .sort();
}

/** What a raw TCP client sees before the server closes the connection: the bytes, and how long it stayed open. */
function rawConnection(port: number): Promise<{ received: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let received = '';
    const socket = connect(port, '127.0.0.1');
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ received, ms: performance.now() - started }));
  });
}

describe.each(CLIENT_PROVIDERS)('SSH server lifecycle (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let ssh: SshClient;
  let key: KeyPair;
  let hostFingerprints: string[];
  const others: App[] = [];

  /** Another server instance over the same data directory and database (a restart, or a second instance). */
  async function instance(env: Record<string, string>): Promise<App> {
    const config = loadConfig({
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.databaseUrl,
      SECRET_KEY: 'test-secret',
      ROOT_URL: 'http://localhost:3000/',
      ...env,
    });
    const app = await buildApp(config, { db: t.db });
    others.push(app);
    return app;
  }

  beforeAll(async () => {
    let hostKeys: HostKey[];
    ({ t, port, hostKeys } = await startSshTestApp(provider, {
      SSH_HANDSHAKE_TIMEOUT: '1500ms',
      SSH_IDLE_TIMEOUT: '1s',
      SSH_MAX_CONNECTIONS_PER_IP: '3',
    }));
    hostFingerprints = hostKeys.map((k) => k.fingerprint);
    ssh = new SshClient();
    key = ssh.keygen();
    const alice = await t.createUser('alice');
    await createRepoFixture(t, alice, 'pub');
    const res = await t.request('POST', '/api/v1/user/keys', { headers: basic('alice'), body: { title: 'laptop', key: key.pub } });
    expect(res.statusCode).toBe(201);
  });
  afterAll(async () => {
    for (const app of others) await app.close().catch(() => undefined);
    ssh?.dispose();
    await t?.close();
  });

  it('keeps its host keys (ed25519 and RSA) across a restart, in <DATA_DIR>/ssh', async () => {
    const before = await keyscan(port);
    expect(before.map((k) => k.split(' ')[0])).toEqual(['ssh-ed25519', 'ssh-rsa']);
    const restarted = await instance({ SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: '0' });
    const again = await restarted.listenSsh();
    expect(again!.hostKeys.map((k) => k.fingerprint)).toEqual(hostFingerprints);
    expect(await keyscan(again!.address.port)).toEqual(before);
    await restarted.close();
    const dir = path.join(t.config.dataDir, 'ssh');
    const files = ['ssh_host_ed25519_key.pub', 'ssh_host_rsa_key.pub'].map((f) => readFileSync(path.join(dir, f), 'utf8').trim());
    expect(files.sort()).toEqual(before);
    const printed = execFileSync('ssh-keygen', ['-lf', path.join(dir, 'ssh_host_ed25519_key.pub')]).toString();
    expect(printed).toContain(hostFingerprints[0]);
  });

  it('closes a connection that does not sign in within SSH_HANDSHAKE_TIMEOUT', async () => {
    const silent = await rawConnection(port);
    expect(silent.received).toMatch(/^SSH-2\.0-Forgegraph\r\n/);
    expect(silent.ms).toBeGreaterThan(1200);
    expect(silent.ms).toBeLessThan(8000);
  });

  it('refuses more than SSH_MAX_CONNECTIONS_PER_IP connections from one address', async () => {
    const open = [rawConnection(port), rawConnection(port), rawConnection(port)];
    await sleep(200);
    const extra = await rawConnection(port);
    expect(extra.received).toBe('');
    expect(extra.ms).toBeLessThan(500);
    for (const c of await Promise.all(open)) expect(c.received).toMatch(/^SSH-2\.0-/);
  });

  it('closes a signed-in connection that runs nothing for SSH_IDLE_TIMEOUT', async () => {
    const started = performance.now();
    const idle = await ssh.run(port, key, ['-N']);
    expect(idle.code).toBe(255);
    expect(performance.now() - started).toBeLessThan(8000);
  });

  it('survives a client that goes away mid-command, and serves on', async () => {
    const client = ssh.spawn(port, key, ['-T'], "git-upload-pack 'alice/pub.git'");
    await new Promise<void>((resolve) => client.stdout.once('data', () => resolve()));
    client.kill('SIGKILL');
    await new Promise((resolve) => client.once('close', resolve));
    const next = await childOutput(ssh.spawn(port, key, ['-T'], "git-upload-pack 'alice/pub.git'"), '0000');
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/0000$/);
  });

  it('drains on close: a running git command finishes, idle connections close, new ones are refused', async () => {
    const app = await instance({ SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: '0' });
    const p = (await app.listenSsh())!.address.port;
    const running = ssh.spawn(p, key, ['-T'], "git-upload-pack 'alice/pub.git'");
    let advertised = '';
    await new Promise<void>((resolve) =>
      running.stdout.on('data', (d: Buffer) => {
        advertised += d.toString('latin1');
        if (advertised.endsWith('0000')) resolve();
      }),
    );
    const idle = ssh.spawn(p, key, ['-N']);
    await sleep(500);
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    const idleEnded = await childOutput(idle);
    expect(idleEnded.code).toBe(255);
    const late = await ssh.run(p, key, ['-T'], "git-upload-pack 'alice/pub.git'");
    expect(late.code).toBe(255);
    expect(late.stderr).toContain('Connection refused');
    expect(closed).toBe(false);
    // The client says it wants nothing: upload-pack ends, and so does the drain.
    const finished = await childOutput(running, '0000');
    expect(finished.code, finished.stderr + finished.stdout).toBe(0);
    await closing;
    expect(closed).toBe(true);
  });

  it('DISABLE_SSH: no SSH server even when asked to start; ssh_url keeps Gitea’s form', async () => {
    const app = await instance({ DISABLE_SSH: 'true', START_SSH_SERVER: 'true', SSH_LISTEN_PORT: '0' });
    expect(await app.listenSsh()).toBeNull();
    const repo = await app.server.inject({ method: 'GET', url: '/api/v1/repos/alice/pub' });
    expect(repo.json<{ ssh_url: string }>().ssh_url).toBe('git@localhost:alice/pub.git');
  });
});
