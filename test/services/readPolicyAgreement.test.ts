import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScope } from '../../src/auth/scope.ts';
import type { Models } from '../../src/db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../src/errors.ts';
import { canSeeOrg, orgAccess } from '../../src/services/access/orgAccess.ts';
import { ANONYMOUS, createServiceContext, createSystemContext, type ServiceContext } from '../../src/services/context.ts';
import * as teamService from '../../src/services/org/team.ts';
import * as teamMemberService from '../../src/services/org/teamMember.ts';
import { canReadTeamAccess, TEAM_INCLUDE } from '../../src/services/access/teamAccess.ts';
import { orgReadWhere, teamReadWhere } from '../../src/services/org/visibility.ts';
import { getUserByName } from '../../src/services/user/user.ts';
import { userReadWhere } from '../../src/services/user/visibility.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { contextFor, createOrgAs } from '../helpers/org.ts';

const VISIBILITIES = ['public', 'limited', 'private'] as const;

/**
 * Each read policy has two forms — a rule for one loaded row (what REST asks) and a Prisma filter (what GraphQL
 * lists, relations and node(id:) apply) — and they must agree for every viewer and credential. Repositories are
 * proven in repoVisibility.test.ts; here organizations, teams and users.
 */
describe.each(PROVIDERS)('row rules and filters agree: organizations, teams, users (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const name of ['agowner', 'agmember', 'agteamer', 'agplain', 'agadmin']) {
      users[name] = await t.createUser(name, { admin: name === 'agadmin' });
    }
    users.agrestricted = await t.createUser('agrestricted', { restricted: true });
    users.agrmember = await t.createUser('agrmember', { restricted: true });
    users.aglimited = await t.createUser('aglimited', { visibility: 'LIMITED' });
    users.agprivate = await t.createUser('agprivate', { visibility: 'PRIVATE' });
    const owner = contextFor(t, users.agowner!);
    for (const v of VISIBILITIES) {
      await createOrgAs(t, users.agowner!, `ag-${v}`, v.toUpperCase() as Models.Visibility);
      const teams: Record<string, number> = {};
      for (const tv of VISIBILITIES) {
        teams[tv] = (
          await teamService.createTeam(owner, `ag-${v}`, { name: `t-${tv}`, visibility: tv, units: ['repo.code'], permission: 'read' })
        ).id;
      }
      // agmember and agrmember belong to the organization through the limited team; agteamer is in the private team.
      await teamMemberService.addTeamMember(owner, teams.limited!, 'agmember');
      await teamMemberService.addTeamMember(owner, teams.limited!, 'agrmember');
      await teamMemberService.addTeamMember(owner, teams.private!, 'agteamer');
    }
  });
  afterAll(() => t.close());

  function contexts(): [string, ServiceContext][] {
    const token = (scope: string) => ({ method: 'token' as const, scope: parseScope(scope), tokenId: 1, sudoerId: null });
    const out: [string, ServiceContext][] = [['anonymous', createServiceContext(t.app.deps, null, ANONYMOUS)]];
    for (const [name, user] of Object.entries(users)) out.push([name, contextFor(t, user)]);
    for (const name of ['agmember', 'agadmin', 'agowner']) {
      out.push([
        `${name}+public-only`,
        createServiceContext(t.app.deps, users[name] ?? null, token('public-only,read:organization,read:user')),
      ]);
    }
    out.push(['system', createSystemContext(t.app.deps)]);
    return out;
  }

  it('teams: teamReadWhere lists exactly the teams canReadTeam lets each viewer read', async () => {
    const teams = await t.db.team.findMany({ where: { org: { lowerName: { startsWith: 'ag-' } } }, include: TEAM_INCLUDE });
    const mismatches: string[] = [];
    let readable = 0;
    for (const [label, cx] of contexts()) {
      const listed = new Set(
        (await t.db.team.findMany({ where: { AND: [{ id: { in: teams.map((x) => x.id) } }, teamReadWhere(cx)] } })).map((x) => x.id),
      );
      for (const team of teams) {
        // Anonymous callers never read teams (Gitea's reqToken); a public-only token reaches public organizations only.
        const access = await orgAccess(cx, team.org);
        const reachable = cx.viewer !== null || cx.auth.method === 'system';
        const tokenOk = !(cx.auth.scope?.publicOnly && team.org.visibility !== 'PUBLIC');
        const rule =
          reachable && tokenOk && canReadTeamAccess(cx, { team, access, isTeamMember: access.standing.teamIds.includes(team.id) });
        if (rule) readable++;
        if (rule !== listed.has(team.id))
          mismatches.push(`${label} × ${team.org.name}/${team.name}: rule ${rule}, filter ${listed.has(team.id)}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(readable).toBeGreaterThan(40);
  });

  it('organizations: orgReadWhere lists exactly the organizations canSeeOrg shows', async () => {
    const orgs = await t.db.user.findMany({ where: { type: 'ORGANIZATION', lowerName: { startsWith: 'ag-' } } });
    const mismatches: string[] = [];
    for (const [label, cx] of contexts()) {
      const listed = new Set(
        (await t.db.user.findMany({ where: { AND: [{ id: { in: orgs.map((o) => o.id) } }, orgReadWhere(cx)] } })).map((o) => o.id),
      );
      for (const org of orgs) {
        const rule = canSeeOrg(cx, await orgAccess(cx, org));
        if (rule !== listed.has(org.id)) mismatches.push(`${label} × ${org.name}: rule ${rule}, filter ${listed.has(org.id)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('users: userReadWhere lists exactly the accounts getUserByName answers', async () => {
    const accounts = Object.values(users);
    const mismatches: string[] = [];
    for (const [label, cx] of contexts()) {
      const listed = new Set(
        (await t.db.user.findMany({ where: { AND: [{ id: { in: accounts.map((u) => u.id) } }, userReadWhere(cx)] } })).map((u) => u.id),
      );
      for (const user of accounts) {
        let rule = true;
        try {
          await getUserByName(cx, user.name);
        } catch (err) {
          if (!(err instanceof NotFoundError || err instanceof PermissionDeniedError)) throw err;
          rule = false;
        }
        if (rule !== listed.has(user.id)) mismatches.push(`${label} × ${user.name}: rule ${rule}, filter ${listed.has(user.id)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
