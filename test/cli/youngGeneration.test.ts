import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from '../helpers/serverProcess.ts';

const BOUND = '--max-semi-space-size=8';
/** Node 22.15+ and 24 have process.execve; there `serve` bounds its young generation (src/bin/heapShape.js). */
const bounds = Number(process.versions.node.split('.')[0]) >= 22 && typeof (process as { execve?: unknown }).execve === 'function';

/** The command line the kernel shows for `pid`: after an execve, the new one. */
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

describe(`forgegraph serve on Node ${process.versions.node}: the young generation's bound`, () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  async function served(env: Record<string, string> = {}): Promise<string[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'fg-young-'));
    dirs.push(dir);
    const port = await freePort();
    const server = new ServerProcess({ DATA_DIR: path.join(dir, 'data'), PORT: String(port), LOG_LEVEL: 'warn', ...env });
    try {
      await server.ready(port);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/version`)).status).toBe(200);
      return commandLine(server.pid);
    } finally {
      await server.stop();
      // The process that was started is the one that served and stopped: SIGTERM reached the server itself.
      expect(await server.exited).toEqual({ code: 0, signal: null });
    }
  }

  it(
    bounds ? `runs itself again, same process, with ${BOUND}` : 'runs as started: Node 20 keeps its young generation small itself',
    async () => {
      const argv = await served();
      expect(argv.includes(BOUND)).toBe(bounds);
      expect(argv.at(-1)).toBe('serve');
      expect(argv.at(-2)).toMatch(/src\/bin\/forgegraph\.js$/);
    },
  );

  it("leaves a heap the user shaped as the user shaped it (NODE_OPTIONS' --max-old-space-size)", async () => {
    const argv = await served({ NODE_OPTIONS: '--max-old-space-size=512' });
    expect(argv).not.toContain(BOUND);
  });
});
