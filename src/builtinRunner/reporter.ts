// What a task reports while it runs (act_runner's reporter): log rows in batches through UpdateLog, step states
// and the heartbeat through UpdateTask, about once a second. A `cancelled` answer to UpdateTask is how a cancel
// reaches the runner.
import { create } from '@bufbuild/protobuf';
import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  LogRowSchema,
  Result,
  StepStateSchema,
  TaskStateSchema,
  type LogRow,
  type StepState,
} from '../runner/gen/runner/v1/messages_pb.ts';
import type { RunnerClient } from './client.ts';

const REPORT_INTERVAL_MS = 1000;
/** Rows per UpdateLog call (a batch stays well under the server's request size limit). */
const MAX_ROWS_PER_CALL = 1000;
const FINAL_ATTEMPTS = 5;

export class TaskReporter {
  private readonly rows: LogRow[] = [];
  private acked = 0;
  private readonly steps: StepState[];
  private readonly startedAt: Timestamp = timestampFromDate(new Date());
  private outputs: Record<string, string> = {};
  private timer: NodeJS.Timeout | null = null;
  private reporting: Promise<void> = Promise.resolve();
  private cancelled = false;
  private readonly cancelListeners: Array<() => void> = [];

  constructor(
    private readonly client: RunnerClient,
    private readonly taskId: bigint,
    stepCount: number,
    private readonly warn: (message: string) => void,
  ) {
    this.steps = Array.from({ length: stepCount }, (_, i) => create(StepStateSchema, { id: BigInt(i) }));
  }

  /** Starts the periodic reports. */
  start(): void {
    this.timer = setInterval(() => void this.report(), REPORT_INTERVAL_MS);
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** Called once when the server says the task is cancelled. */
  onCancel(listener: () => void): void {
    this.cancelListeners.push(listener);
  }

  /** Appends log lines (a multi-line text becomes one row per line). */
  log(text: string): void {
    const time = timestampFromDate(new Date());
    for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) this.rows.push(create(LogRowSchema, { time, content: line }));
  }

  stepStarted(index: number): void {
    const step = this.steps[index];
    if (!step) return;
    step.startedAt = timestampFromDate(new Date());
    step.logIndex = BigInt(this.rows.length);
  }

  stepFinished(index: number, result: Result): void {
    const step = this.steps[index];
    if (!step) return;
    const now = timestampFromDate(new Date());
    step.startedAt ??= now;
    step.stoppedAt = now;
    step.result = result;
    step.logLength = BigInt(this.rows.length) - step.logIndex;
  }

  setOutputs(outputs: Record<string, string>): void {
    this.outputs = outputs;
  }

  /** One report (log rows, then the state); reports never overlap. */
  report(): Promise<void> {
    this.reporting = this.reporting
      .then(() => this.send(Result.UNSPECIFIED, false))
      .catch((err: unknown) => this.warn(`report failed: ${String(err)}`));
    return this.reporting;
  }

  /** The last report: every log row (sealed), the result and the outputs, retried a few times. */
  async finish(result: Result): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.reporting;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.send(result, true);
        return;
      } catch (err) {
        if (attempt >= FINAL_ATTEMPTS) throw err;
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  }

  private async send(result: Result, final: boolean): Promise<void> {
    for (;;) {
      const batch = this.rows.slice(this.acked, this.acked + MAX_ROWS_PER_CALL);
      const noMore = final && this.acked + batch.length >= this.rows.length;
      if (!batch.length && !noMore) break;
      const before = this.acked;
      const { ackIndex } = await this.client.updateLog({ taskId: this.taskId, index: BigInt(this.acked), rows: batch, noMore });
      this.acked = Math.max(this.acked, Number(ackIndex));
      if (noMore || this.acked <= before || this.acked >= this.rows.length) break;
    }
    const state = create(TaskStateSchema, {
      id: this.taskId,
      result,
      startedAt: this.startedAt,
      steps: this.steps,
      ...(final ? { stoppedAt: timestampFromDate(new Date()) } : {}),
    });
    const answer = await this.client.updateTask({ state, outputs: final ? this.outputs : {} });
    if (answer.state?.result === Result.CANCELLED && !this.cancelled) {
      this.cancelled = true;
      for (const listener of this.cancelListeners) listener();
    }
  }
}
