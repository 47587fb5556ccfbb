// The worker's per-job writes that every job makes, as raw statements: a job's checkpoint and its finish ran as
// Prisma `updateMany`s, whose client-side work (argument validation, the query plan, result mapping) cost more than
// the statement itself, twice or three times for every job (bench/writes.ts: an issue creation causes three jobs).
import { Prisma } from '../generated/sqlite/client.ts';
import type { DbLike } from '../db/client.ts';

/**
 * Marks a job this worker holds DONE (with `payload`, a held job's run payload no checkpoint stored); the number
 * of rows changed: 0 when another worker took the job over meanwhile.
 */
export function finishJob(db: DbLike, id: number, workerId: string, payload?: string): Promise<number> {
  const stored = payload === undefined ? Prisma.empty : Prisma.sql`, "payload" = ${payload}`;
  return db.$executeRaw(Prisma.sql`
    UPDATE "Job" SET "status" = 'DONE', "lockedBy" = '', "lockedAt" = NULL, "updatedAt" = ${new Date()}${stored}
    WHERE "id" = ${id} AND "lockedBy" = ${workerId} AND "status" = 'RUNNING'`);
}

/** Stores a running job's new payload in `tx` (the handler's transaction); 0 rows when the lease was lost. */
export function checkpointJob(tx: DbLike, id: number, workerId: string, payload: string): Promise<number> {
  return tx.$executeRaw(Prisma.sql`
    UPDATE "Job" SET "payload" = ${payload}, "updatedAt" = ${new Date()}
    WHERE "id" = ${id} AND "lockedBy" = ${workerId} AND "status" = 'RUNNING'`);
}
