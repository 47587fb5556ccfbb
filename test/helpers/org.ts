import type { Models } from '../../src/db/client.ts';
import { ALL_UNITS, unitKey } from '../../src/permissions/units.ts';
import { createServiceContext, type ServiceContext } from '../../src/services/context.ts';
import * as memberService from '../../src/services/org/member.ts';
import * as orgService from '../../src/services/org/org.ts';
import * as teamService from '../../src/services/org/team.ts';
import * as teamMemberService from '../../src/services/org/teamMember.ts';
import type { TestApp } from './app.ts';

/** A password-authenticated service context for `user` (fixtures that go through services). */
export function contextFor(t: TestApp, user: Models.User): ServiceContext {
  return createServiceContext(t.app.deps, user, { method: 'password', scope: null, tokenId: null, sudoerId: null });
}

/** Creates an organization through the org service, owned by `owner` (who joins its Owners team). */
export function createOrgAs(
  t: TestApp,
  owner: Models.User,
  name: string,
  visibility: Models.Visibility = 'PUBLIC',
  profile: orgService.OrgProfileInput = {},
): Promise<Models.User> {
  return orgService.createOrg(contextFor(t, owner), { ...profile, name, visibility });
}

/** The first member of `org`'s Owners team: who fixtures act as for the organization. */
export async function orgOwner(t: TestApp, org: Pick<Models.User, 'id' | 'name'>): Promise<Models.User> {
  const owner = await t.db.user.findFirst({
    where: { teamMemberships: { some: { orgId: org.id, team: { lowerName: orgService.OWNERS_TEAM.toLowerCase() } } } },
    orderBy: { id: 'asc' },
  });
  if (!owner) throw new Error(`organization ${org.name} has no owner`);
  return owner;
}

/**
 * Makes `user` a member of `org` the way Gitea does (membership comes with a team), through the team service:
 * joins the team `team` (created by an owner as a read team on every unit if missing; `Owners` for the owners
 * team), then sets whether the membership is public (as the member, the only one who may).
 */
export async function addMember(
  t: TestApp,
  org: Models.User,
  user: Models.User,
  opts: { team?: string; isPublic?: boolean } = {},
): Promise<void> {
  const name = opts.team ?? 'Members';
  const owner = contextFor(t, await orgOwner(t, org));
  const team =
    (await t.db.team.findUnique({ where: { orgId_lowerName: { orgId: org.id, lowerName: name.toLowerCase() } } })) ??
    (await teamService.createTeam(owner, org.name, { name, permission: 'read', units: ALL_UNITS.map(unitKey) }));
  await teamMemberService.addTeamMember(owner, team.id, user.name);
  if (opts.isPublic !== undefined) await setPublic(t, org, user, opts.isPublic);
}

/** Sets whether `user`'s membership of `org` is public (as `user`, through the member service). */
export async function setPublic(t: TestApp, org: Models.User, user: Models.User, isPublic: boolean): Promise<void> {
  await memberService.setMembershipVisibility(contextFor(t, user), org.name, user.name, isPublic);
}

/** The logins of a JSON array of users or organizations. */
export function logins(body: unknown): string[] {
  return (body as Array<{ login?: string; name?: string; username?: string }>).map((u) => u.login ?? u.username ?? u.name ?? '');
}
