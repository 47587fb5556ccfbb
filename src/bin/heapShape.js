// The V8 heap's shape for the `forgegraph` command (src/bin/forgegraph.js) and `forgegraph serve`
// (src/cli/serve.ts). Plain JavaScript: the command imports it before the bundle, without tsx.
import { performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import v8 from 'node:v8';

/** Whether the user chose the heap's shape themselves (NODE_OPTIONS, node flags): then it is theirs. */
function userShaped() {
  const chosen = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  return /--(optimize-for-size|heap-growing-percent|max-old-space-size|max-semi-space-size|max-heap-size)/.test(chosen);
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
 * Only on Node 20. Lifted under load on Node 24.22.3 (V8 13), the heap grew to 358-395 MB resident in CI's short soak
 * and served-reads benches (V8 heap 235 MB of it in the soak), against 225-232 MB held small: over the 300 MB goal.
 * There, and on the Node 22 between them (not measured), the heap stays small, as before this policy, until a bound
 * for its young generation is chosen by measurement.
 */
const GROWS_UNDER_LOAD = Number(process.versions.node.split('.')[0]) < 22;

/**
 * The server's heap, adapted to its load on Node 20 (`serve` calls it once ready; elsewhere it stays small, see
 * GROWS_UNDER_LOAD). Idle, it is small (compactHeap): ~115 MB resident after start on Node 20 (bench/coldStart.ts),
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
