import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { ROOT } from '../../paths.ts';

/**
 * A running git command: what the server uses of Node's ChildProcess (which also satisfies it, for a command
 * spawned directly). `close` follows `exit` once stdout, stderr (and the channel) are closed.
 */
export interface GitProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** stdin, stdout, stderr and, when asked for, the channel at fd 3 (a duplex socket: cast it). */
  readonly stdio: readonly [Writable, Readable, Readable, ...(Readable | Writable | null | undefined)[]];
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'close' | 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
}

/** What spawning needs: git's arguments, environment and directory, a timeout or abort signal, a channel at fd 3. */
export interface LaunchRequest {
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  channel: boolean;
  /** The directory git runs in (default: the launcher's own). */
  cwd?: string;
}

type HelperMessage =
  | { t: 'ready' }
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'error'; id: number; code: string; message: string }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };

const CHILD_SCRIPT = path.join(ROOT, 'src/git/launcher/child.js');

/** A git command the helper runs; its stdio are sockets to git itself. */
class LaunchedGit extends EventEmitter implements GitProcess {
  readonly stdin: net.Socket;
  readonly stdout: net.Socket;
  readonly stderr: net.Socket;
  readonly stdio: [net.Socket, net.Socket, net.Socket, ...net.Socket[]];
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  #exited = false;
  #failed = false;
  #open: number;

  constructor(
    readonly id: number,
    sockets: net.Socket[],
    readonly sendKill: (signal: NodeJS.Signals) => void,
  ) {
    super();
    const [stdin, stdout, stderr, ...rest] = sockets as [net.Socket, net.Socket, net.Socket, ...net.Socket[]];
    this.stdin = stdin;
    this.stdout = stdout;
    this.stderr = stderr;
    this.stdio = [stdin, stdout, stderr, ...rest];
    // As Node's ChildProcess: `close` waits for the streams git writes to, not for stdin. git never writes to
    // stdin's socket; reading it lets its end (git exited) close it.
    stdin.resume();
    this.#open = sockets.length - 1;
    for (const s of [stdout, stderr, ...rest]) s.on('close', () => this.#socketClosed());
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.#exited || this.#failed) return false;
    this.sendKill(signal);
    return true;
  }

  /** The helper's report that git exited. */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited || this.#failed) return;
    this.#exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
    this.#maybeClose();
  }

  /** git could not be started or cannot be followed any more (the helper died): an error, then close. */
  failed(err: Error): void {
    if (this.#exited || this.#failed) return;
    this.#failed = true;
    for (const s of this.stdio) s.destroy();
    this.emit('error', err);
    this.#maybeClose();
  }

  #socketClosed(): void {
    this.#open -= 1;
    this.#maybeClose();
  }

  #maybeClose(): void {
    if (this.#open === 0 && (this.#exited || this.#failed)) this.emit('close', this.exitCode, this.signalCode);
  }
}

/**
 * Starts git commands from a small helper process (child.js) instead of from this one. Node forks the process
 * that spawns, and a fork copies its page tables: from a server of a few hundred megabytes each git command
 * cost 10-45 ms of blocked event loop on a 2-core virtual machine, most of it kernel time, against ~3 ms from
 * the helper. The helper hands git the server's sockets as its stdin, stdout and stderr, so output does not pass
 * through it.
 *
 * Until the helper is ready (at the first command) and after it died, commands are spawned directly; a helper
 * that exits is started again at the next command. Commands it was running fail with an error.
 */
export class GitLauncher {
  #helper: ChildProcess | null = null;
  #socketPath: string | null = null;
  #ready = false;
  #nextId = 1;
  readonly #running = new Map<number, LaunchedGit>();

  /** Starts git; `spawnDirect` is used while no helper is ready. */
  launch(request: LaunchRequest, spawnDirect: () => GitProcess): GitProcess {
    if (!this.#ready || !this.#helper || !this.#socketPath) {
      this.#start();
      return spawnDirect();
    }
    const helper = this.#helper;
    const id = this.#nextId++;
    helper.send({
      t: 'spawn',
      id,
      args: request.args,
      env: request.env,
      timeoutMs: request.timeoutMs ?? 0,
      channel: request.channel,
      ...(request.cwd ? { cwd: request.cwd } : {}),
    });
    const socketPath = this.#socketPath;
    const sockets = Array.from({ length: request.channel ? 4 : 3 }, () => net.connect(socketPath));
    const child = new LaunchedGit(id, sockets, (signal) => {
      if (helper.connected) helper.send({ t: 'kill', id, signal });
    });
    this.#track(child);
    for (const s of sockets) {
      // A connection that fails leaves the helper matching sockets to the wrong commands: start over. Errors
      // after connecting (a closed pipe) are the caller's, as with Node's pipes.
      let connected = false;
      s.once('connect', () => (connected = true));
      s.on('error', (err) => {
        if (!connected && this.#helper === helper) this.#restart(err);
      });
    }
    if (request.signal) abortOn(request.signal, child);
    return child;
  }

  /** Starts the helper now and resolves when it takes commands (else it starts at the first command). */
  async start(): Promise<void> {
    this.#start();
    const helper = this.#helper;
    if (this.#ready || !helper) return;
    // Waiting on the helper keeps this process alive (the channel is otherwise unreferenced while idle).
    helper.channel?.ref();
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: HelperMessage) => {
        if (m.t !== 'ready') return;
        helper.off('exit', onExit);
        helper.off('message', onMessage);
        if (this.#running.size === 0) helper.channel?.unref();
        resolve();
      };
      const onExit = () => {
        helper.off('message', onMessage);
        reject(new Error('the git launcher exited while starting'));
      };
      helper.on('message', onMessage);
      helper.once('exit', onExit);
    });
  }

  /** The helper's process id, while it runs. */
  get helperPid(): number | undefined {
    return this.#helper?.pid;
  }

  /** Stops the helper (tests, shutdown); commands it runs fail. */
  stop(): void {
    this.#restart(new Error('the git launcher stopped'));
  }

  #track(child: LaunchedGit): void {
    this.#running.set(child.id, child);
    this.#helper?.channel?.ref();
    child.on('close', () => {
      this.#running.delete(child.id);
      if (this.#running.size === 0) this.#helper?.channel?.unref();
    });
  }

  #start(): void {
    if (this.#helper) return;
    const dir = mkdtempSync(path.join(tmpdir(), 'forgegraph-git-'));
    const socketPath = path.join(dir, 'launcher.sock');
    const helper = spawn(process.execPath, [CHILD_SCRIPT, socketPath], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    this.#helper = helper;
    helper.unref();
    helper.channel?.unref();
    helper.on('message', (m: HelperMessage) => {
      if (m.t === 'ready') {
        this.#socketPath = socketPath;
        this.#ready = true;
        return;
      }
      const child = this.#running.get(m.id);
      if (!child) return;
      if (m.t === 'spawned') child.pid = m.pid;
      else if (m.t === 'exit') child.exited(m.code, m.signal);
      else child.failed(Object.assign(new Error(m.message), { code: m.code }));
    });
    const removeDir = () => rmSync(dir, { recursive: true, force: true });
    process.once('exit', removeDir);
    const gone = () => {
      process.off('exit', removeDir);
      removeDir();
      if (this.#helper === helper) this.#forget(new Error('the git launcher exited'));
    };
    helper.on('exit', gone);
    helper.on('error', gone);
  }

  #restart(err: Error): void {
    const helper = this.#helper;
    this.#forget(err);
    helper?.kill('SIGKILL');
  }

  #forget(err: Error): void {
    this.#helper = null;
    this.#ready = false;
    this.#socketPath = null;
    const running = [...this.#running.values()];
    this.#running.clear();
    for (const child of running) child.failed(err);
  }
}

/** As Node's `signal` option: an abort kills git and reports an AbortError. */
function abortOn(signal: AbortSignal, child: LaunchedGit): void {
  const abort = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    child.emit(
      'error',
      Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' }),
    );
  };
  if (signal.aborted) queueMicrotask(abort);
  else {
    signal.addEventListener('abort', abort, { once: true });
    child.on('close', () => signal.removeEventListener('abort', abort));
  }
}
