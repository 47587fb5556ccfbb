import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import type { AccessMode } from '../../src/permissions/accessMode.ts';
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from '../../src/permissions/repoPermission.ts';
import { ALL_UNITS, type UnitType } from '../../src/permissions/units.ts';
import { createServiceContext, type ServiceContext } from '../../src/services/context.ts';
import * as orgService from '../../src/services/org/org.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

const PASSWORD_AUTH = { method: 'password', scope: null, tokenId: null, sudoerId: null } as const;

/**
 * The batched loader (src/loaders/permissionLoaders.ts) on a real database: facts inserted as rows, answers
 * checked against the access model, and a statement count that does not grow with the number of repositories.
 */
describe.each(PROVIDERS)('repoPermission loader (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  let acme: Models.User;
  let writers: Models.Team;

  function cxFor(name: string | null): ServiceContext {
    const viewer = name ? (users[name] ?? null) : null;
    return createServiceContext(t.app.deps, viewer, viewer ? PASSWORD_AUTH : undefined);
  }

  async function perm(viewer: string | null, repo: string): Promise<RepoPermission> {
    const r = repos[repo];
    if (!r) throw new Error(`no repo ${repo}`);
    return cxFor(viewer).loaders.repoPermission.load(r.id);
  }

  async function makeRepo(
    owner: Models.User,
    name: string,
    isPrivate: boolean,
    units: readonly UnitType[] = ALL_UNITS,
  ): Promise<Models.Repository> {
    const repo = await t.db.repository.create({
      data: { ownerId: owner.id, ownerName: owner.name, name, lowerName: name.toLowerCase(), isPrivate },
    });
    await t.db.repoUnit.createMany({ data: units.map((type) => ({ repoId: repo.id, type })) });
    repos[name] = repo;
    return repo;
  }

  async function makeTeam(
    org: Models.User,
    name: string,
    authorize: AccessMode,
    units: Partial<Record<UnitType, AccessMode>>,
    includesAll = false,
  ): Promise<Models.Team> {
    const team = await t.db.team.create({
      data: { orgId: org.id, name, lowerName: name.toLowerCase(), authorize, includesAllRepositories: includesAll },
    });
    await t.db.teamUnit.createMany({
      data: Object.entries(units).map(([type, accessMode]) => ({ orgId: org.id, teamId: team.id, type: type as UnitType, accessMode })),
    });
    return team;
  }

  async function join(org: Models.User, team: Models.Team, user: string): Promise<void> {
    const userId = users[user]?.id ?? 0;
    await t.db.orgUser.upsert({ where: { orgId_userId: { orgId: org.id, userId } }, create: { orgId: org.id, userId }, update: {} });
    await t.db.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId } });
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina', 'henry']) {
      users[name] = await t.createUser(name, name === 'frank' || name === 'gina' ? { restricted: true } : {});
    }
    users.root = await t.createUser('root', { admin: true });
    acme = await orgService.createOrg(cxFor('alice'), { name: 'acme', visibility: 'LIMITED' });
    const hidden = await orgService.createOrg(cxFor('alice'), { name: 'hidden', visibility: 'PRIVATE' });
    await makeRepo(acme, 'pub', false);
    const priv = await makeRepo(acme, 'priv', true, ['CODE', 'ISSUES', 'PULL_REQUESTS']);
    const open = await makeRepo(hidden, 'open', false);
    const diary = await makeRepo(users.alice ?? acme, 'diary', true);

    writers = await makeTeam(acme, 'writers', 'WRITE', { CODE: 'WRITE', ISSUES: 'READ', PULL_REQUESTS: 'NONE' });
    await t.db.teamRepo.create({ data: { orgId: acme.id, teamId: writers.id, repoId: priv.id } });
    await join(acme, writers, 'bob');
    await join(acme, writers, 'frank');
    const readers = await makeTeam(acme, 'readers', 'READ', Object.fromEntries(ALL_UNITS.map((u) => [u, 'READ'])), true);
    await join(acme, readers, 'carol');

    await t.db.collaboration.createMany({
      data: [
        { repoId: priv.id, userId: users.dave?.id ?? 0, mode: 'ADMIN' },
        { repoId: repos.pub?.id ?? 0, userId: users.erin?.id ?? 0, mode: 'WRITE' },
        { repoId: open.id, userId: users.dave?.id ?? 0, mode: 'READ' },
        { repoId: diary.id, userId: users.henry?.id ?? 0, mode: 'READ' },
      ],
    });
    await t.db.block.create({ data: { blockerId: acme.id, blockeeId: users.erin?.id ?? 0 } });
  });
  afterAll(() => t.close());

  const MODES: Array<[viewer: string | null, repo: string, mode: AccessMode]> = [
    [null, 'pub', 'NONE'], // limited organization: anonymous sees nothing
    [null, 'priv', 'NONE'],
    ['henry', 'pub', 'READ'],
    ['henry', 'priv', 'NONE'],
    ['gina', 'pub', 'NONE'], // restricted outsider of a limited org
    ['alice', 'pub', 'OWNER'], // Owners team
    ['alice', 'priv', 'OWNER'],
    ['root', 'priv', 'OWNER'],
    ['root', 'open', 'OWNER'],
    ['bob', 'pub', 'READ'], // his team does not include pub
    ['bob', 'priv', 'WRITE'],
    ['carol', 'priv', 'READ'], // includes_all_repositories
    ['dave', 'priv', 'ADMIN'],
    ['dave', 'open', 'READ'], // collaborator on a repo of a private org he cannot see
    ['henry', 'open', 'NONE'],
    ['frank', 'pub', 'NONE'], // restricted member: only his team's repositories
    ['frank', 'priv', 'WRITE'],
    ['henry', 'diary', 'READ'],
    ['bob', 'diary', 'NONE'],
    ['alice', 'diary', 'OWNER'],
  ];

  it.each(MODES)('%s on %s → %s', async (viewer, repo, mode) => {
    expect((await perm(viewer, repo)).mode).toBe(mode);
  });

  it('per-unit team modes, disabled units absent', async () => {
    const bob = await perm('bob', 'priv');
    expect(bob.units).toEqual({ CODE: 'WRITE', ISSUES: 'READ', PULL_REQUESTS: 'NONE' });
    expect(canWrite(bob, 'CODE')).toBe(true);
    expect(canWrite(bob, 'ISSUES')).toBe(false);
    expect(canRead(bob, 'PULL_REQUESTS')).toBe(false);
    expect(canRead(bob, 'WIKI')).toBe(false);
    expect((await perm('carol', 'priv')).units).toEqual({ CODE: 'READ', ISSUES: 'READ', PULL_REQUESTS: 'READ' });
    expect(isRepoAdmin(await perm('dave', 'priv'))).toBe(true);
    expect(isRepoAdmin(await perm('bob', 'priv'))).toBe(false);
  });

  it('a blocked collaborator reads but cannot write', async () => {
    const erin = await perm('erin', 'pub');
    expect(erin).toMatchObject({ mode: 'WRITE', blocked: true });
    expect(canRead(erin, 'CODE')).toBe(true);
    expect(canWrite(erin, 'CODE')).toBe(false);
    expect((await perm('henry', 'pub')).blocked).toBe(false);
  });

  it('a missing repository has no access', async () => {
    expect(await cxFor('root').loaders.repoPermission.load(999_999)).toEqual({ mode: 'NONE', units: {}, blocked: false });
  });

  it('one batch answers for many repositories in the same order', async () => {
    const names = ['diary', 'priv', 'pub', 'open'];
    const got = await cxFor('dave').loaders.repoPermission.loadMany(names.map((n) => repos[n]?.id ?? 0));
    expect(got.map((p) => (p instanceof Error ? p.message : p.mode))).toEqual(['NONE', 'ADMIN', 'READ', 'READ']);
  });

  it('loading 20 repositories issues as many statements as loading 2', async () => {
    const bulk: number[] = [];
    for (let i = 0; i < 20; i++) {
      const repo = await makeRepo(acme, `bulk-${i}`, i % 2 === 0);
      if (i % 3 === 0) await t.db.teamRepo.create({ data: { orgId: acme.id, teamId: writers.id, repoId: repo.id } });
      if (i % 4 === 0) await t.db.collaboration.create({ data: { repoId: repo.id, userId: users.bob?.id ?? 0, mode: 'READ' } });
      bulk.push(repo.id);
    }
    const measure = async (viewer: string, ids: number[]) => {
      const cx = cxFor(viewer);
      t.queries.length = 0;
      const perms = await cx.loaders.repoPermission.loadMany(ids);
      return { statements: t.queries.length, sql: [...t.queries], perms: perms.map((p) => (p instanceof Error ? 'ERROR' : p.mode)) };
    };
    for (const viewer of ['bob', 'henry', 'root']) {
      const small = await measure(viewer, bulk.slice(0, 2));
      const large = await measure(viewer, bulk);
      console.info(
        `[${provider}] repoPermission loader for ${viewer}: ${small.statements} statements for 2 repos, ${large.statements} for 20`,
      );
      expect(large.statements, large.sql.join('\n')).toBe(small.statements);
      // repositories + owners + units; collaborations, memberships, team users (+ teams, units, team repos), blocks.
      expect(large.statements, large.sql.join('\n')).toBeLessThanOrEqual(10);
      if (viewer === 'bob') {
        // even i: private; i % 3 == 0: his team (CODE write); i % 4 == 0: read collaborator.
        const want = bulk.map((_, i) => (i % 3 === 0 ? 'WRITE' : i % 2 === 1 || i % 4 === 0 ? 'READ' : 'NONE'));
        expect(large.perms).toEqual(want);
      }
      if (viewer === 'root') expect(new Set(large.perms)).toEqual(new Set(['OWNER']));
    }
  });
});
