import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import type { AccessMode } from '../../src/permissions/accessMode.ts';
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from '../../src/permissions/repoPermission.ts';
import { permissionFromFacts, repoPermissionLoader, type ReachFacts } from '../../src/loaders/permissionLoaders.ts';
import { ALL_UNITS, unitKey, type UnitType } from '../../src/permissions/units.ts';
import { findRepoWithFactsById, requireRepo } from '../../src/services/access/repoAccess.ts';
import { createServiceContext, type ServiceContext } from '../../src/services/context.ts';
import * as orgService from '../../src/services/org/org.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, addTeamMember, addTeamRepo, createRepo, createTeam, setUnits } from '../helpers/fixtures.ts';

const PASSWORD_AUTH = { method: 'password', scope: null, tokenId: null, sudoerId: null } as const;

/**
 * The batched loader (src/loaders/permissionLoaders.ts) on a real database: facts made through the services,
 * answers checked against the access model, and a statement count that does not grow with the number of repositories.
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

  function user(name: string): Models.User {
    const found = users[name];
    if (!found) throw new Error(`no user ${name}`);
    return found;
  }

  /** A repository created by alice (hers, or one of her organizations'), with only `units` enabled (Gitea's defaults otherwise). */
  async function makeRepo(owner: Models.User, name: string, isPrivate: boolean, units?: readonly UnitType[]): Promise<Models.Repository> {
    let repo = await createRepo(t, user('alice'), name, { private: isPrivate, ...(owner.type === 'ORGANIZATION' ? { org: owner } : {}) });
    if (units) repo = await setUnits(t, repo, units);
    repos[name] = repo;
    return repo;
  }

  /** A team of `org` (created by alice, its owner) with per-unit modes (Gitea's units_map). */
  async function makeTeam(
    org: Models.User,
    name: string,
    units: Partial<Record<UnitType, AccessMode>>,
    includesAll = false,
  ): Promise<Models.Team> {
    const unitsMap = Object.fromEntries(Object.entries(units).map(([type, mode]) => [unitKey(type as UnitType), mode.toLowerCase()]));
    return createTeam(t, user('alice'), org, { name, permission: 'read', unitsMap, includesAllRepositories: includesAll });
  }

  async function join(team: Models.Team, name: string): Promise<void> {
    await addTeamMember(t, user('alice'), team, user(name));
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

    writers = await makeTeam(acme, 'writers', { CODE: 'WRITE', ISSUES: 'READ', PULL_REQUESTS: 'NONE' });
    await addTeamRepo(t, user('alice'), writers, priv);
    await join(writers, 'bob');
    await join(writers, 'frank');
    const readers = await makeTeam(acme, 'readers', Object.fromEntries(ALL_UNITS.map((u) => [u, 'READ'])), true);
    await join(readers, 'carol');

    await addCollaborator(t, priv, user('dave'), 'admin');
    await addCollaborator(t, repos.pub ?? priv, user('erin'), 'write');
    await addCollaborator(t, open, user('dave'), 'read');
    await addCollaborator(t, diary, user('henry'), 'read');
    // A collaborator whom the owner blocked afterwards: the block service removes the collaboration (as Gitea),
    // so this row is written directly to check how the model treats a block that coexists with a grant.
    await t.db.block.create({ data: { blockerId: acme.id, blockeeId: user('erin').id } });
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

  it('a permission decided by the repository facts alone is the one the loader reads rows for', async () => {
    const reaches: Array<[label: string, reach: ReachFacts]> = [
      ['password', {}],
      ['public-only token', { publicOnly: true }],
      ['the operator', { system: true }],
      ['a task of pub', { actionsTask: { repoId: repos.pub?.id ?? 0, isForkPullRequest: false } }],
    ];
    let decided = 0;
    for (const viewerName of [null, ...Object.keys(users)]) {
      const viewer = viewerName ? user(viewerName) : null;
      for (const [label, reach] of reaches) {
        for (const [name, repo] of Object.entries(repos)) {
          const found = await findRepoWithFactsById(t.db, repo.id);
          if (!found) throw new Error(`no facts for ${name}`);
          const fromFacts = permissionFromFacts(viewer, reach, found.facts);
          const owner = viewer !== null && repo.ownerId === viewer.id;
          const needsRows = viewer !== null && !viewer.isAdmin && !reach.system && !reach.actionsTask && !owner;
          const what = `${viewerName ?? 'anonymous'} (${label}) on ${name}`;
          expect(fromFacts === null, what).toBe(needsRows);
          if (fromFacts) {
            decided++;
            expect(fromFacts, what).toEqual(await repoPermissionLoader(t.db, viewer, reach).load(repo.id));
          }
        }
      }
    }
    expect(decided).toBeGreaterThan(20);
    // A deploy key's grant is a row: never decided from the facts.
    const found = await findRepoWithFactsById(t.db, repos.pub?.id ?? 0);
    expect(found && permissionFromFacts(null, { deployKeyId: 1 }, found.facts)).toBeNull();
  });

  it("a request's shortcut is kept as its loader's answer, and viewers with rows still get them", async () => {
    const diary = await findRepoWithFactsById(t.db, repos.diary?.id ?? 0);
    const priv = await findRepoWithFactsById(t.db, repos.priv?.id ?? 0);
    if (!diary || !priv) throw new Error('no facts for diary or priv');
    const cx = cxFor('alice');
    const decided = cx.loaders.permissionFromFacts(diary.facts);
    expect(decided?.mode).toBe('OWNER');
    expect(await cx.loaders.repoPermission.load(diary.repo.id)).toBe(decided);
    // alice's OWNER on acme's priv comes from her Owners team: rows, as bob's WRITE from his; requireRepo reads them.
    expect(cx.loaders.permissionFromFacts(priv.facts)).toBeNull();
    expect(cxFor('bob').loaders.permissionFromFacts(priv.facts)).toBeNull();
    const access = await requireRepo(cxFor('bob'), 'acme', 'priv');
    expect(access.perm.mode).toBe('WRITE');
    await expect(requireRepo(cxFor('henry'), 'acme', 'priv')).rejects.toThrow('repository does not exist');
    await expect(requireRepo(cxFor(null), 'acme', 'pub')).rejects.toThrow('repository does not exist');
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
      if (i % 3 === 0) await addTeamRepo(t, user('alice'), writers, repo);
      if (i % 4 === 0) await addCollaborator(t, repo, user('bob'), 'read');
      bulk.push(repo.id);
    }
    const measure = async (viewer: string, ids: number[]) => {
      const cx = cxFor(viewer);
      await t.app.deps.notifier.drain(); // the fixtures' events are handled in the background
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
