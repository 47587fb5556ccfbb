import type { z } from 'zod';
import type { DbTx } from '../db/client.ts';

/** Retry delays of a kind: the first retry waits `baseMs`, each next one twice as long, never more than `maxMs`. */
export interface RetryPolicy {
  baseMs?: number;
  maxMs?: number;
}

/** A kind of background work: its name, payload schema and retry policy, shared by enqueuers and the handler. */
export interface JobKind<P> {
  name: string;
  payload: z.ZodType<P>;
  /** Attempts before the job is dead (status FAILED, kept for inspection). */
  maxAttempts: number;
  /** Overrides the worker's default retry delays. */
  retry?: RetryPolicy;
}

/** Declares a job kind. */
export function jobKind<P>(name: string, payload: z.ZodType<P>, opts: { maxAttempts?: number; retry?: RetryPolicy } = {}): JobKind<P> {
  return { name, payload, maxAttempts: opts.maxAttempts ?? 5, ...(opts.retry ? { retry: opts.retry } : {}) };
}

/** What a handler sees of the job it runs. */
export interface JobRun<P> {
  id: number;
  /** 1 on the first attempt; a job reclaimed after its worker died counts that attempt too. */
  attempt: number;
  /** Aborted when the worker shuts down past its grace period or another worker took the job over. */
  signal: AbortSignal;
  /**
   * Stores `payload` as the job's payload inside the handler's own transaction, so a step and the record that
   * it happened commit together and a replay skips it. Throws LeaseLostError (rolling that transaction back)
   * when the job is no longer this worker's.
   */
  checkpoint(tx: DbTx, payload: P): Promise<void>;
}

/** The code for a kind. Handlers are idempotent (a job may run again after a crash) and throw to be retried. */
export interface JobHandler<P> {
  kind: JobKind<P>;
  handle(payload: P, run: JobRun<P>): Promise<void>;
}

/** Pairs a kind with its handler. */
export function defineHandler<P>(kind: JobKind<P>, handle: (payload: P, run: JobRun<P>) => Promise<void>): JobHandler<P> {
  return { kind, handle };
}

/** Thrown by a handler for a failure that retrying cannot fix: the job is dead at once. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/** The job was taken over by another worker (its lease expired): this worker must not record anything for it. */
export class LeaseLostError extends Error {
  constructor(readonly jobId: number) {
    super(`job ${jobId} is no longer held by this worker (its lease expired)`);
    this.name = 'LeaseLostError';
  }
}
