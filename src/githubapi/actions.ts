// GitHub's Actions calls (`gh workflow list|view|run|enable|disable`, `gh run list|view [--log]|cancel|rerun`):
// workflows, runs, jobs, logs and dispatches under /repos/{o}/{r}/actions, on the Actions services of /api/v1 (same
// gates: the Actions unit, write for changes; token scope repository). GitHub numbers workflows; Gitea names them by
// file: both are accepted (knownWorkflows.ts). Gitea keeps no artifacts, so a run's artifact list is empty.
import type { FastifyInstance } from 'fastify';
import { getKnownWorkflow, knownWorkflowsByFile, listKnownWorkflows } from '../services/actions/knownWorkflows.ts';
import type { RunFilter } from '../services/actions/lists.ts';
import * as actions from '../services/actions/repoActions.ts';
import * as maintenance from '../services/actions/runMaintenance.ts';
import { runLogFiles } from '../services/actions/runLogs.ts';
import { setWorkflowEnabled } from '../services/actions/workflows.ts';
import type { ServiceContext } from '../services/context.ts';
import { toGithubJob, toGithubRun, toGithubWorkflow } from './actionsConvert.ts';
import { githubPageOf, setGithubLinks } from './paging.ts';
import { READ_REPO, WRITE_REPO } from './routeConfig.ts';
import { zipFiles } from './zip.ts';

interface RepoParams {
  owner: string;
  repo: string;
}
type IdParams = RepoParams & { id: string };
interface RunQuery {
  branch?: string;
  actor?: string;
  status?: string;
  event?: string;
  head_sha?: string;
}

const idOf = (s: string): number => (/^\d{1,10}$/.test(s) ? Number(s) : 0);
const refOf = (p: RepoParams) => ({ owner: p.owner, repo: p.repo });
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

const runFilter = (q: RunQuery): RunFilter => ({
  branch: text(q.branch),
  actor: text(q.actor),
  status: q.status ? [text(q.status)] : [],
  event: text(q.event),
  headSha: text(q.head_sha),
});

export function githubActionsRoutes(app: FastifyInstance): void {
  const base = '/repos/:owner/:repo/actions';

  app.get<{ Params: RepoParams }>(`${base}/workflows`, { config: { github: READ_REPO } }, async (req, reply) => {
    const page = githubPageOf(req.query);
    const all = await listKnownWorkflows(req.cx, refOf(req.params));
    setGithubLinks(req, reply, page, all.length);
    const start = (page.page - 1) * page.pageSize;
    return {
      total_count: all.length,
      workflows: all.slice(start, start + page.pageSize).map((w) => toGithubWorkflow(w, req.cx.config.rootUrl)),
    };
  });

  app.get<{ Params: IdParams }>(`${base}/workflows/:id`, { config: { github: READ_REPO } }, async (req) =>
    toGithubWorkflow(await getKnownWorkflow(req.cx, refOf(req.params), req.params.id), req.cx.config.rootUrl),
  );

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.put<{ Params: IdParams }>(`${base}/workflows/:id/${verb}`, { config: { github: WRITE_REPO } }, async (req, reply) => {
      const workflow = await getKnownWorkflow(req.cx, refOf(req.params), req.params.id);
      await setWorkflowEnabled(req.cx, refOf(req.params), workflow.file, enabled);
      return reply.code(204).send();
    });
  }

  app.post<{ Params: IdParams; Body: { ref?: unknown; inputs?: unknown } | undefined }>(
    `${base}/workflows/:id/dispatches`,
    { config: { github: WRITE_REPO } },
    async (req, reply) => {
      const workflow = await getKnownWorkflow(req.cx, refOf(req.params), req.params.id);
      const given = req.body?.inputs && typeof req.body.inputs === 'object' ? (req.body.inputs as Record<string, unknown>) : {};
      const inputs = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      await actions.dispatchWorkflow(req.cx, refOf(req.params), { workflowId: workflow.file, ref: text(req.body?.ref), inputs });
      return reply.code(204).send();
    },
  );

  app.get<{ Params: RepoParams & { id?: string }; Querystring: RunQuery }>(
    `${base}/runs`,
    { config: { github: READ_REPO } },
    async (req, reply) =>
      listRuns(req.cx, req.params, null, req.query, githubPageOf(req.query), (p, total) => setGithubLinks(req, reply, p, total)),
  );

  app.get<{ Params: IdParams; Querystring: RunQuery }>(
    `${base}/workflows/:id/runs`,
    { config: { github: READ_REPO } },
    async (req, reply) => {
      const workflow = await getKnownWorkflow(req.cx, refOf(req.params), req.params.id);
      return listRuns(req.cx, req.params, workflow.file, req.query, githubPageOf(req.query), (p, total) =>
        setGithubLinks(req, reply, p, total),
      );
    },
  );

  app.get<{ Params: IdParams }>(`${base}/runs/:id`, { config: { github: READ_REPO } }, async (req) => {
    const [run, workflows] = await Promise.all([
      actions.getRepoRun(req.cx, refOf(req.params), idOf(req.params.id)),
      knownWorkflowsByFile(req.cx, refOf(req.params)),
    ]);
    return toGithubRun(run, workflows.get(run.workflowId), req.cx.config.rootUrl);
  });

  app.get<{ Params: IdParams }>(`${base}/runs/:id/jobs`, { config: { github: READ_REPO } }, async (req, reply) => {
    const page = githubPageOf(req.query);
    const filter = { status: [], sort: '', order: '' };
    const [jobs, workflows] = await Promise.all([
      actions.listRepoJobs(req.cx, refOf(req.params), idOf(req.params.id), filter, page),
      knownWorkflowsByFile(req.cx, refOf(req.params)),
    ]);
    setGithubLinks(req, reply, page, jobs.total);
    const name = (file: string) => workflows.get(file)?.name ?? file;
    return {
      total_count: jobs.total,
      jobs: jobs.items.map((j) => toGithubJob(j, name(j.run.workflowId), req.cx.config.rootUrl)),
    };
  });

  app.get<{ Params: IdParams }>(`${base}/jobs/:id`, { config: { github: READ_REPO } }, async (req) => {
    const [job, workflows] = await Promise.all([
      actions.getRepoJob(req.cx, refOf(req.params), idOf(req.params.id)),
      knownWorkflowsByFile(req.cx, refOf(req.params)),
    ]);
    return toGithubJob(job, workflows.get(job.run.workflowId)?.name ?? job.run.workflowId, req.cx.config.rootUrl);
  });

  app.get<{ Params: IdParams }>(`${base}/jobs/:id/logs`, { config: { github: READ_REPO } }, async (req, reply) => {
    const log = await actions.repoJobLogs(req.cx, refOf(req.params), idOf(req.params.id));
    return reply.type('text/plain; charset=utf-8').send(log);
  });

  app.get<{ Params: IdParams }>(`${base}/runs/:id/logs`, { config: { github: READ_REPO } }, async (req, reply) => {
    const run = await actions.getRepoRun(req.cx, refOf(req.params), idOf(req.params.id));
    const files = await runLogFiles(req.cx, refOf(req.params), run.id);
    return reply
      .type('application/zip')
      .header('Content-Disposition', `attachment; filename=logs_${run.id}.zip`)
      .send(zipFiles(files, run.stopped ?? run.updatedAt));
  });

  // Gitea keeps no workflow artifacts: a run's list is empty (the run must exist and be readable).
  app.get<{ Params: IdParams }>(`${base}/runs/:id/artifacts`, { config: { github: READ_REPO } }, async (req) => {
    await actions.getRepoRun(req.cx, refOf(req.params), idOf(req.params.id));
    return { total_count: 0, artifacts: [] };
  });

  app.post<{ Params: IdParams }>(`${base}/runs/:id/cancel`, { config: { github: WRITE_REPO } }, async (req, reply) => {
    await actions.cancelRun(req.cx, refOf(req.params), idOf(req.params.id));
    return reply.code(202).send({});
  });

  app.post<{ Params: IdParams }>(`${base}/runs/:id/rerun`, { config: { github: WRITE_REPO } }, async (req, reply) => {
    await maintenance.rerunRun(req.cx, refOf(req.params), idOf(req.params.id));
    return reply.code(201).send({});
  });

  app.post<{ Params: IdParams }>(`${base}/runs/:id/rerun-failed-jobs`, { config: { github: WRITE_REPO } }, async (req, reply) => {
    await maintenance.rerunFailedJobs(req.cx, refOf(req.params), idOf(req.params.id));
    return reply.code(201).send({});
  });

  app.post<{ Params: IdParams }>(`${base}/jobs/:id/rerun`, { config: { github: WRITE_REPO } }, async (req, reply) => {
    const job = await actions.getRepoJob(req.cx, refOf(req.params), idOf(req.params.id));
    await maintenance.rerunJob(req.cx, refOf(req.params), job.runId, job.id);
    return reply.code(201).send({});
  });
}

/** A page of the repository's runs (of one workflow file, or all), named by their workflows, in GitHub's form. */
async function listRuns(
  cx: ServiceContext,
  params: RepoParams,
  file: string | null,
  query: RunQuery,
  page: ReturnType<typeof githubPageOf>,
  links: (page: ReturnType<typeof githubPageOf>, total: number) => void,
): Promise<Record<string, unknown>> {
  const ref = refOf(params);
  const [runs, workflows] = await Promise.all([
    file === null ? actions.listRepoRuns(cx, ref, runFilter(query), page) : actions.listWorkflowRuns(cx, ref, file, runFilter(query), page),
    knownWorkflowsByFile(cx, ref),
  ]);
  links(page, runs.total);
  return {
    total_count: runs.total,
    workflow_runs: runs.items.map((r) => toGithubRun(r, workflows.get(r.workflowId), cx.config.rootUrl)),
  };
}
