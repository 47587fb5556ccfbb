import { Prisma } from '../generated/sqlite/client.ts';
import type { DbTx } from './client.ts';
import { querySql } from './rawStatements.ts';

/**
 * The next number of the repository (shared by issues and pull requests) inside `tx`: one atomic upsert-increment
 * whose row lock is held until commit, so numbers are gap-free (a rollback gives it back). Raw: Prisma's `upsert`
 * ran the same statement behind a query plan and result mapping that cost more than the statement.
 */
export async function nextIssueIndex(tx: DbTx, repoId: number): Promise<number> {
  const [row] = await querySql<{ maxIndex: number | bigint }>(
    tx,
    Prisma.sql`
    INSERT INTO "IssueIndex" ("repoId", "maxIndex") VALUES (${repoId}, 1)
    ON CONFLICT ("repoId") DO UPDATE SET "maxIndex" = "IssueIndex"."maxIndex" + 1
    RETURNING "maxIndex"`,
  );
  return Number(row!.maxIndex);
}
