import { Prisma } from '../generated/sqlite/client.ts';
import type { DbTx } from './client.ts';

/** Counts a new issue in its repository (and as closed when it starts closed), as Prisma's increment did. */
export async function countNewIssue(tx: DbTx, repoId: number, closed: boolean): Promise<void> {
  const closedToo = closed ? Prisma.sql`, "numClosedIssues" = "numClosedIssues" + 1` : Prisma.empty;
  await tx.$executeRaw(
    Prisma.sql`UPDATE "Repository" SET "numIssues" = "numIssues" + 1${closedToo}, "updatedAt" = ${new Date()} WHERE "id" = ${repoId}`,
  );
}
