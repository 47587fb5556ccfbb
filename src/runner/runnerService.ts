// runner.v1.RunnerService (Gitea routers/api/actions/runner/runner.go): protocol messages in and out, the work in
// services/actions. Every call but Register carries x-runner-uuid and x-runner-token.
import { create } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { Models } from '../db/client.ts';
import { fetchTask } from '../services/actions/fetchTask.ts';
import { updateLog, updateTask } from '../services/actions/reportTask.ts';
import { authenticateRunner, declareRunner, registerRunner, runnerLabels, runnerState } from '../services/actions/runners.ts';
import type { ServiceContext } from '../services/context.ts';
import { RunnerSchema, RunnerStatus, TaskNeedSchema, TaskSchema, TaskStateSchema } from './gen/runner/v1/messages_pb.ts';
import type { RunnerService as RunnerServiceDesc } from './gen/runner/v1/services_pb.ts';

const STATUS = { idle: RunnerStatus.IDLE, active: RunnerStatus.ACTIVE, offline: RunnerStatus.OFFLINE } as const;

function runnerMessage(runner: Models.ActionRunner, token = '') {
  return create(RunnerSchema, {
    id: BigInt(runner.id),
    uuid: runner.uuid,
    token,
    name: runner.name,
    status: STATUS[runnerState(runner)],
    version: runner.version,
    labels: runnerLabels(runner),
    ephemeral: runner.ephemeral,
  });
}

const dateOf = (t: Timestamp | undefined): Date | null => (t && (t.seconds > 0n || t.nanos > 0) ? timestampDate(t) : null);

function runnerOf(cx: ServiceContext, ctx: HandlerContext, active = false): Promise<Models.ActionRunner> {
  return authenticateRunner(cx, ctx.requestHeader.get('x-runner-uuid') ?? '', ctx.requestHeader.get('x-runner-token') ?? '', active);
}

/** The service implementation over a system context (runners are not users). */
export function runnerService(cx: ServiceContext): ServiceImpl<typeof RunnerServiceDesc> {
  return {
    async register(req) {
      const { runner, token } = await registerRunner(cx, {
        name: req.name,
        token: req.token,
        version: req.version,
        labels: req.labels.length ? req.labels : [...req.agentLabels, ...req.customLabels],
        ephemeral: req.ephemeral,
        capabilities: req.capabilities,
      });
      return { runner: runnerMessage(runner, token) };
    },
    async declare(req, ctx) {
      const runner = await declareRunner(cx, await runnerOf(cx, ctx), req);
      return { runner: runnerMessage(runner) };
    },
    async fetchTask(req, ctx) {
      const runner = await runnerOf(cx, ctx);
      const { task, tasksVersion } = await fetchTask(cx, runner, Number(req.tasksVersion));
      if (!task) return { tasksVersion: BigInt(tasksVersion) };
      return {
        tasksVersion: BigInt(tasksVersion),
        task: create(TaskSchema, {
          id: BigInt(task.id),
          workflowPayload: new TextEncoder().encode(task.workflowPayload),
          context: task.context as never,
          secrets: task.secrets,
          vars: task.vars,
          needs: Object.fromEntries(Object.entries(task.needs).map(([k, n]) => [k, create(TaskNeedSchema, n)])),
        }),
      };
    },
    async updateTask(req, ctx) {
      const runner = await runnerOf(cx, ctx, true);
      const state = req.state;
      const result = await updateTask(cx, runner, {
        taskId: Number(state?.id ?? 0n),
        result: state?.result ?? 0,
        startedAt: dateOf(state?.startedAt),
        stoppedAt: dateOf(state?.stoppedAt),
        steps: (state?.steps ?? []).map((s) => ({
          index: Number(s.id),
          result: s.result,
          startedAt: dateOf(s.startedAt),
          stoppedAt: dateOf(s.stoppedAt),
          logIndex: Number(s.logIndex),
          logLength: Number(s.logLength),
        })),
        outputs: req.outputs,
      });
      return { state: create(TaskStateSchema, { id: BigInt(result.taskId), result: result.result }), sentOutputs: result.sentOutputs };
    },
    async updateLog(req, ctx) {
      const runner = await runnerOf(cx, ctx, true);
      const ack = await updateLog(cx, runner, {
        taskId: Number(req.taskId),
        index: Number(req.index),
        rows: req.rows.map((r) => ({ time: r.time ? timestampDate(r.time) : new Date(), content: r.content })),
        noMore: req.noMore,
      });
      return { ackIndex: BigInt(ack) };
    },
  };
}
