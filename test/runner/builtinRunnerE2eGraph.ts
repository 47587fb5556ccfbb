// The end-to-end run as the graph shows it: what builtinRunner.e2e.test.ts checks after its workflow ran on the
// built-in runner — the run and its jobs as REST has them, the commit's check roll-up, and the runner for the admin.
import { expect } from 'vitest';
import { basic } from '../helpers/app.ts';
import { gql } from '../helpers/graphql.ts';
import type { RunnerWorld } from './builtinRunnerProcess.ts';
import type { Job } from './builtinRunnerE2eWorkflow.ts';

interface Step {
  name: string;
  status: string;
  conclusion: string | null;
}
interface GraphJob extends Step {
  databaseId: number;
  steps: Step[];
  logUrl: string;
}
interface GraphRun {
  databaseId: number;
  status: string;
  conclusion: string | null;
  event: string;
  headSha: string;
  jobs: { nodes: GraphJob[] };
}

const RUNS = `{ repository(owner: "root", name: "app") { workflowRuns(first: 5) { nodes { databaseId status conclusion event headSha
  jobs(first: 10) { nodes { databaseId name status conclusion steps { name status conclusion } logUrl } } } } } }`;
const ROLLUP = `query($sha: String!) { repository(owner: "root", name: "app") { object(expression: $sha) { ... on Commit {
  statusCheckRollup { state contexts(first: 10) { totalCount nodes {
    __typename ... on CheckRun { name status conclusion } ... on StatusContext { context state } } } } } } } }`;
const RUNNERS = `{ runners(first: 10) { totalCount nodes { name status labels disabled } } }`;

/** Runs a query as root (the repository's owner and the site admin); fails on GraphQL errors. */
async function asRoot<T>(w: RunnerWorld, query: string, variables?: Record<string, unknown>): Promise<T> {
  const res = await gql<T>(w.t, query, { headers: basic('root'), variables });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data).toBeTruthy();
  return res.data as T;
}

/** A REST status or conclusion in the graph's enum spelling (null for none). */
const upper = (s: string | undefined) => (s ? s.toUpperCase() : null);

/** Repository.workflowRuns, Commit.statusCheckRollup and Query.runners agree with REST about the finished run. */
export async function expectGraph(w: RunnerWorld, sha: string, runId: number, restJobs: Job[]): Promise<void> {
  const { repository } = await asRoot<{ repository: { workflowRuns: { nodes: GraphRun[] } } }>(w, RUNS);
  const runs = repository.workflowRuns.nodes;
  expect(runs.map((r) => [r.databaseId, r.status, r.conclusion, r.event, r.headSha])).toEqual([
    [runId, 'COMPLETED', 'FAILURE', 'push', sha],
  ]);
  const jobs = runs[0]?.jobs.nodes ?? [];
  // The same jobs, statuses, conclusions and steps as GET …/actions/runs/{id}/jobs.
  expect(jobs.map((j) => ({ ...j, logUrl: undefined }))).toEqual(
    [...restJobs]
      .sort((a, b) => a.id - b.id)
      .map((j) => ({
        databaseId: j.id,
        name: j.name,
        status: upper(j.status),
        conclusion: upper(j.conclusion),
        steps: j.steps.map((s) => ({ name: s.name, status: upper(s.status), conclusion: upper(s.conclusion) })),
        logUrl: undefined,
      })),
  );
  expect(jobs.map((j) => j.name)).toEqual(['read (a)', 'read (b)', 'after', 'broken', 'deploy']);
  // Each log URL is the REST job-logs endpoint of that job, and it serves the job's log.
  for (const j of jobs) expect(j.logUrl).toBe(`http://127.0.0.1:${w.port}/api/v1/repos/root/app/actions/jobs/${j.databaseId}/logs`);
  const broken = jobs.find((j) => j.name === 'broken');
  const log = await w.t.request('GET', new URL(broken?.logUrl ?? 'http://x/').pathname, { headers: basic('root') });
  expect(log.statusCode).toBe(200);
  expect(log.body).toContain('about to fail');

  const rollup = await asRoot<{
    repository: {
      object: {
        statusCheckRollup: {
          state: string;
          contexts: { totalCount: number; nodes: { __typename: string; name?: string; status?: string; conclusion?: string | null }[] };
        };
      };
    };
  }>(w, ROLLUP, { sha });
  const checks = rollup.repository.object.statusCheckRollup;
  expect(checks.state).toBe('FAILURE');
  // Each job is a check run; the commit status it wrote (FINAL_CONTEXTS, through REST) is not listed beside it.
  expect(checks.contexts.totalCount).toBe(jobs.length);
  expect(checks.contexts.nodes.map((c) => c.__typename)).toEqual(jobs.map(() => 'CheckRun'));
  expect(checks.contexts.nodes.map((c) => [c.name, c.status, c.conclusion]).sort()).toEqual(
    jobs.map((j) => [j.name, 'COMPLETED', j.conclusion]).sort(),
  );

  // The built-in runner is online; it is busy for ten seconds after its last task report, then idle.
  type Runners = { runners: { totalCount: number; nodes: { name: string; status: string; labels: string[]; disabled: boolean }[] } };
  let listed: Runners['runners'] | null = null;
  await w.until(async () => {
    listed = (await asRoot<Runners>(w, RUNNERS)).runners;
    return listed.nodes.some((r) => r.name === 'e2e-runner' && r.status === 'IDLE');
  }, 'the runner to be idle');
  expect(listed).toMatchObject({
    totalCount: 1,
    nodes: [{ name: 'e2e-runner', status: 'IDLE', labels: ['e2e', 'linux'], disabled: false }],
  });
}
