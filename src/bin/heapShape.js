// The V8 heap's shape for the `forgegraph` command (src/bin/forgegraph.js) and `forgegraph serve`
// (src/cli/serve.ts). Plain JavaScript: the command imports it before the bundle, without tsx.
import v8 from 'node:v8';

/**
 * Makes the heap small (`--optimize-for-size`): the old generation grows by small steps before a full collection and
 * V8's compilers favour size. Under bench/soak.ts' mixed load (Node 20, SQLite, one minute, this machine idle) RSS
 * stays at 215-231 MB for 248-301 reads/s, and idles at ~147 MB (bench/coldStart.ts; GraphQL not yet loaded).
 * `--heap-growing-percent=20` (set as a node flag) does 384-415 reads/s at 271-277 MB and idled at ~213 MB; `--max-semi-space-size=64`, which
 * `npm start` used to add, 444-454 reads/s at 535-576 MB. Memory first, as a self-hosted forge on a small board
 * needs; the README's "Runtime flags" names the faster settings. Unless the user chose the heap's shape themselves
 * (NODE_OPTIONS, node flags). `serve` calls it once ready (with GRAPHQL_PRELOAD, once the GraphQL schema is built)
 * rather than at start: while the modules load, the smaller steps meant ~1 s more of collections for nothing that
 * stays (bench/coldStart.ts, CPU until ready).
 */
export function compactHeap() {
  const chosen = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (!/--(optimize-for-size|heap-growing-percent|max-old-space-size|max-semi-space-size|max-heap-size)/.test(chosen)) {
    v8.setFlagsFromString('--optimize-for-size');
  }
}
