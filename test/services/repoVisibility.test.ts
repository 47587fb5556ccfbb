import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { canReadAny } from '../../src/permissions/repoPermission.ts';
import { ALL_UNITS } from '../../src/permissions/units.ts';
import { createServiceContext, ANONYMOUS } from '../../src/services/context.ts';
import { visibleRepoFilter } from '../../src/services/repo/visibility.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addMember, contextFor, createOrgAs } from '../helpers/org.ts';

/**
 * The list filter must agree with the access model (the permission loader) for every viewer and
 * repository: a repository is listed exactly when the viewer can read it.
 */
describe.each(PROVIDERS)('visibleRepoFilter agrees with the access model (%s)', (provider) => {
  let t: TestApp;
  const viewers: Record<string, Models.User | null> = {};
  const repos: Models.Repository[] = [];

  async function repo(owner: Models.User, name: string, isPrivate: boolean): Promise<Models.Repository> {
    const r = await t.db.repository.create({
      data: {
        ownerId: owner.id,
        ownerName: owner.name,
        name,
        lowerName: name.toLowerCase(),
        isPrivate,
        units: { create: ALL_UNITS.map((type) => ({ type })) },
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
    }
    for (const u of [owner, limitedUser, privateUser]) {
      await repo(u, `${u.name}-open`, false);
      const closed = await repo(u, `${u.name}-closed`, true);
      await t.db.collaboration.create({ data: { repoId: closed.id, userId: viewers.collab!.id, mode: 'READ' } });
    }
    await repo(viewers.restricted!, 'own-closed', true);
  });
  afterAll(() => t.close());

  it('lists exactly the repositories the loader lets each viewer read', async () => {
    const mismatches: string[] = [];
    for (const [label, viewer] of Object.entries(viewers)) {
      const cx = viewer ? contextFor(t, viewer) : createServiceContext(t.app.deps, null, ANONYMOUS);
      const perms = await cx.loaders.repoPermission.loadMany(repos.map((r) => r.id));
      const readable = new Set(
        repos
          .filter((_, i) => {
            const p = perms[i];
            return p && !(p instanceof Error) && canReadAny(p);
          })
          .map((r) => r.name),
      );
      const listed = new Set(
        (
          await t.db.repository.findMany({
            where: { AND: [{ id: { in: repos.map((r) => r.id) } }, visibleRepoFilter(cx)] },
            select: { name: true },
          })
        ).map((r) => r.name),
      );
      for (const r of repos) {
        if (readable.has(r.name) !== listed.has(r.name))
          mismatches.push(`${label} × ${r.name}: model ${readable.has(r.name)}, filter ${listed.has(r.name)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('anonymous viewers see only public repositories of public owners', async () => {
    const cx = createServiceContext(t.app.deps, null, ANONYMOUS);
    const names = (await t.db.repository.findMany({ where: visibleRepoFilter(cx), select: { name: true }, orderBy: { name: 'asc' } })).map(
      (r) => r.name,
    );
    expect(names).toEqual(['owner-open', 'pub-open']);
  });
});
