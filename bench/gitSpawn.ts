// What starting a git command costs the server: forked by this process (GIT_LAUNCHER=direct) against forked by
// the launcher's helper (src/git/launcher). The process first holds `heapMb` of live objects, as a server or a
// test worker does, then runs `count` `git --version` one after another and `count` more 8 at a time, each way,
// alternating. Prints the wall time per command, the CPU time of this process per command, and how long the
// event loop was blocked (the longest stall and the p99 of the delay histogram).
// Usage: npx tsx bench/gitSpawn.ts [count=200] [heapMb=400]
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GitLauncher, type GitProcess } from '../src/git/launcher/launcher.ts';

const count = Number(process.argv[2] ?? 200);
const heapMb = Number(process.argv[3] ?? 400);
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1' };

// Live objects, as a server's heap (strings, arrays, objects: ~100 bytes each).
const ballast: object[] = [];
for (let i = 0; i < heapMb * 10_000; i++) ballast.push({ id: i, name: `object ${i}`, tags: [i, i + 1] });

const launcher = new GitLauncher();
await launcher.start();

const direct = (): GitProcess => spawn('git', ['--version'], { env }) as GitProcess;
const viaHelper = (): GitProcess => launcher.launch({ args: ['--version'], env, channel: false }, direct);

function run(start: () => GitProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = start();
    child.stdin.end();
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git exited ${code}`))));
  });
}

async function measure(start: () => GitProcess, parallel: number) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        await run(start);
      }
    }),
  );
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  delay.disable();
  return {
    wallMs: wall / count,
    cpuMs: (used.user + used.system) / 1000 / count,
    maxStallMs: delay.max / 1e6,
    p99StallMs: delay.percentile(99) / 1e6,
  };
}

const fmt = (r: Awaited<ReturnType<typeof measure>>) =>
  `${r.wallMs.toFixed(2).padStart(7)} ms wall  ${r.cpuMs.toFixed(2).padStart(6)} ms CPU here  stall max ${r.maxStallMs
    .toFixed(1)
    .padStart(5)} ms, p99 ${r.p99StallMs.toFixed(1).padStart(5)} ms`;

console.log(`rss ${Math.round(process.memoryUsage().rss / 1e6)} MB, ${ballast.length} live objects; ${count} commands each way`);
for (const parallel of [1, 8]) {
  await run(direct);
  await run(viaHelper);
  const d = await measure(direct, parallel);
  const h = await measure(viaHelper, parallel);
  console.log(`${parallel} at a time, direct: ${fmt(d)}`);
  console.log(`${parallel} at a time, helper: ${fmt(h)}`);
}
launcher.stop();
