import type { Models } from '../../src/db/client.ts';
import { createServiceContext, type ServiceContext } from '../../src/services/context.ts';
import * as orgService from '../../src/services/org/org.ts';
import type { TestApp } from './app.ts';

/** A password-authenticated service context for `user` (fixtures that go through services). */
export function contextFor(t: TestApp, user: Models.User): ServiceContext {
  return createServiceContext(t.app.deps, user, { method: 'password', scope: null, tokenId: null, sudoerId: null });
}

/** Creates an organization through the org service, owned by `owner` (who joins its Owners team). */
export function createOrgAs(t: TestApp, owner: Models.User, name: string, visibility: Models.Visibility = 'PUBLIC'): Promise<Models.User> {
  return orgService.createOrg(contextFor(t, owner), { name, visibility });
}

/**
 * Makes `user` a member of `org` the way Gitea does (membership comes with a team): joins the team `team`
 * (created with read access if missing; `Owners` for the owners team), then refreshes the counters.
 */
export async function addMember(
  t: TestApp,
  org: Models.User,
  user: Models.User,
  opts: { team?: string; isPublic?: boolean } = {},
): Promise<void> {
  const name = opts.team ?? 'Members';
  const team =
    (await t.db.team.findUnique({ where: { orgId_lowerName: { orgId: org.id, lowerName: name.toLowerCase() } } })) ??
    (await t.db.team.create({ data: { orgId: org.id, name, lowerName: name.toLowerCase(), authorize: 'READ' } }));
  await t.db.orgUser.upsert({
    where: { orgId_userId: { orgId: org.id, userId: user.id } },
    create: { orgId: org.id, userId: user.id, isPublic: opts.isPublic ?? false },
    update: opts.isPublic === undefined ? {} : { isPublic: opts.isPublic },
  });
  await t.db.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: user.id } });
  await t.db.team.update({ where: { id: team.id }, data: { numMembers: await t.db.teamUser.count({ where: { teamId: team.id } }) } });
  await orgService.refreshOrgCounters(t.db, org.id);
}

/** Sets whether `user`'s membership of `org` is public. */
export async function setPublic(t: TestApp, org: Models.User, user: Models.User, isPublic: boolean): Promise<void> {
  await t.db.orgUser.update({ where: { orgId_userId: { orgId: org.id, userId: user.id } }, data: { isPublic } });
}

/** The logins of a JSON array of users or organizations. */
export function logins(body: unknown): string[] {
  return (body as Array<{ login?: string; name?: string; username?: string }>).map((u) => u.login ?? u.username ?? u.name ?? '');
}
