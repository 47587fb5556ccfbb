// Vitest setup file: records each test file's CPU time (the worker's own, and that of the processes it started and
// reaped: git, servers, CLI commands) so the summary can name where the suite's CPU goes. On a 2-core machine the
// suite's wall time follows its CPU time, not the sum of file durations.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { cpuLogFile } from './cpuLog.ts';

/** CPU seconds of this process, and of its reaped children (/proc/self/stat cutime + cstime, in clock ticks). */
function cpuSeconds(): { self: number; children: number } {
  const usage = process.cpuUsage();
  let children = 0;
  try {
    // Fields after the command name (which may hold spaces) start at field 3; cutime and cstime are fields 16 and 17.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    // Not Linux: children are not counted.
  }
  return { self: (usage.user + usage.system) / 1e6, children };
}

let start: { self: number; children: number; wall: number };
beforeAll(() => {
  start = { ...cpuSeconds(), wall: performance.now() };
});
afterAll(() => {
  const end = cpuSeconds();
  const file = path.relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  const record = {
    file,
    self: +(end.self - start.self).toFixed(2),
    children: +(end.children - start.children).toFixed(2),
    wall: +((performance.now() - start.wall) / 1000).toFixed(2),
  };
  appendFileSync(cpuLogFile(process.ppid), `${JSON.stringify(record)}\n`);
});
