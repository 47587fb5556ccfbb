import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where a run's per-file CPU records go (test/helpers/cpuUsage.ts): one file per vitest process, the workers' parent. */
export function cpuLogFile(runnerPid: number | 'last'): string {
  return path.join(tmpdir(), `forgegraph-test-cpu-${runnerPid}.json${runnerPid === 'last' ? '' : 'l'}`);
}
