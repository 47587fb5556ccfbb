// Clone speed over the built-in SSH server beside smart HTTP, for the same repository on the same server: a
// ~5,000-commit repository pushed through the server, then bare clones alternating between the two doors (the
// real git client and OpenSSH, protocol v2 for both), with medians and the ratio.
// Usage: npx tsx bench/sshClone.ts [runs=10] [sqlite|postgresql|both=sqlite] [commits=5000]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { BENCH_AUTH } from './benchUser.ts';
import { median, pushBigRepository, spread, timedClone } from './cloneFixture.ts';
import { providersArg, scratchDatabase, type Provider } from './scratchDb.ts';

const runs = Number(process.argv[2] ?? 10);
const providers = providersArg(process.argv[3], 'sqlite');
const commits = Number(process.argv[4] ?? 5000);

async function main(provider: Provider): Promise<void> {
  const db = await scratchDatabase(provider, 'sshclone');
  await deployMigrations({ provider, url: db.url });
  const tmp = path.join(db.dataDir, 'bench');
  const config = loadConfig({
    DATA_DIR: path.join(db.dataDir, 'data'),
    DATABASE_URL: db.url,
    SECRET_KEY: 'bench',
    ROOT_URL: 'http://127.0.0.1/',
    SSH_LISTEN_HOST: '127.0.0.1',
    SSH_LISTEN_PORT: '0',
  });
  const app = await buildApp(config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const httpPort = (app.server.server.address() as AddressInfo).port;
  const sshPort = (await app.listenSsh())!.address.port;
  try {
    mkdirSync(tmp, { recursive: true });
    await pushBigRepository(app, httpPort, tmp, commits);
    const keyFile = path.join(tmp, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    const added = await app.server.inject({
      method: 'POST',
      url: '/api/v1/user/keys',
      headers: BENCH_AUTH,
      payload: { title: 'bench', key: readFileSync(`${keyFile}.pub`, 'utf8') },
    });
    if (added.statusCode !== 201) throw new Error(`adding the key failed: ${added.body}`);
    const sshEnv = {
      GIT_SSH_COMMAND: `ssh -i ${keyFile} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`,
    };
    const httpUrl = `http://127.0.0.1:${httpPort}/bench/big.git`;
    const sshUrl = `ssh://git@127.0.0.1:${sshPort}/bench/big.git`;

    const http: number[] = [];
    const ssh: number[] = [];
    // The server's own CPU per clone (this process: the transport, the database; git runs in child processes),
    // which a busy machine slows down less than it does the wall time.
    const cpu = { http: [] as number[], ssh: [] as number[] };
    const measured = async (door: 'http' | 'ssh', clone: () => Promise<void>) => {
      const before = process.cpuUsage();
      await clone();
      const used = process.cpuUsage(before);
      cpu[door].push((used.user + used.system) / 1000);
    };
    await timedClone(tmp, httpUrl, []); // warm-up (page cache, host keys)
    await timedClone(tmp, sshUrl, [], [], sshEnv);
    for (let i = 0; i < runs; i++) {
      await measured('http', () => timedClone(tmp, httpUrl, http));
      await measured('ssh', () => timedClone(tmp, sshUrl, ssh, [], sshEnv));
    }
    console.log(`${provider}: bare clone of ${commits} commits, ${runs} runs each, alternating (median, min–max):`);
    console.log(`  smart HTTP   ${spread(http)}; server CPU ${median(cpu.http).toFixed(0)} ms`);
    console.log(`  SSH          ${spread(ssh)}; server CPU ${median(cpu.ssh).toFixed(0)} ms`);
    console.log(
      `  ratio ssh / http ${(median(ssh) / median(http)).toFixed(2)}x (server CPU ${(median(cpu.ssh) / median(cpu.http)).toFixed(2)}x)`,
    );
  } finally {
    await app.close();
    await db.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

for (const provider of providers) await main(provider);
