// Imported first by the benches that run the server in-process: they measure it under the Node flags `npm start`
// gives it (package.json's start script is the one definition), re-running themselves under those flags when
// started without them, and under the heap policy `forgegraph serve` sets once ready (adaptHeap: small while idle,
// grown under load; see README, "Runtime flags").
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { adaptHeap, noPretenuring, youngGenerationBound } from '../src/bin/heapShape.js';

noPretenuring();

// As src/bin/forgegraph.js: production unless NODE_ENV says otherwise, before graphql-js loads (the imports after
// this module's).
process.env.NODE_ENV ??= 'production';

const start = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts
  .start;
/** The Node flags of `npm start` (`--name=value` before the script path). */
export const SERVER_NODE_FLAGS = start.match(/(?<=\s)--[\w-]+=\S+/g) ?? [];

// And with the young generation bounded as `forgegraph serve` bounds it (on Node 22 and later).
const bound = youngGenerationBound();
const missing = [...SERVER_NODE_FLAGS.filter((f) => !process.execArgv.includes(f)), ...(bound?.flags ?? [])];
if (missing.length > 0) {
  const [script, ...args] = process.argv.slice(1);
  const child = spawnSync(process.execPath, [...process.execArgv, ...missing, script!, ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...bound?.env },
  });
  process.exit(child.status ?? 1);
}
adaptHeap();
console.log(
  `node ${process.version} ${[...SERVER_NODE_FLAGS, ...process.execArgv.filter((f) => f.startsWith('--max-semi-space-size'))].join(' ')} NODE_ENV=${process.env.NODE_ENV} (as npm start, the heap as serve shapes it)`,
);
