#!/usr/bin/env node
// The `forgegraph` command. Runs the bundle dist/forgegraph.mjs (`npm run build`; `npm start` and the tests build it)
// when it is newer than every file under src/ and package.json; otherwise the TypeScript sources through tsx, so an
// edited checkout never runs stale code.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// A production process unless told otherwise (NODE_ENV=development shows internal errors to GraphQL clients). Set
// before anything loads graphql-js, which reads it once: outside production it checks every type test against a
// second copy of itself, 17% of a nested query's time (README, "Runtime flags"). bench/serverRuntime.ts does the same.
process.env.NODE_ENV ??= 'production';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'dist/forgegraph.mjs');

/** The newest modification time under `dir`, directories included (a deleted file changes its directory's). */
function newest(dir) {
  let time = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return time;
}

function bundleIsFresh() {
  try {
    return statSync(bundle).mtimeMs >= Math.max(newest(path.join(root, 'src')), statSync(path.join(root, 'package.json')).mtimeMs);
  } catch {
    return false;
  }
}

if (bundleIsFresh()) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../main.ts');
}
