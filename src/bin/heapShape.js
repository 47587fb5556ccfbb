// The V8 heap's shape for the `forgegraph` command (src/bin/forgegraph.js) and `forgegraph serve`
// (src/cli/serve.ts). Plain JavaScript: the command imports it before the bundle, without tsx.
import { performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import v8 from 'node:v8';

/**
 * The young generation's bound for `serve` on Node 22 and later (V8 12+): 8 MB a semi-space. There V8 grows it to
 * 32 MB a semi-space under load whatever `--optimize-for-size` says, and only a flag at start bounds it (V8 reads the
 * bound once, when it makes the heap). Node 24.22.3, `npx tsx bench/servedReads.ts 5 3 sqlite 20`, two runs each: the
 * load-adapted heap unbounded 351-357 MB resident under load; bounded 253-287 MB at the same throughput (nested
 * GraphQL query 985-1,105 req/s, GET of an issue 5,325-5,832), idle again 206-223 MB after 20 s; held small
 * throughout (what Node 24 did before) 224-242 MB at 387-488 and 3,420-4,921 req/s.
 */
const YOUNG_BOUND = '--max-semi-space-size=8';
/** Says that the bound in the flags was put there by boundYoungGeneration, not by the user. */
const BOUND_BY_US = 'FORGEGRAPH_YOUNG_BOUND';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** Whether the flags hold the young generation's bound as boundYoungGeneration gave it. */
function boundByUs() {
  return process.env[BOUND_BY_US] === YOUNG_BOUND && process.execArgv.includes(YOUNG_BOUND);
}

/** Whether the user chose the heap's shape themselves (NODE_OPTIONS, node flags): then it is theirs. */
function userShaped() {
  const flags = boundByUs() ? process.execArgv.filter((f) => f !== YOUNG_BOUND) : process.execArgv;
  const chosen = `${process.env.NODE_OPTIONS ?? ''} ${flags.join(' ')}`;
  return /--(optimize-for-size|heap-growing-percent|max-old-space-size|max-semi-space-size|max-heap-size)/.test(chosen);
}

/**
 * The flags and environment that bound the young generation (YOUNG_BOUND) for a server process on this Node, or
 * undefined: on Node 20 (its V8 keeps the young generation small while `--optimize-for-size` is set, and adaptHeap
 * lifts it under load), when the user shaped the heap, or when the bound is there already.
 */
export function youngGenerationBound() {
  if (NODE_MAJOR < 22 || userShaped() || boundByUs()) return undefined;
  return { flags: [YOUNG_BOUND], env: { [BOUND_BY_US]: YOUNG_BOUND } };
}

/**
 * For `serve` (src/bin/forgegraph.js, first thing): runs this process again with the young generation bounded when
 * youngGenerationBound asks for it: the same process (process.execve, Node 22.15 and later; same pid, so signals and
 * a service manager see the server itself), one more start of Node (~0.1 s). Where execve is missing (Node 22 before
 * 22.15, Windows), the process goes on unbounded and adaptHeap keeps its heap small throughout.
 */
export function boundYoungGeneration() {
  const bound = youngGenerationBound();
  if (!bound || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...bound.flags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...bound.env,
  });
}

/**
 * Turns off V8's allocation-site pretenuring (unless the user's flags name it): V8 tracks where objects are made and,
 * when most of a site's objects survived a young-generation collection, allocates that site's objects in the old
 * generation from then on. A request's rows and result objects are alive while it runs, so a collection in the middle
 * of one tenured their sites, and every later request's short-lived objects went to the old generation, to be freed
 * only by full collections: 600 KB a scavenge, 98% of what survived one (`--trace-gc-nvp`), and a full collection of
 * the whole heap every ~400 ms under the nested GraphQL query. Without it, the same run promotes 185 KB a scavenge,
 * makes half as many full collections and answers 10% faster with a smaller heap (bench/graphProfile.ts).
 * Called first thing (src/bin/forgegraph.js, and the benches' bench/serverRuntime.ts): a site tenured before stays so.
 */
export function noPretenuring() {
  if (!/--(no-)?allocation-site-pretenuring/.test(`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`)) {
    v8.setFlagsFromString('--no-allocation-site-pretenuring');
  }
}

/**
 * Makes the heap small (`--optimize-for-size`): the old generation grows by small steps before a full collection,
 * the young generation is kept at its smallest and V8's compilers favour size. For the short commands (`admin user
 * create` and the like) and for an idle server. Unless the user chose the heap's shape themselves.
 */
export function compactHeap() {
  if (!userShaped()) v8.setFlagsFromString('--optimize-for-size');
}

/** Event-loop utilisation over one sample from which the server counts as busy, and below which as idle. */
const BUSY = 0.2;
const IDLE = 0.02;
const SAMPLE_MS = 2000;
/** Idle samples in a row before the heap is made small again (a minute). */
const IDLE_SAMPLES = 30;
/**
 * On Node 20, and on later ones with the young generation bounded (boundYoungGeneration). Lifted under load without
 * the bound, Node 24.22.3's heap grew to 351-395 MB resident (CI's short soak and served-reads benches), over the
 * 300 MB goal: without it (Node 22 before 22.15), the heap stays small throughout.
 */
const GROWS_UNDER_LOAD = NODE_MAJOR < 22 || boundByUs();

/**
 * The server's heap, adapted to its load on Node 20 and on later ones with the young generation bounded (`serve`
 * calls it once ready; elsewhere it stays small, see GROWS_UNDER_LOAD). Idle, it is small (compactHeap): ~115 MB resident after start on Node 20 (bench/coldStart.ts),
 * as a forge on a small board needs. Busy (the event loop used 20% of a two-second sample or more),
 * `--optimize-for-size` is lifted and the old generation grows by 20% of what survived a full collection instead
 * (`--heap-growing-percent=20`; V8's own factor goes up to 4×): with the young generation held at its smallest,
 * every request's garbage was promoted and collected at a full price: the served process (bench/servedReads.ts, SQLite) did the nested GraphQL query at 445-496 req/s and GET of an issue at
 * 1,871-2,873 req/s held small, 634-710 and 3,692-3,934 req/s adapted (217-230 MB under that load; PostgreSQL
 * 214-239 and 586-629 against 353-428 and 972-1,032). After a minute without load (under 2% of each sample), the
 * heap is made small again; its next collections give the young generation back. Unless the user chose the heap's
 * shape themselves (NODE_OPTIONS, node flags): README, "Runtime flags".
 */
export function adaptHeap() {
  compactHeap();
  if (userShaped() || !GROWS_UNDER_LOAD) return;
  v8.setFlagsFromString('--heap-growing-percent=20');
  let small = true;
  let quiet = 0;
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const used = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (small) {
      if (used < BUSY) return;
      v8.setFlagsFromString('--no-optimize-for-size');
      small = false;
      quiet = 0;
    } else {
      quiet = used < IDLE ? quiet + 1 : 0;
      if (quiet < IDLE_SAMPLES) return;
      v8.setFlagsFromString('--optimize-for-size');
      small = true;
    }
  }, SAMPLE_MS).unref();
}
