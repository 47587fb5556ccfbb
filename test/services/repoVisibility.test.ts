import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { parseScope } from '../../src/auth/scope.ts';
import { canRead, canReadAny, isRepoAdmin, type RepoPermission } from '../../src/permissions/repoPermission.ts';
import { ALL_UNITS, type UnitType } from '../../src/permissions/units.ts';
import { createServiceContext, createSystemContext, ANONYMOUS, type ServiceContext } from '../../src/services/context.ts';
import { repoAdminWhere } from '../../src/services/access/repoAdminWhere.ts';
import { repoReadWhere } from '../../src/services/repo/visibility.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addMember, contextFor, createOrgAs } from '../helpers/org.ts';

/**
 * The read policy's SQL form (repoReadWhere) must agree with the access model (the permission loader, which REST
 * uses) for every viewer, credential, repository and unit: a repository is listed exactly when the viewer can
 * read it, and listed for a unit exactly when the viewer can read that unit.
 */
describe.each(PROVIDERS)('repoReadWhere agrees with the access model (%s)', (provider) => {
  let t: TestApp;
  const viewers: Record<string, Models.User | null> = {};
  const repos: Models.Repository[] = [];

  async function repo(
    owner: Models.User,
    name: string,
    isPrivate: boolean,
    units: readonly UnitType[] = ALL_UNITS,
  ): Promise<Models.Repository> {
    const r = await t.db.repository.create({
      data: {
        ownerId: owner.id,
        ownerName: owner.name,
        name,
        lowerName: name.toLowerCase(),
        isPrivate,
        units: { create: units.map((type) => ({ type })) },
      },
    });
    repos.push(r);
    return r;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    const owner = await t.createUser('owner');
    viewers.anonymous = null;
    viewers.plain = await t.createUser('plain');
    viewers.restricted = await t.createUser('restricted', { restricted: true });
    viewers.admin = await t.createUser('admin', { admin: true });
    viewers.member = await t.createUser('member');
    viewers.teamer = await t.createUser('teamer');
    viewers.allteamer = await t.createUser('allteamer');
    viewers.collab = await t.createUser('collab');
    viewers.restrictedMember = await t.createUser('rmember', { restricted: true });
    viewers.adminTeamer = await t.createUser('adminteamer');
    viewers.issuer = await t.createUser('issuer');
    viewers.noneTeamer = await t.createUser('noneteamer');
    viewers.adminCollab = await t.createUser('admincollab');
    viewers.unitAdmin = await t.createUser('unitadmin');
    const limitedUser = await t.createUser('limiteduser', { visibility: 'LIMITED' });
    const privateUser = await t.createUser('privateuser', { visibility: 'PRIVATE' });
    const orgs = {
      pub: await createOrgAs(t, owner, 'pub', 'PUBLIC'),
      lim: await createOrgAs(t, owner, 'lim', 'LIMITED'),
      priv: await createOrgAs(t, owner, 'priv', 'PRIVATE'),
    };
    for (const [key, org] of Object.entries(orgs)) {
      const open = await repo(org, `${key}-open`, false);
      const closed = await repo(org, `${key}-closed`, true);
      // Only issues and pull requests enabled: the Devs team's code grant gives nothing here.
      const partial = await repo(org, `${key}-partial`, true, ['ISSUES', 'PULL_REQUESTS']);
      // No unit at all: only whole-repository grants (owners, admin teams, collaborators, public access) see it.
      await repo(org, `${key}-bare`, false, []);
      await addMember(t, org, viewers.member!);
      await addMember(t, org, viewers.restrictedMember!);
      const team = await t.db.team.create({
        data: {
          orgId: org.id,
          name: 'Devs',
          lowerName: 'devs',
          authorize: 'NONE',
          units: { create: [{ orgId: org.id, type: 'CODE', accessMode: 'WRITE' }] },
        },
      });
      await t.db.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: viewers.teamer!.id } });
      await t.db.orgUser.create({ data: { orgId: org.id, userId: viewers.teamer!.id } });
      await t.db.teamRepo.create({ data: { orgId: org.id, teamId: team.id, repoId: closed.id } });
      await t.db.teamRepo.create({ data: { orgId: org.id, teamId: team.id, repoId: partial.id } });
      for (const [name, units, member] of [
        ['Issuers', [{ orgId: org.id, type: 'ISSUES' as const, accessMode: 'READ' as const }], viewers.issuer!],
        ['Nothing', [{ orgId: org.id, type: 'CODE' as const, accessMode: 'NONE' as const }], viewers.noneTeamer!],
      ] as const) {
        const grant = await t.db.team.create({
          data: { orgId: org.id, name, lowerName: name.toLowerCase(), authorize: 'NONE', units: { create: [...units] } },
        });
        await t.db.teamUser.create({ data: { orgId: org.id, teamId: grant.id, userId: member.id } });
        await t.db.orgUser.upsert({
          where: { orgId_userId: { orgId: org.id, userId: member.id } },
          create: { orgId: org.id, userId: member.id },
          update: {},
        });
        await t.db.teamRepo.createMany({ data: [closed, partial].map((r) => ({ orgId: org.id, teamId: grant.id, repoId: r.id })) });
      }
      const all = await t.db.team.create({
        data: {
          orgId: org.id,
          name: 'All',
          lowerName: 'all',
          authorize: 'NONE',
          includesAllRepositories: true,
          units: { create: [{ orgId: org.id, type: 'CODE', accessMode: 'READ' }] },
        },
      });
      await t.db.teamUser.create({ data: { orgId: org.id, teamId: all.id, userId: viewers.allteamer!.id } });
      await t.db.orgUser.create({ data: { orgId: org.id, userId: viewers.allteamer!.id } });
      // An admin-authority team grants only the repositories it includes (here: the public one).
      const admins = await t.db.team.create({ data: { orgId: org.id, name: 'Admins', lowerName: 'admins', authorize: 'ADMIN' } });
      await t.db.teamUser.create({ data: { orgId: org.id, teamId: admins.id, userId: viewers.adminTeamer!.id } });
      await t.db.orgUser.create({ data: { orgId: org.id, userId: viewers.adminTeamer!.id } });
      await t.db.teamRepo.create({ data: { orgId: org.id, teamId: admins.id, repoId: open.id } });
      // A team of no authority whose code unit row says admin: admin of the repositories it includes with code enabled.
      const codeAdmins = await t.db.team.create({
        data: {
          orgId: org.id,
          name: 'CodeAdmins',
          lowerName: 'codeadmins',
          authorize: 'NONE',
          units: { create: [{ orgId: org.id, type: 'CODE', accessMode: 'ADMIN' }] },
        },
      });
      await t.db.teamUser.create({ data: { orgId: org.id, teamId: codeAdmins.id, userId: viewers.unitAdmin!.id } });
      await t.db.orgUser.create({ data: { orgId: org.id, userId: viewers.unitAdmin!.id } });
      await t.db.teamRepo.createMany({ data: [closed, partial].map((r) => ({ orgId: org.id, teamId: codeAdmins.id, repoId: r.id })) });
    }
    for (const u of [owner, limitedUser, privateUser]) {
      await repo(u, `${u.name}-open`, false);
      const closed = await repo(u, `${u.name}-closed`, true);
      await t.db.collaboration.create({ data: { repoId: closed.id, userId: viewers.collab!.id, mode: 'READ' } });
      await t.db.collaboration.create({ data: { repoId: closed.id, userId: viewers.adminCollab!.id, mode: 'ADMIN' } });
    }
    await repo(viewers.restricted!, 'own-closed', true);
  });
  afterAll(() => t.close());

  /** Every viewer, signed in with a password, plus anonymous, public-only tokens and the operator's CLI. */
  function contexts(): [string, ServiceContext][] {
    const token = (scope: string) => ({ method: 'token' as const, scope: parseScope(scope), tokenId: 1, sudoerId: null });
    const out: [string, ServiceContext][] = Object.entries(viewers).map(([label, viewer]) => [
      label,
      viewer ? contextFor(t, viewer) : createServiceContext(t.app.deps, null, ANONYMOUS),
    ]);
    for (const label of ['member', 'admin', 'teamer', 'collab']) {
      out.push([`${label}+public-only`, createServiceContext(t.app.deps, viewers[label] ?? null, token('public-only,read:repository'))]);
    }
    out.push(['system', createSystemContext(t.app.deps)]);
    return out;
  }

  async function listed(cx: ServiceContext, units?: readonly UnitType[]): Promise<Set<string>> {
    const rows = await t.db.repository.findMany({
      where: { AND: [{ id: { in: repos.map((r) => r.id) } }, repoReadWhere(cx, units)] },
      select: { name: true },
    });
    return new Set(rows.map((r) => r.name));
  }

  it('lists exactly the repositories (and, per unit, the units) the loader lets each viewer read', async () => {
    const mismatches: string[] = [];
    const checks: [string, UnitType[] | undefined, (p: RepoPermission) => boolean][] = [
      ['any', undefined, canReadAny],
      ...ALL_UNITS.map((u): [string, UnitType[], (p: RepoPermission) => boolean] => [u, [u], (p) => canRead(p, u)]),
      ['ISSUES|PULL_REQUESTS', ['ISSUES', 'PULL_REQUESTS'], (p) => canRead(p, 'ISSUES') || canRead(p, 'PULL_REQUESTS')],
    ];
    let readableAnywhere = 0;
    for (const [label, cx] of contexts()) {
      const perms = await cx.loaders.repoPermission.loadMany(repos.map((r) => r.id));
      for (const [what, units, reads] of checks) {
        const model = new Set(
          repos
            .filter((_, i) => {
              const p = perms[i];
              return p !== undefined && !(p instanceof Error) && reads(p);
            })
            .map((r) => r.name),
        );
        readableAnywhere += model.size;
        const filter = await listed(cx, units);
        for (const r of repos) {
          if (model.has(r.name) !== filter.has(r.name)) {
            mismatches.push(`${label} × ${r.name} × ${what}: model ${model.has(r.name)}, filter ${filter.has(r.name)}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(readableAnywhere).toBeGreaterThan(100);
  });

  it('repoAdminWhere lists exactly the repositories the loader says each viewer administers', async () => {
    const mismatches: string[] = [];
    let administered = 0;
    for (const [label, cx] of contexts()) {
      const perms = await cx.loaders.repoPermission.loadMany(repos.map((r) => r.id));
      const rows = await t.db.repository.findMany({
        where: { AND: [{ id: { in: repos.map((r) => r.id) } }, repoAdminWhere(cx)] },
        select: { name: true },
      });
      const filter = new Set(rows.map((r) => r.name));
      repos.forEach((r, i) => {
        const p = perms[i];
        const model = p !== undefined && !(p instanceof Error) && isRepoAdmin(p);
        if (model) administered++;
        if (model !== filter.has(r.name)) mismatches.push(`${label} × ${r.name}: model ${model}, filter ${filter.has(r.name)}`);
      });
    }
    expect(mismatches).toEqual([]);
    expect(administered).toBeGreaterThan(40);
  });

  it('unit grants count only while the unit is enabled, and a NONE grant gives nothing', async () => {
    const teamer = await listed(contextFor(t, viewers.teamer!));
    expect(teamer.has('pub-closed') && !teamer.has('pub-partial')).toBe(true);
    const issuer = contextFor(t, viewers.issuer!);
    const issues = await listed(issuer, ['ISSUES']);
    expect(issues.has('pub-partial') && issues.has('priv-closed')).toBe(true);
    const code = await listed(issuer, ['CODE']);
    expect(code.has('pub-open') && !code.has('pub-closed') && !code.has('pub-partial')).toBe(true);
    const none = await listed(contextFor(t, viewers.noneTeamer!));
    expect(none.has('pub-open') && !none.has('pub-closed')).toBe(true);
  });

  it('anonymous viewers see only public repositories of public owners', async () => {
    const cx = createServiceContext(t.app.deps, null, ANONYMOUS);
    const names = (await t.db.repository.findMany({ where: repoReadWhere(cx), select: { name: true }, orderBy: { name: 'asc' } })).map(
      (r) => r.name,
    );
    expect(names).toEqual(['owner-open', 'pub-bare', 'pub-open']);
  });
});
