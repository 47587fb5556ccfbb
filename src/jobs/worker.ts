import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db, DbTx } from '../db/client.ts';
import { checkpointJob, finishJob } from '../db/jobRows.ts';
import type { DbProvider } from '../db/migrate/engine.ts';
import { claimJobs, type ClaimedJob } from './claim.ts';
import { onJobsEnqueued } from './enqueue.ts';
import { LeaseLostError, PermanentJobError, type JobHandler, type JobKind, type JobRun } from './jobKind.ts';
import type { JobsOptions } from './settings.ts';

/** The logger subset the worker writes to (Fastify's pino logger fits). */
export interface JobLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A job written by this process in state RUNNING (so no worker claims it) until `run` or `release`. */
export interface HeldJob<P> {
  id: number;
  /** Runs the handler now, in this process (with `payload` instead of the stored one when given); false when it failed and was scheduled for a retry. */
  run(payload?: P): Promise<boolean>;
  /** Hands the job to the workers (PENDING, runnable now). */
  release(): Promise<void>;
}

/** A claimed job as this worker runs it; `unsaved` is a payload given to a held job's run and not stored yet. */
type RunningJob = ClaimedJob & { unsaved?: string };

interface Running {
  controller: AbortController;
  promise: Promise<void>;
}

const PURGE_EVERY_MS = 10 * 60_000;
const MAX_ERROR_LENGTH = 4000;

/** A process-unique worker id: host, pid and a random suffix (two apps in one process differ). */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

/**
 * Runs durable jobs (DESIGN §4b): claims rows atomically (claim.ts), holds them under a lease it renews while
 * they run, retries failures with exponential backoff up to the job's maxAttempts (then the job is dead:
 * FAILED with its last error), and reclaims jobs whose worker died once their lease expired. `stop` lets
 * running jobs finish for shutdownTimeoutMs, then releases the rest to other workers. Handlers are
 * registered per kind. `drain` runs everything runnable now (tests), with or without `start`.
 */
export class JobWorker {
  readonly id = newWorkerId();
  readonly #db: Db;
  readonly #provider: DbProvider;
  readonly #opts: JobsOptions;
  readonly #log: JobLog;
  readonly #handlers = new Map<string, JobHandler<unknown>>();
  readonly #running = new Map<number, Running>();
  readonly #held = new Set<number>();
  #started = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #unsubscribe: (() => void) | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #lastPurge = 0;
  /** Nudges so far, and how many there had been when the last claim started: one since means claim again. */
  #nudges = 0;
  #nudgesAtClaim = 0;
  /** Whether the last claim took as many jobs as it asked for (more may be waiting). */
  #claimedFull = true;

  constructor(db: Db, provider: DbProvider, opts: JobsOptions, log: JobLog) {
    this.#db = db;
    this.#provider = provider;
    this.#opts = opts;
    this.#log = log;
  }

  /** Registers the handler of a kind (one per kind). */
  register<P>(handler: JobHandler<P>): void {
    if (this.#handlers.has(handler.kind.name)) throw new Error(`a handler for job kind ${handler.kind.name} is already registered`);
    this.#handlers.set(handler.kind.name, handler as JobHandler<unknown>);
  }

  /** Starts polling (and waking up when this process enqueues). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#unsubscribe = onJobsEnqueued(() => this.nudge());
    this.#startHeartbeat();
    this.#loop = this.#pollLoop();
  }

  /** Wakes the polling loop now: jobs may be runnable (this process enqueued or released some). */
  nudge(): void {
    this.#nudges++;
    this.#wake?.();
  }

  /**
   * Whether a claim now may find something: a slot is free, and the last claim filled every slot it asked for or
   * this process enqueued since it started. Otherwise the queue was empty at that claim, and an empty claim is a
   * write (on SQLite it takes the database's one write lock): jobs of other processes and retries come due are
   * found by the poll interval's claim.
   */
  #mayClaim(): boolean {
    return this.#running.size < this.#opts.concurrency && (this.#claimedFull || this.#nudges !== this.#nudgesAtClaim);
  }

  /**
   * Stops polling, waits up to shutdownTimeoutMs for running jobs, then releases the ones still running
   * (and held ones) back to PENDING without counting the interrupted attempt.
   */
  async stop(): Promise<void> {
    if (this.#started) {
      this.#started = false;
      this.#unsubscribe?.();
      this.nudge();
      await this.#loop;
      this.#loop = null;
    }
    if (this.#running.size) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#opts.shutdownTimeoutMs)));
      await Promise.race([Promise.allSettled([...this.#running.values()].map((r) => r.promise)), timeout]);
      clearTimeout(timer);
    }
    const leftover = [...new Set([...this.#running.keys(), ...this.#held])];
    if (leftover.length) {
      // Release first, then tell the handlers: one that returns when aborted must not record itself done.
      await this.#db.job.updateMany({
        where: { id: { in: leftover }, lockedBy: this.id, status: 'RUNNING' },
        data: { status: 'PENDING', lockedBy: '', lockedAt: null, runAt: new Date(), attempts: { decrement: 1 } },
      });
      this.#log.warn({ jobs: leftover }, 'released unfinished jobs at shutdown');
    }
    for (const id of leftover) this.#running.get(id)?.controller.abort(new Error('worker shutting down'));
    this.#running.clear();
    this.#held.clear();
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  /** Runs jobs until none is runnable now and none of this worker's is running (tests; works without start). */
  async drain(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    this.#startHeartbeat();
    for (;;) {
      if (Date.now() > until) throw new Error(`jobs still running after ${timeoutMs} ms`);
      if (this.#running.size) {
        await Promise.race([...this.#running.values()].map((r) => r.promise));
        continue;
      }
      if ((await this.#fill()) === 0 && !this.#running.size) return;
    }
  }

  /**
   * Writes a job of `kind` that this process holds (RUNNING, leased, renewed by the heartbeat) until it runs
   * it with `run` or hands it over with `release`. If the process dies first, the lease expires and another
   * worker runs it: an intent recorded before a change outside the database (a git ref update) is replayed.
   */
  async hold<P>(kind: JobKind<P>, payload: P): Promise<HeldJob<P>> {
    const now = new Date();
    const row = await this.#db.job.create({
      data: {
        kind: kind.name,
        payload: JSON.stringify(kind.payload.parse(payload)),
        status: 'RUNNING',
        attempts: 1,
        maxAttempts: kind.maxAttempts,
        runAt: now,
        lockedBy: this.id,
        lockedAt: now,
      },
    });
    this.#held.add(row.id);
    this.#startHeartbeat();
    const claimed: ClaimedJob = { id: row.id, kind: row.kind, payload: row.payload, attempts: 1, maxAttempts: row.maxAttempts };
    return {
      id: row.id,
      run: async (override) => {
        this.#held.delete(row.id);
        if (override === undefined) return this.#track(claimed);
        const text = JSON.stringify(kind.payload.parse(override));
        return this.#track({
          id: claimed.id,
          kind: claimed.kind,
          payload: text,
          attempts: claimed.attempts,
          maxAttempts: claimed.maxAttempts,
          unsaved: text,
        });
      },
      release: async () => {
        this.#held.delete(row.id);
        await this.#db.job.updateMany({
          where: { id: row.id, lockedBy: this.id, status: 'RUNNING' },
          data: { status: 'PENDING', lockedBy: '', lockedAt: null, runAt: new Date() },
        });
        this.nudge();
      },
    };
  }

  async #pollLoop(): Promise<void> {
    while (this.#started) {
      let failed = false;
      try {
        await this.#fill();
        await this.#purge();
      } catch (err) {
        failed = true;
        this.#log.error({ err }, 'job polling failed');
      }
      if (!this.#started) break;
      // Claim again at once while more may be waiting (a failed claim waits for the interval).
      if (!failed && this.#mayClaim()) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.#opts.pollIntervalMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#wake = done;
      });
      this.#wake = null;
    }
  }

  /** Claims jobs for the free slots and starts them; returns how many were claimed. */
  async #fill(): Promise<number> {
    const free = this.#opts.concurrency - this.#running.size;
    if (free <= 0) return 0;
    this.#nudgesAtClaim = this.#nudges;
    const jobs = await claimJobs(this.#db, this.#provider, {
      workerId: this.id,
      limit: free,
      now: new Date(),
      leaseMs: this.#opts.leaseMs,
    });
    this.#claimedFull = jobs.length >= free;
    // A job of ours whose renewal came too late was claimed again by ourselves: it is still running here.
    for (const job of jobs) if (!this.#running.has(job.id)) void this.#track(job);
    return jobs.length;
  }

  #track(job: RunningJob): Promise<boolean> {
    const controller = new AbortController();
    const outcome = this.#execute(job, controller.signal).finally(() => {
      this.#running.delete(job.id);
      // A slot is free: claim for it only when more may be waiting.
      if (this.#mayClaim()) this.#wake?.();
    });
    this.#running.set(job.id, { controller, promise: outcome.then(() => undefined) });
    return outcome;
  }

  /** Runs one claimed job and records the outcome; true when it succeeded. */
  async #execute(job: RunningJob, signal: AbortSignal): Promise<boolean> {
    const handler = this.#handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind} in this process`);
      if (job.attempts > job.maxAttempts) {
        throw new PermanentJobError(`abandoned ${job.maxAttempts} times: the worker running it stopped without finishing (lease expired)`);
      }
      let payload: unknown;
      try {
        payload = handler.kind.payload.parse(JSON.parse(job.payload));
      } catch (err) {
        throw new PermanentJobError(`invalid payload: ${errorText(err)}`, { cause: err });
      }
      const run: JobRun<unknown> = {
        id: job.id,
        attempt: job.attempts,
        signal,
        checkpoint: (tx, next) => this.#checkpoint(tx, job, handler.kind, next),
      };
      await handler.handle(payload, run);
      const count = await finishJob(this.#db, job.id, this.id, job.unsaved);
      if (!count) this.#log.warn({ job: job.id, kind: job.kind }, 'job finished after another worker took it over');
      return true;
    } catch (err) {
      await this.#fail(job, handler?.kind, err).catch((e: unknown) =>
        this.#log.error({ err: e, job: job.id }, 'recording a job failure failed'),
      );
      return false;
    }
  }

  async #checkpoint(tx: DbTx, job: RunningJob, kind: JobKind<unknown>, payload: unknown): Promise<void> {
    const count = await checkpointJob(tx, job.id, this.id, JSON.stringify(kind.payload.parse(payload)));
    if (!count) throw new LeaseLostError(job.id);
    // The checkpoint supersedes a run payload not stored yet (if its transaction rolls back, the stored one stays).
    delete job.unsaved;
  }

  /** The payload to store with the outcome: a held job's run payload that no checkpoint has stored. */
  #unsaved(job: RunningJob): { payload?: string } {
    return job.unsaved === undefined ? {} : { payload: job.unsaved };
  }

  /** Exponential backoff with a little jitter, so retries of many jobs failing together spread out. */
  #delay(attempt: number, kind: JobKind<unknown> | undefined): number {
    const base = kind?.retry?.baseMs ?? this.#opts.retryBaseMs;
    const max = kind?.retry?.maxMs ?? this.#opts.retryMaxMs;
    const delay = Math.min(base * 2 ** Math.max(0, attempt - 1), max);
    return Math.round(delay * (1 + Math.random() * 0.1));
  }

  async #fail(job: RunningJob, kind: JobKind<unknown> | undefined, err: unknown): Promise<void> {
    if (err instanceof LeaseLostError) {
      this.#log.warn({ job: job.id, kind: job.kind }, err.message);
      return;
    }
    const dead = err instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    const lastError = `attempt ${job.attempts}: ${errorText(err)}`;
    const { count } = await this.#db.job.updateMany({
      where: { id: job.id, lockedBy: this.id, status: 'RUNNING' },
      data: dead
        ? { status: 'FAILED', lockedBy: '', lockedAt: null, lastError, ...this.#unsaved(job) }
        : {
            status: 'PENDING',
            lockedBy: '',
            lockedAt: null,
            lastError,
            ...this.#unsaved(job),
            runAt: new Date(Date.now() + this.#delay(job.attempts, kind)),
          },
    });
    if (count)
      this.#log[dead ? 'error' : 'warn'](
        { job: job.id, kind: job.kind, attempt: job.attempts, err },
        dead ? 'job failed for good' : 'job failed; retrying later',
      );
  }

  #startHeartbeat(): void {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => void this.#renew(), Math.max(50, Math.floor(this.#opts.leaseMs / 3)));
    this.#heartbeat.unref();
  }

  /** Extends the lease of every job this worker holds; aborts the ones another worker took over. */
  async #renew(): Promise<void> {
    const ids = [...new Set([...this.#running.keys(), ...this.#held])];
    if (!ids.length) return;
    try {
      const { count } = await this.#db.job.updateMany({
        where: { id: { in: ids }, lockedBy: this.id, status: 'RUNNING' },
        data: { lockedAt: new Date() },
      });
      if (count === ids.length) return;
      const mine = await this.#db.job.findMany({ where: { id: { in: ids }, lockedBy: this.id, status: 'RUNNING' }, select: { id: true } });
      const kept = new Set(mine.map((j) => j.id));
      for (const id of ids) if (!kept.has(id)) this.#running.get(id)?.controller.abort(new LeaseLostError(id));
    } catch (err) {
      this.#log.error({ err }, 'renewing job leases failed');
    }
  }

  /** Deletes old finished jobs (at most every ten minutes). */
  async #purge(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastPurge < PURGE_EVERY_MS) return;
    this.#lastPurge = now;
    await this.#db.job.deleteMany({ where: { status: 'DONE', updatedAt: { lt: new Date(now - this.#opts.keepDoneMs) } } });
    await this.#db.job.deleteMany({ where: { status: 'FAILED', updatedAt: { lt: new Date(now - this.#opts.keepFailedMs) } } });
  }
}
