// OpenSSH's client against the built-in SSH server: key pairs made by ssh-keygen, and `ssh` runs with a throwaway
// known_hosts, no agent and no prompts.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import type { HostKey } from '../../src/ssh/hostKeys.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { childOutput, type ProcessOutput } from '../helpers/childOutput.ts';

/** A key pair on disk: the private key file, and the public key line to register. */
export interface KeyPair {
  file: string;
  pub: string;
}

/** Options every run gets: no host key checks or prompts, only the given key, quiet. */
const BASE_OPTIONS = [
  '-o',
  'StrictHostKeyChecking=no',
  '-o',
  'UserKnownHostsFile=/dev/null',
  '-o',
  'IdentitiesOnly=yes',
  '-o',
  'BatchMode=yes',
  '-o',
  'LogLevel=ERROR',
  '-o',
  'ConnectTimeout=20',
];

/** Key pairs in a directory of their own, and ssh runs with them. */
export class SshClient {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'fg-sshclient-'));
  private count = 0;

  /** A fresh key pair (ed25519 unless asked otherwise). */
  keygen(type = 'ed25519'): KeyPair {
    const file = path.join(this.dir, `key${++this.count}`);
    execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', `key${this.count}@test`, '-f', file]);
    return { file, pub: readFileSync(`${file}.pub`, 'utf8').trim() };
  }

  /** `GIT_SSH_COMMAND` for git with `key` (the port comes from the URL, or `-p` here for scp-like URLs). */
  gitSshCommand(key: KeyPair, port: number): string {
    return ['ssh', '-i', key.file, '-p', String(port), ...BASE_OPTIONS].join(' ');
  }

  /** Starts `ssh [options] <user>@127.0.0.1 [command]` with `key` (null: no key offered). */
  spawn(port: number, key: KeyPair | null, options: readonly string[], command?: string, user = 'git'): ChildProcessWithoutNullStreams {
    const identity = key ? ['-i', key.file] : ['-o', 'PubkeyAuthentication=no'];
    const argv = [
      ...identity,
      '-p',
      String(port),
      ...BASE_OPTIONS,
      ...options,
      `${user}@127.0.0.1`,
      ...(command === undefined ? [] : [command]),
    ];
    return spawn('ssh', argv, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.dir } });
  }

  /** Runs ssh to the end; exit code 255 is ssh's own failure (e.g. a refused sign-in). */
  run(port: number, key: KeyPair | null, options: readonly string[], command?: string, user = 'git'): Promise<ProcessOutput> {
    return childOutput(this.spawn(port, key, options, command, user));
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A test app whose SSH server listens on a free port of 127.0.0.1 (extra settings in `env`). */
export async function startSshTestApp(
  provider: DbProvider,
  env: Record<string, string> = {},
): Promise<{ t: TestApp; port: number; hostKeys: HostKey[] }> {
  const t = await startTestApp(provider, { SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: '0', ...env });
  const started = await t.app.listenSsh();
  if (!started) throw new Error('the SSH server did not start');
  return { t, port: started.address.port, hostKeys: started.hostKeys };
}
