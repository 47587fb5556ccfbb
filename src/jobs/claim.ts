import type { Db } from '../db/client.ts';
import { claimSqliteRows, type ClaimedRow } from '../db/jobRows.ts';
import type { DbProvider } from '../db/migrate/engine.ts';

/** A job this worker now holds (status RUNNING, lockedBy it, attempts already counted). */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: string;
  attempts: number;
  maxAttempts: number;
}

/** What a claim takes: runnable PENDING jobs and RUNNING jobs whose lease expired (their worker died). */
export interface ClaimInput {
  workerId: string;
  limit: number;
  now: Date;
  leaseMs: number;
}

/** PostgreSQL timestamps are `timestamp(3)` in UTC; parameters are ISO strings converted explicitly. */
const TS = (n: number) => `(CAST($${n} AS timestamptz) AT TIME ZONE 'UTC')`;

/**
 * One statement: lock up to `limit` runnable rows, skipping rows another instance's claim has locked, and
 * mark them ours. N instances polling at once each get different jobs, and no job is handed out twice.
 */
const PG_CLAIM = `
UPDATE "Job" AS j
SET "status" = 'RUNNING', "lockedBy" = $1, "lockedAt" = ${TS(2)}, "attempts" = j."attempts" + 1, "updatedAt" = ${TS(2)}
FROM (
  SELECT "id" FROM "Job"
  WHERE ("status" = 'PENDING' AND "runAt" <= ${TS(2)}) OR ("status" = 'RUNNING' AND "lockedAt" < ${TS(3)})
  ORDER BY "runAt", "id"
  LIMIT $4
  FOR UPDATE SKIP LOCKED
) AS c
WHERE j."id" = c."id"
RETURNING j."id", j."kind", j."payload", j."attempts", j."maxAttempts"`;

async function claimPostgres(db: Db, input: ClaimInput): Promise<ClaimedJob[]> {
  const expired = new Date(input.now.getTime() - input.leaseMs);
  const rows = await db.$queryRawUnsafe<ClaimedRow[]>(
    PG_CLAIM,
    input.workerId,
    input.now.toISOString(),
    expired.toISOString(),
    input.limit,
  );
  return claimedRows(rows);
}

/** SQLite: one UPDATE … RETURNING (src/db/jobRows.ts). */
async function claimSqlite(db: Db, input: ClaimInput): Promise<ClaimedJob[]> {
  const expired = new Date(input.now.getTime() - input.leaseMs);
  return claimedRows(await claimSqliteRows(db, input.workerId, input.now, expired, input.limit));
}

/** The claimed rows in id order, their integers as numbers (PostgreSQL's driver may give bigints). */
function claimedRows(rows: readonly ClaimedRow[]): ClaimedJob[] {
  return rows
    .map((r) => ({ id: Number(r.id), kind: r.kind, payload: r.payload, attempts: Number(r.attempts), maxAttempts: Number(r.maxAttempts) }))
    .sort((a, b) => a.id - b.id);
}

/** Claims up to `limit` jobs for `workerId` (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one UPDATE … RETURNING). */
export function claimJobs(db: Db, provider: DbProvider, input: ClaimInput): Promise<ClaimedJob[]> {
  if (input.limit <= 0) return Promise.resolve([]);
  return provider === 'postgresql' ? claimPostgres(db, input) : claimSqlite(db, input);
}
