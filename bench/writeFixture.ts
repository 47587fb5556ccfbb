// The write benches' setup (writeProfile.ts, checkpointStalls.ts): the in-process server listening, the bench users
// with a token, the repository `bench/ours` (ann and bob collaborators with write) and its labels bug, feature, docs.
import type { AddressInfo } from 'node:net';
import type { App } from '../src/app.ts';
import { createBenchUsersWithToken } from './benchUser.ts';

/** A JSON request as the bench user: the answer parsed (ids and numbers are what the benches read). */
export type BenchCall = (method: string, url: string, body?: unknown) => Promise<{ id: number; number: number }>;

export async function listenWithWriteRepo(app: App): Promise<{ call: BenchCall; labels: number[] }> {
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const { auth } = await createBenchUsersWithToken(app);
  const call: BenchCall = async (method, url, body) => {
    const res = await fetch(base + url, { method, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as { id: number; number: number };
  };
  await call('POST', '/api/v1/user/repos', { name: 'ours', auto_init: true });
  for (const u of ['ann', 'bob']) await call('PUT', `/api/v1/repos/bench/ours/collaborators/${u}`, { permission: 'write' });
  const labels: number[] = [];
  for (const [i, name] of ['bug', 'feature', 'docs'].entries()) {
    labels.push((await call('POST', '/api/v1/repos/bench/ours/labels', { name, color: `#00${i}0aa` })).id);
  }
  return { call, labels };
}
