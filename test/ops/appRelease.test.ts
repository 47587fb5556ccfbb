import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';

// A closed app must leave nothing of itself reachable: a process that builds apps one after another (the test
// workers, which build hundreds) would otherwise grow by ~20 MB per app and spend ever more time in GC. The first
// leak found this way was prom-client's default metrics, whose GC PerformanceObserver held each app's registry.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function closedAppRefs(): Promise<{ app: WeakRef<object>; db: WeakRef<object> }> {
  const t = await startTestApp('sqlite');
  await t.createUser('alice');
  // The paths that reach the most of the app: REST, GraphQL, the metrics scrape.
  expect((await t.request('GET', '/api/v1/users/alice')).statusCode).toBe(200);
  expect((await t.graphql('{ viewer { login } }')).statusCode).toBe(200);
  expect((await t.request('GET', '/metrics')).statusCode).toBe(200);
  const refs = { app: new WeakRef(t.app), db: new WeakRef(t.db) };
  await t.close();
  return refs;
}

it('a closed app, its database client and its metrics are garbage once the caller lets go of them', async () => {
  const refs = await closedAppRefs();
  // Timers and sockets of the closed app finish on the next turns of the event loop.
  for (let i = 0; i < 5 && (refs.app.deref() || refs.db.deref()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
  }
  expect(refs.app.deref(), 'the app is still reachable after close()').toBeUndefined();
  expect(refs.db.deref(), 'the database client is still reachable after close()').toBeUndefined();
});
