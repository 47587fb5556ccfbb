// The end-to-end run as the webhooks show it: what builtinRunner.e2e.test.ts checks after its workflow (a matrix of
// two, a dependent job, a failing job and a skipped one) ran on the built-in runner.
import { expect } from 'vitest';
import type { Doc, HookReceiver, Received } from '../helpers/hookReceiver.ts';
import type { RunnerWorld } from './builtinRunnerProcess.ts';
import { FINAL_CONTEXTS, FINAL_JOBS } from './builtinRunnerE2eWorkflow.ts';

interface Delivery {
  action: string;
  doc: Doc;
}

/** The deliveries of one event in the order the server queued them (the HookTask ids), whatever the arrival order. */
async function queued(w: RunnerWorld, rx: HookReceiver, event: string): Promise<Delivery[]> {
  const tasks = await w.t.db.hookTask.findMany({ where: { eventType: event }, select: { id: true, uuid: true } });
  const order = new Map(tasks.map((t) => [t.uuid, t.id]));
  const id = (r: Received) => order.get(String(r.headers['x-gitea-delivery'])) ?? Number.MAX_SAFE_INTEGER;
  return [...rx.of(event)]
    .sort((a, b) => id(a) - id(b))
    .map((r) => {
      const doc = JSON.parse(r.body) as Doc;
      return { action: String(doc.action), doc };
    });
}

/**
 * The status deliveries in the order the statuses were written (their ids): each is announced by a job of its own,
 * and two of them may be queued in either order.
 */
function statusesInOrder(rx: HookReceiver): Delivery[] {
  return rx
    .of('status')
    .map((r) => JSON.parse(r.body) as Doc)
    .sort((a, b) => Number(a.id) - Number(b.id))
    .map((doc) => ({ action: String(doc.action), doc }));
}

const field = (d: Delivery, key: string, name: string) => String((d.doc[key] as Doc)[name]);

/** workflow_run, workflow_job and status deliveries follow the run to its end (Gitea's payload shapes). */
export async function expectActionHooks(w: RunnerWorld, rx: HookReceiver, sha: string, runId: number): Promise<void> {
  const docs = (event: string) => rx.of(event).map((r) => JSON.parse(r.body) as Doc);
  const jobDone = (name: string) => docs('workflow_job').some((d) => d.action === 'completed' && (d.workflow_job as Doc).name === name);
  const events = ['workflow_run', 'workflow_job', 'status'];
  // Done when the run and every job announced their end, every job's latest status delivery is its final state, and
  // every queued delivery arrived. A status is announced by a job of its own, after the change that wrote it (and
  // its workflow_job delivery) committed, so a job's end does not mean its final status was queued yet.
  const finalStates = () => {
    const latest = new Map(statusesInOrder(rx).map((d) => [String(d.doc.context), String(d.doc.state)]));
    return Object.entries(FINAL_CONTEXTS).every(([context, state]) => latest.get(context) === state);
  };
  await w.until(async () => {
    await w.t.app.deps.notifier.drain();
    const queuedCount = await w.t.db.hookTask.count({ where: { eventType: { in: events } } });
    return (
      docs('workflow_run').some((d) => d.action === 'completed') &&
      FINAL_JOBS.every(([name]) => jobDone(name)) &&
      finalStates() &&
      events.reduce((n, e) => n + rx.of(e).length, 0) === queuedCount
    );
  }, 'the workflow_run, workflow_job and final status deliveries');

  const runs = await queued(w, rx, 'workflow_run');
  expect(runs.length).toBeGreaterThanOrEqual(2);
  expect(runs[0]?.action).toBe('requested');
  expect(runs.at(-1)?.action).toBe('completed');
  expect(runs.filter((d) => d.action === 'completed')).toHaveLength(1);
  expect(runs.every((d) => ['requested', 'in_progress', 'completed'].includes(d.action))).toBe(true);
  expect(runs.at(-1)?.doc).toMatchObject({
    workflow: { id: 'ci.yml', name: 'CI', path: '.gitea/workflows/ci.yml' },
    workflow_run: { id: runId, head_sha: sha, event: 'push', status: 'completed', conclusion: 'failure', path: 'ci.yml@refs/heads/main' },
    repository: { full_name: 'root/app' },
    sender: { login: 'root' },
  });

  const jobs = await queued(w, rx, 'workflow_job');
  for (const [name, status, conclusion] of FINAL_JOBS) {
    const mine = jobs.filter((d) => field(d, 'workflow_job', 'name') === name);
    expect(mine.at(-1)?.doc, name).toMatchObject({
      action: 'completed',
      workflow_job: { name, run_id: runId, head_sha: sha, status, conclusion },
      repository: { full_name: 'root/app' },
    });
    expect(
      mine.filter((d) => d.action === 'completed'),
      name,
    ).toHaveLength(1);
    // A job that ran was queued, then in progress on the runner; the skipped one waited on `broken` and never ran.
    const actions = mine.map((d) => d.action);
    expect(actions.includes('in_progress'), name).toBe(conclusion !== 'skipped');
    if (conclusion !== 'skipped') expect(mine.at(-1)?.doc.workflow_job, name).toMatchObject({ runner_name: 'e2e-runner' });
  }
  expect(jobs.find((d) => field(d, 'workflow_job', 'name') === 'deploy')?.action).toBe('waiting');

  const statuses = statusesInOrder(rx);
  const latest = new Map(statuses.map((d) => [String(d.doc.context), d.doc]));
  expect(Object.fromEntries([...latest].map(([c, d]) => [c, d.state]))).toEqual(FINAL_CONTEXTS);
  expect(latest.get('CI / broken (push)')).toMatchObject({ sha, commit: { id: sha }, repository: { full_name: 'root/app' } });
  // The running jobs were pending before they finished.
  expect(statuses.some((d) => d.doc.context === 'CI / read (a) (push)' && d.doc.state === 'pending')).toBe(true);
}
