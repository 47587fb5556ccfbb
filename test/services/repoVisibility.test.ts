import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { canReadAny } from '../../src/permissions/repoPermission.ts';
import { createServiceContext, ANONYMOUS } from '../../src/services/context.ts';
import { visibleRepoFilter } from '../../src/services/repo/visibility.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addCollaborator, addTeamMember, addTeamRepo, createRepo, createTeam } from '../helpers/fixtures.ts';
import { addMember, contextFor, createOrgAs } from '../helpers/org.ts';

/**
 * The list filter must agree with the access model (the permission loader) for every viewer and
 * repository: a repository is listed exactly when the viewer can read it.
 */
describe.each(PROVIDERS)('visibleRepoFilter agrees with the access model (%s)', (provider) => {
  let t: TestApp;
  const viewers: Record<string, Models.User | null> = {};
  const repos: Models.Repository[] = [];

  /** A repository of a user (created by that user) or of an organization (created by its owner `as`). */
  async function repo(owner: Models.User, name: string, isPrivate: boolean, as = owner): Promise<Models.Repository> {
    const r = await createRepo(t, as, name, { private: isPrivate, ...(owner.type === 'ORGANIZATION' ? { org: owner } : {}) });
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
      const open = await repo(org, `${key}-open`, false, owner);
      const closed = await repo(org, `${key}-closed`, true, owner);
      await addMember(t, org, viewers.member!);
      await addMember(t, org, viewers.restrictedMember!);
      // A team with code write on one repository.
      const team = await createTeam(t, owner, org, { name: 'Devs', permission: 'write', units: ['repo.code'] });
      await addTeamMember(t, owner, team, viewers.teamer!);
      await addTeamRepo(t, owner, team, closed);
      // A team with code read on every repository of the organization.
      const all = await createTeam(t, owner, org, { name: 'All', permission: 'read', units: ['repo.code'], includesAllRepositories: true });
      await addTeamMember(t, owner, all, viewers.allteamer!);
      // An admin-authority team grants only the repositories it includes (here: the public one).
      const admins = await createTeam(t, owner, org, { name: 'Admins', permission: 'admin' });
      await addTeamMember(t, owner, admins, viewers.adminTeamer!);
      await addTeamRepo(t, owner, admins, open);
    }
    for (const u of [owner, limitedUser, privateUser]) {
      await repo(u, `${u.name}-open`, false);
      const closed = await repo(u, `${u.name}-closed`, true);
      await addCollaborator(t, closed, viewers.collab!, 'read');
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
