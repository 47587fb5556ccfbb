import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The job queue as the database shows it at scrape time. */
export interface QueueState {
  /** Runnable or waiting jobs (PENDING) and jobs being run (RUNNING), by kind. */
  byKind: Array<{ kind: string; status: 'PENDING' | 'RUNNING'; count: number }>;
  /** Age in seconds of the oldest job that is due (PENDING with runAt in the past); 0 when none. */
  oldestDueSeconds: number;
}

/**
 * Node's default process metrics (CPU, memory, event loop, GC) describe the process, not an app: one registry per
 * process, made on first use. Per app they would also keep every app ever built alive, since the GC histogram's
 * PerformanceObserver is never disconnected and holds its registry.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'forgegraph_' });
  }
  return processRegistry;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATEMENT_BUCKETS = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144];

/**
 * The process's Prometheus metrics (prom-client, one registry per app): request latency by route, SQL
 * statements per request, the job queue (read from the database when scraped, so every instance reports the
 * shared queue), webhook delivery outcomes, git operation durations and repository lock waits, and Node's
 * default process metrics (shared by the apps of a process).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requestDuration = new Histogram({
    name: 'forgegraph_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly statementsPerRequest = new Histogram({
    name: 'forgegraph_db_statements_per_request',
    help: 'SQL statements a request issued, by route pattern',
    labelNames: ['route'] as const,
    buckets: STATEMENT_BUCKETS,
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'forgegraph_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (succeeded, failed for good, retry)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly gitDuration = new Histogram({
    name: 'forgegraph_git_operation_duration_seconds',
    help: 'Duration of git smart HTTP operations (upload-pack, receive-pack, ref advertisement)',
    labelNames: ['service'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly repoLockWait = new Histogram({
    name: 'forgegraph_repo_lock_wait_seconds',
    help: 'Time git writers waited for a repository write lock',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly repoLockHeld = new Histogram({
    name: 'forgegraph_repo_lock_held_seconds',
    help: 'Time git writers held a repository write lock',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor(readQueue: () => Promise<QueueState>) {
    processMetrics();
    let last: Promise<QueueState> | null = null;
    // Both queue gauges are filled by one read per scrape.
    const queue = () => (last ??= readQueue().finally(() => setImmediate(() => (last = null))));
    new Gauge({
      name: 'forgegraph_job_queue_depth',
      help: 'Durable jobs waiting (PENDING) or running (RUNNING), by kind',
      labelNames: ['kind', 'status'] as const,
      registers: [this.registry],
      async collect() {
        const state = await queue();
        this.reset();
        for (const row of state.byKind) this.set({ kind: row.kind, status: row.status }, row.count);
      },
    });
    new Gauge({
      name: 'forgegraph_job_queue_oldest_due_seconds',
      help: 'Age of the oldest due job that no worker has started (0 when none)',
      registers: [this.registry],
      async collect() {
        this.set((await queue()).oldestDueSeconds);
      },
    });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return { contentType: this.registry.contentType, body: `${process}\n${own}` };
  }
}
