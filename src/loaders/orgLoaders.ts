import DataLoader from 'dataloader';
import type { Db, Models } from '../db/client.ts';

/** Ids of each organization's owners (members of an owner-authority team), batched: one query per batch. */
export function orgOwnerIdsLoader(db: Db): DataLoader<number, Set<number>> {
  return new DataLoader(async (orgIds: readonly number[]) => {
    const rows = await db.teamUser.findMany({
      where: { orgId: { in: [...orgIds] }, team: { authorize: 'OWNER' } },
      select: { orgId: true, userId: true },
    });
    return orgIds.map((id) => new Set(rows.filter((r) => r.orgId === id).map((r) => r.userId)));
  });
}

/** Counts OrgUser rows per organization under a fixed filter (one GROUP BY per batch). */
export function membershipCountLoader(db: Db, where: Models.Prisma.OrgUserWhereInput): DataLoader<number, number> {
  return new DataLoader(async (orgIds: readonly number[]) => {
    const rows = await db.orgUser.groupBy({ by: ['orgId'], where: { ...where, orgId: { in: [...orgIds] } }, _count: { _all: true } });
    const byOrg = new Map(rows.map((r) => [r.orgId, r._count._all]));
    return orgIds.map((id) => byOrg.get(id) ?? 0);
  });
}

/** Counts OrgUser rows per member under a fixed filter (one GROUP BY per batch). */
export function userMembershipCountLoader(db: Db, where: Models.Prisma.OrgUserWhereInput): DataLoader<number, number> {
  return new DataLoader(async (userIds: readonly number[]) => {
    const rows = await db.orgUser.groupBy({ by: ['userId'], where: { ...where, userId: { in: [...userIds] } }, _count: { _all: true } });
    const byUser = new Map(rows.map((r) => [r.userId, r._count._all]));
    return userIds.map((id) => byUser.get(id) ?? 0);
  });
}
