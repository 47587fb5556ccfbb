import type { Db } from '../db/client.ts';

/** The job queue now (metrics): unfinished jobs by kind and status, and the age of the oldest due one. */
export async function readQueueState(db: Db): Promise<{
  byKind: Array<{ kind: string; status: 'PENDING' | 'RUNNING'; count: number }>;
  oldestDueSeconds: number;
}> {
  const now = new Date();
  const [groups, oldest] = await Promise.all([
    db.job.groupBy({ by: ['kind', 'status'], where: { status: { in: ['PENDING', 'RUNNING'] } }, _count: { _all: true } }),
    db.job.findFirst({ where: { status: 'PENDING', runAt: { lte: now } }, orderBy: { runAt: 'asc' }, select: { runAt: true } }),
  ]);
  return {
    byKind: groups.map((g) => ({ kind: g.kind, status: g.status as 'PENDING' | 'RUNNING', count: g._count._all })),
    oldestDueSeconds: oldest ? Math.max(0, (now.getTime() - oldest.runAt.getTime()) / 1000) : 0,
  };
}
