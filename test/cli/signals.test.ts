// SIGTERM sent to the outermost process of each documented way to run Forgegraph stops it (issue 31, finding 1:
// `npm start` ran the server under `sh`, which did not pass the signal on, so the server was orphaned and kept its
// port). Each start is its own process group, so "no process of the tree survives" is "the group is empty".
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { serverDatabaseForSuite, serverEnv } from '../helpers/serverDatabase.ts';
import { accepts, freePort, portFree, slowUpload, until } from '../helpers/serverProcess.ts';
import { RunnerWorld } from '../runner/builtinRunnerProcess.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Whether any process of the group `pgid` exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The documented ways to start the server, as argv of the outermost process (run in the checkout). */
const STARTS: Array<[string, NodeJS.Signals, string[]]> = [
  ['npm start', 'SIGTERM', ['npm', 'start']],
  ['node src/bin/forgegraph.js serve', 'SIGTERM', [process.execPath, 'src/bin/forgegraph.js', 'serve']],
  // A hangup stops it as gracefully (npm does not pass SIGHUP on; a terminal's hangup reaches the whole group).
  ['node src/bin/forgegraph.js serve', 'SIGHUP', [process.execPath, 'src/bin/forgegraph.js', 'serve']],
];

describe.each(CLIENT_PROVIDERS)('SIGTERM to the outermost process stops the server (%s)', (provider) => {
  const suite = serverDatabaseForSuite(provider);

  it.each(STARTS)('%s, %s: the port is released, the request in flight is answered, no process survives', async (_name, signal, argv) => {
    const port = await freePort();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...serverEnv(suite.database, port) };
    const [command = '', ...args] = argv;
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const pgid = child.pid ?? 0;
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`exited early:\n${output}`);
          return (await fetch(`http://127.0.0.1:${port}/api/healthz`).catch(() => null))?.ok === true;
        },
        150_000,
        'the server',
      );
      const upload = slowUpload(port, `signals-${port}.bin`, 'alice', PASSWORD);
      await new Promise((r) => setTimeout(r, 300)); // the request is accepted and its body is being read

      child.kill(signal); // the outermost process only, as docker stop or systemd (KillMode=mixed) do
      await until(async () => !(await accepts(port)), 60_000, `the listener to close; output:\n${output}`);
      upload.finish();
      expect((await upload.answer).status).toBe(201);
      expect(await exited).toBe(0);
      await until(() => !groupAlive(pgid), 30_000, 'every process of the tree to exit');
      expect(await portFree(port)).toBe(true);
    } finally {
      if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    }
  });
});

describe('SIGTERM to `node src/bin/forgegraph.js runner daemon`', () => {
  let w: RunnerWorld;

  beforeAll(async () => {
    w = await RunnerWorld.start(CLIENT_PROVIDERS[0] ?? 'sqlite');
  });

  afterAll(async () => {
    await w.close();
  });

  // The bin runs the runner in its own process (no child), so the signal reaches the runner's handler itself.
  it('stops the runner: it exits 0', async () => {
    const { daemon } = await w.startRunner('signalled', 'signals');
    // Its first line of its own (the bin may say it rebuilt the bundle before).
    await w.until(() => daemon.output.join('').includes(' declared to '), 'the daemon to declare itself');
    daemon.signal('SIGTERM');
    expect(await daemon.exited).toBe(0);
  });
  it('stops the runner on SIGHUP too: it exits 0', async () => {
    const { daemon } = await w.startRunner('hungup', 'signals');
    await w.until(() => daemon.output.join('').includes(' declared to '), 'the daemon to declare itself');
    daemon.signal('SIGHUP');
    expect(await daemon.exited).toBe(0);
  });
});
