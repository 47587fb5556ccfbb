// Vitest setup file: records each test file's CPU time (the worker's own, and that of the processes it started and
// reaped: git, servers, CLI commands) so the summary can name where the suite's CPU goes. On a 2-core machine the
// suite's wall time follows its CPU time, not the sum of file durations.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { cpuLogFile } from './cpuLog.ts';

/** Fields 14-17 of /proc/<pid>/stat (utime, stime, cutime, cstime), in seconds; null when unreadable. */
function statTimes(pid: number | 'self'): { own: number; reaped: number } | null {
  try {
    // The command name (field 2) may hold spaces; the fields after it start at field 3.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { own: ((fields[11] ?? 0) + (fields[12] ?? 0)) / 100, reaped: ((fields[13] ?? 0) + (fields[14] ?? 0)) / 100 };
  } catch {
    return null;
  }
}

/** The pids of this process's live children (all threads' lists). */
function liveChildren(): number[] {
  try {
    return readdirSync('/proc/self/task').flatMap((tid) =>
      readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * CPU seconds of this process, and of the processes it started: those it reaped, plus those still running with what
 * they reaped (the git launcher helper lives as long as the worker, and its git commands are its children).
 */
function cpuSeconds(): { self: number; children: number } {
  const usage = process.cpuUsage();
  let children = statTimes('self')?.reaped ?? 0;
  for (const pid of liveChildren()) {
    const t = statTimes(pid);
    if (t) children += t.own + t.reaped;
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
