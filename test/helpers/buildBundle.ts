// Vitest global setup: builds dist/forgegraph.mjs once per run, so the servers and CLI commands the tests start run
// the current sources from the bundle (src/bin/forgegraph.js picks it when it is fresh).
import { bundle } from '../../scripts/bundle.ts';

export default async function setup(): Promise<void> {
  await bundle();
}
