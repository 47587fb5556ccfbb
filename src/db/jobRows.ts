// The job worker's writes that every job makes (src/jobs/worker.ts, claim.ts), as raw statements: a job's claim,
// checkpoint and finish ran as Prisma `updateMany`s, whose client-side work (argument validation, the query plan,
// result mapping) cost more than the statement itself, for every job (an issue creation causes three).
import { Prisma } from '../generated/sqlite/client.ts';
import type { Db, DbLike } from './client.ts';
import { executeSql, querySql } from './rawStatements.ts';

/**
 * Marks a job this worker holds DONE (with `payload`, a held job's run payload no checkpoint stored); the number
 * of rows changed: 0 when another worker took the job over meanwhile.
 */
export function finishJob(db: DbLike, id: number, workerId: string, payload?: string): Promise<number> {
  const stored = payload === undefined ? Prisma.empty : Prisma.sql`, "payload" = ${payload}`;
  return executeSql(
    db,
    Prisma.sql`
    UPDATE "Job" SET "status" = 'DONE', "lockedBy" = '', "lockedAt" = NULL, "updatedAt" = ${new Date()}${stored}
    WHERE "id" = ${id} AND "lockedBy" = ${workerId} AND "status" = 'RUNNING'`,
  );
}

/** Stores a running job's new payload in `tx` (the handler's transaction); 0 rows when the lease was lost. */
export function checkpointJob(tx: DbLike, id: number, workerId: string, payload: string): Promise<number> {
  return executeSql(
    tx,
    Prisma.sql`
    UPDATE "Job" SET "payload" = ${payload}, "updatedAt" = ${new Date()}
    WHERE "id" = ${id} AND "lockedBy" = ${workerId} AND "status" = 'RUNNING'`,
  );
}

/** A claimed job's columns as the claim returns them (integers may come back as bigints). */
export interface ClaimedRow {
  id: number | bigint;
  kind: string;
  payload: string;
  attempts: number | bigint;
  maxAttempts: number | bigint;
}

/**
 * SQLite: marks up to `limit` runnable jobs (PENDING and due, or RUNNING with a lease older than `expired`) as
 * `workerId`'s in one statement. SQLite has one writer at a time, so the statement is atomic against every other
 * claim, in this process or another on the same file: no row is handed out twice.
 */
export function claimSqliteRows(db: Db, workerId: string, now: Date, expired: Date, limit: number): Promise<ClaimedRow[]> {
  return querySql<ClaimedRow>(
    db,
    Prisma.sql`
    UPDATE "Job" SET "status" = 'RUNNING', "lockedBy" = ${workerId}, "lockedAt" = ${now},
      "attempts" = "attempts" + 1, "updatedAt" = ${now}
    WHERE "id" IN (
      SELECT "id" FROM "Job"
      WHERE ("status" = 'PENDING' AND "runAt" <= ${now}) OR ("status" = 'RUNNING' AND "lockedAt" < ${expired})
      ORDER BY "runAt", "id"
      LIMIT ${limit}
    )
    RETURNING "id", "kind", "payload", "attempts", "maxAttempts"`,
  );
}
