import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLauncher, type GitProcess } from '../../src/git/launcher/launcher.ts';

const CHILD_SCRIPT = path.resolve(import.meta.dirname, '../../src/git/launcher/child.js');

/** Runs a command through the launcher and collects what it printed and how it ended. */
async function collect(child: GitProcess, input?: string) {
  const out: Buffer[] = [];
  let err = '';
  const errors: string[] = [];
  child.on('error', (e) => errors.push(e.message));
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (code, signal) => resolve([code, signal])),
  );
  if (input !== undefined) child.stdin.end(input);
  const [code, signal] = await closed;
  return { code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: err, errors };
}

const blobId = (text: string) =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest('hex');

describe('the git launcher', () => {
  const launcher = new GitLauncher();
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1' };
  const neverDirect = (): GitProcess => {
    throw new Error('spawned directly although the helper was ready');
  };
  const run = (args: string[], extra: Partial<Parameters<GitLauncher['launch']>[0]> = {}) =>
    launcher.launch({ args, env, channel: false, ...extra }, neverDirect);

  beforeAll(() => launcher.start());
  afterAll(() => launcher.stop());

  it('forks git from the helper, not from this process', async () => {
    const r = await collect(run(['-c', 'alias.parent=!ps -o ppid= -p $PPID', 'parent']));
    expect(r.code).toBe(0);
    expect(Number(r.stdout.trim())).toBe(launcher.helperPid);
    expect(launcher.helperPid).not.toBe(process.pid);
  });

  it('gives each of many concurrent commands its own stdin, stdout and stderr', async () => {
    const inputs = Array.from({ length: 40 }, (_, i) => `content number ${i}\n`.repeat(i + 1));
    const results = await Promise.all(inputs.map((text) => collect(run(['hash-object', '--stdin']), text)));
    expect(results.map((r) => r.stdout.trim())).toEqual(inputs.map(blobId));
    const failures = await Promise.all(
      Array.from({ length: 10 }, (_, i) => collect(run(['--git-dir', `/nonexistent/${i}`, 'rev-parse', 'HEAD']))),
    );
    for (const [i, f] of failures.entries()) {
      expect(f.code).toBe(128);
      expect(f.stderr).toContain(`/nonexistent/${i}`);
    }
  });

  it('a burst of 300 commands at once (900 connections while the helper forks) all run', async () => {
    const inputs = Array.from({ length: 300 }, (_, i) => `burst ${i}\n`);
    const results = await Promise.all(inputs.map((text) => collect(run(['hash-object', '--stdin']), text)));
    expect(results.map((r) => r.stdout.trim())).toEqual(inputs.map(blobId));
  });

  it('streams large output and input through (a 4 MB blob in and out)', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024);
    const r = await collect(run(['hash-object', '--stdin']), big);
    expect(r.stdout.trim()).toBe(blobId(big));
    const cat = await collect(run(['-c', `alias.big=!head -c ${big.length} /dev/zero`, 'big']));
    expect(cat.stdout.length).toBe(big.length);
  });

  it('kill, a timeout and an abort end a command that waits on stdin', async () => {
    const killed = run(['cat-file', '--batch']);
    const ended = collect(killed);
    await new Promise((r) => setTimeout(r, 200));
    expect(killed.kill()).toBe(true);
    expect(await ended).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect(killed.kill()).toBe(false);

    const timedOut = await collect(run(['cat-file', '--batch'], { timeoutMs: 300 }));
    expect(timedOut).toMatchObject({ code: null, signal: 'SIGTERM' });

    // Aborted at once: the kill reaches the helper before the command's sockets do.
    const controller = new AbortController();
    const aborted = run(['cat-file', '--batch'], { signal: controller.signal });
    const errors: Error[] = [];
    aborted.on('error', (e) => errors.push(e));
    const abortedEnd = collect(aborted);
    controller.abort();
    expect((await abortedEnd).signal).toBe('SIGTERM');
    expect(errors.map((e) => e.name)).toEqual(['AbortError']);
  });

  it('a channel at fd 3 is a blocking descriptor the command reads and writes', async () => {
    // The shell reads one line from fd 3 and answers on it, as the push hooks do.
    const child = run(['-c', 'alias.talk=!read -r line <&3; echo "got $line" >&3', 'talk'], { channel: true });
    const channel = child.stdio[3] as unknown as NodeJS.ReadWriteStream;
    let answer = '';
    channel.setEncoding('utf8');
    channel.on('data', (d: string) => (answer += d));
    channel.write('hello\n');
    const r = await collect(child, '');
    expect(r.code).toBe(0);
    expect(answer).toBe('got hello\n');
  });

  it('when the helper dies, its commands fail with an error and the next command starts it again', async () => {
    const pid = launcher.helperPid;
    const waiting = run(['cat-file', '--batch']);
    const errors: Error[] = [];
    waiting.on('error', (e) => errors.push(e));
    const ended = collect(waiting);
    await new Promise((r) => setTimeout(r, 200));
    process.kill(pid ?? 0, 'SIGKILL');
    await ended;
    expect(errors.map((e) => e.message)).toEqual(['the git launcher exited']);

    // The next command is spawned directly while a new helper starts, then the helper serves again.
    let direct = 0;
    const viaDirect = launcher.launch({ args: ['--version'], env, channel: false }, () => {
      direct += 1;
      return spawn('git', ['--version'], { env }) as GitProcess;
    });
    expect((await collect(viaDirect)).stdout).toMatch(/^git version/);
    expect(direct).toBe(1);
    await launcher.start();
    expect(launcher.helperPid).not.toBe(pid);
    expect((await collect(run(['--version']))).stdout).toMatch(/^git version/);
  });

  it.each([
    ['while the helper is still starting', 0],
    ['once the helper serves', 600],
  ])('a server killed %s leaves no helper and no socket directory behind', async (_when, delayMs) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'forgegraph-git-'));
    const socketPath = path.join(dir, 'launcher.sock');
    // A stand-in server: starts the helper as GitLauncher does, prints its pid, and is killed after `delayMs`.
    const server = spawn(
      process.execPath,
      [
        '-e',
        `const h = require('node:child_process').spawn(process.execPath, [${JSON.stringify(CHILD_SCRIPT)}, ${JSON.stringify(socketPath)}], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
         console.log(h.pid);
         setTimeout(() => process.kill(process.pid, 'SIGKILL'), ${delayMs});`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    server.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    await new Promise((resolve) => server.on('exit', resolve));
    const helper = Number(out.trim());
    expect(helper).toBeGreaterThan(0);
    // Exited (gone, or a zombie nobody reaps in a container whose first process does not reap).
    const running = () => {
      try {
        return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${helper}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 200 && running(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(running(), `helper ${helper} still runs`).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});
