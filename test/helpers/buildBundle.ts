// Vitest global setup: builds dist/ once per run, so the servers and CLI commands the tests start run the current
// sources from the bundle (src/bin/forgegraph.js rebuilds it when it is older than the sources).
import { bundle } from '../../src/bin/bundle.js';

export default async function setup(): Promise<void> {
  await bundle();
}
