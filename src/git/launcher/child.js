// The git launcher's helper process (src/git/launcher/launcher.ts starts it). Plain JavaScript, no loader: it must
// stay small, because every git command is forked from it, and fork copies the page tables of the process that
// forks (a server or a test worker of several hundred megabytes took 10-45 ms per fork; this process, ~40 MB,
// takes ~3 ms).
//
// Protocol. The server sends { t: 'spawn', id, args, env, timeoutMs, channel } over the IPC channel, then opens
// 3 connections to this process's socket (4 with `channel`), in order: git's stdin, stdout, stderr (and the
// hooks' channel). Connections from the one server arrive in the order it opened them, as its requests do, so
// each request takes the next 3 or 4. stdin, stdout and stderr are handed to git as they are (its fds 0-2 are
// those sockets; Node makes them blocking in git); the channel is relayed through a pipe, so the hooks get a
// blocking fd 3. Replies: { t: 'spawned', id, pid }, { t: 'error', id, code, message }, { t: 'exit', id, code,
// signal }; { t: 'kill', id, signal } kills a command.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const sockets = [];
const requests = [];
const running = new Map();
// Kills that arrived before their command's sockets did: applied as soon as it starts.
const earlyKills = new Map();

function send(message) {
  if (process.connected) process.send(message);
}

function start(request, stdio) {
  const [stdin, stdout, stderr, channel] = stdio;
  let child;
  try {
    child = spawn('git', request.args, {
      env: request.env,
      ...(request.cwd ? { cwd: request.cwd } : {}),
      stdio: [stdin, stdout, stderr, ...(channel ? ['pipe'] : [])],
      ...(request.timeoutMs ? { timeout: request.timeoutMs } : {}),
    });
  } catch (err) {
    for (const s of stdio) s.destroy();
    send({ t: 'error', id: request.id, code: err.code ?? 'ERR_SPAWN', message: err.message });
    return;
  }
  // git holds its own copies of the three sockets; ours would keep them open after it exits.
  stdin.destroy();
  stdout.destroy();
  stderr.destroy();
  if (channel) {
    const pipe = child.stdio[3];
    channel.on('error', () => pipe.destroy());
    pipe.on('error', () => channel.destroy());
    pipe.pipe(channel);
    channel.pipe(pipe);
    channel.resume();
  }
  running.set(request.id, child);
  child.on('error', (err) => {
    running.delete(request.id);
    send({ t: 'error', id: request.id, code: err.code ?? 'ERR_SPAWN', message: err.message });
  });
  child.on('exit', (code, signal) => {
    running.delete(request.id);
    send({ t: 'exit', id: request.id, code, signal });
  });
  if (child.pid !== undefined) send({ t: 'spawned', id: request.id, pid: child.pid });
  const early = earlyKills.get(request.id);
  if (early) {
    earlyKills.delete(request.id);
    child.kill(early);
  }
}

function pump() {
  while (requests.length > 0) {
    const needed = requests[0].channel ? 4 : 3;
    if (sockets.length < needed) return;
    start(requests.shift(), sockets.splice(0, needed));
  }
}

const server = net.createServer({ pauseOnConnect: true }, (socket) => {
  sockets.push(socket);
  pump();
});
server.on('error', (err) => {
  process.stderr.write(`git launcher: ${err.message}\n`);
  process.exit(1);
});
process.on('message', (message) => {
  if (message.t === 'spawn') {
    requests.push(message);
    pump();
  } else if (message.t === 'kill') {
    const child = running.get(message.id);
    if (child) child.kill(message.signal);
    else if (requests.some((r) => r.id === message.id)) earlyKills.set(message.id, message.signal);
  }
});
// The helper exits when the server goes away, and takes its socket's directory with it (a server that was killed
// cannot). An entry point that is an ES module loads asynchronously: a server killed within those milliseconds
// closed the channel before this listener existed, so its absence is checked too (such helpers lived on).
const exitAlone = () => {
  rmSync(path.dirname(process.argv[2]), { recursive: true, force: true });
  process.exit(0);
};
process.on('disconnect', exitAlone);
if (!process.connected) exitAlone();
// A burst of commands opens three or four connections each while this process is busy forking: a long queue
// (the kernel caps it at net.core.somaxconn), since a refused connection restarts the helper.
server.listen({ path: process.argv[2], backlog: 4096 }, () => send({ t: 'ready' }));
