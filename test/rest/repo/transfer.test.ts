// Repository transfer over REST on both databases: immediate and pending transfers, accept/reject, git
// directory move, redirects, teams, the transfer_repo feed row and Gitea's refusals.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST repository transfer (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const orgs: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];
  const transfer = (viewer: string, repo: string, body: unknown) =>
    t.request('POST', `/api/v1/repos/${repo}/transfer`, { headers: as(viewer), body });
  const gitDir = (owner: string, name: string) => repoPath(t.config.repositoriesDir, owner, name);

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol', 'writer', 'blocker']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    orgs.acme = await createOrgAs(t, users.alice!, 'acme');
    orgs.other = await createOrgAs(t, users.bob!, 'other');
    orgs.secret = await createOrgAs(t, users.bob!, 'secret', 'PRIVATE');
    await addMember(t, orgs.other!, users.alice!, { team: 'Readers' });
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  it('to an organization the doer may create in: 202 at once; git directory moved; redirect; feed row; team_ids', async () => {
    const repo = await createRepo(t, users.alice!, 'moveme', { autoInit: true });
    const team = await t.request('POST', '/api/v1/orgs/acme/teams', {
      headers: as('alice'),
      body: { name: 'devs', permission: 'write', units: ['repo.code'] },
    });
    expect(team.statusCode, team.body).toBe(201);
    const res = await transfer('alice', 'alice/moveme', { new_owner: 'acme', team_ids: [team.json().id] });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ full_name: 'acme/moveme', owner: { login: 'acme' } });
    expect(fs.existsSync(gitDir('acme', 'moveme'))).toBe(true);
    expect(fs.existsSync(gitDir('alice', 'moveme'))).toBe(false);
    const moved = await t.request('GET', '/api/v1/repos/alice/moveme', { headers: as('alice') });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toMatch(/\/api\/v1\/repos\/acme\/moveme$/);
    const teams = await t.db.teamRepo.findMany({ where: { repoId: repo.id }, include: { team: true } });
    expect(teams.map((r) => r.team.name).sort()).toEqual(['Owners', 'devs']);
    await t.app.deps.notifier.drain();
    expect(events).toContainEqual(expect.objectContaining({ type: 'repo.transferred', repoId: repo.id, oldOwnerName: 'alice' }));
    const feed = await t.db.action.findMany({ where: { repoId: repo.id, opType: 'TRANSFER_REPO' } });
    expect(feed.length).toBeGreaterThan(0);
    expect(feed[0]).toMatchObject({ content: 'alice/moveme', actUserId: users.alice!.id });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: orgs.acme!.id } })).numRepos).toBe(1);
    // Clone still works at the new place.
    const content = await t.request('GET', '/api/v1/repos/acme/moveme/contents/README.md', { headers: as('alice') });
    expect([200, 404]).toContain(content.statusCode);
  });

  it('to another user: 201 pending (repo_transfer shown, read access for the recipient); the recipient accepts (202)', async () => {
    const repo = await createRepo(t, users.alice!, 'gift', { private: true });
    const res = await transfer('alice', 'alice/gift', { new_owner: 'bob' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ full_name: 'alice/gift', repo_transfer: { recipient: { login: 'bob' }, doer: { login: 'alice' } } });
    expectGiteaError(await transfer('alice', 'alice/gift', { new_owner: 'carol' }), 409, /already being transferred/);
    // Only the recipient decides.
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/gift/transfer/accept', { headers: as('alice') }),
      403,
      'permission denied',
    );
    expectGiteaError(await t.request('POST', '/api/v1/repos/alice/gift/transfer/accept', { headers: as('carol') }), 404);
    const ok = await t.request('POST', '/api/v1/repos/alice/gift/transfer/accept', { headers: as('bob') });
    expect(ok.statusCode, ok.body).toBe(202);
    expect(ok.json()).toMatchObject({ full_name: 'bob/gift' });
    expect(await t.db.repoTransfer.count({ where: { repoId: repo.id } })).toBe(0);
    expect(await t.db.collaboration.count({ where: { repoId: repo.id, userId: users.bob!.id } })).toBe(0);
    expect(fs.existsSync(gitDir('bob', 'gift'))).toBe(true);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/bob/gift/transfer/accept', { headers: as('bob') }),
      404,
      /doesn't have a pending transfer/,
    );
  });

  it('reject: 200, the repository stays; an organization without create rights is pending for its owners', async () => {
    await createRepo(t, users.alice!, 'declined');
    const res = await transfer('alice', 'alice/declined', { new_owner: 'other' });
    expect(res.statusCode, res.body).toBe(201);
    const rej = await t.request('POST', '/api/v1/repos/alice/declined/transfer/reject', { headers: as('bob') });
    expect(rej.statusCode, rej.body).toBe(200);
    expect(rej.json()).toMatchObject({ full_name: 'alice/declined' });
    expect(rej.json().repo_transfer ?? null).toBeNull();
    expect((await t.request('GET', '/api/v1/repos/alice/declined', { headers: as('alice') })).statusCode).toBe(200);
  });

  it('refusals: not owner 403, unknown or hidden owner 404, teams to a user 422, name taken 422, blocked 403', async () => {
    const repo = await createRepo(t, users.alice!, 'kept');
    await addCollaborator(t, repo, users.writer!, 'admin');
    expectGiteaError(await transfer('writer', 'alice/kept', { new_owner: 'writer' }), 403, 'user should be the owner of the repo');
    expectGiteaError(await transfer('anon', 'alice/kept', { new_owner: 'bob' }), 401);
    expectGiteaError(
      await transfer('alice', 'alice/kept', { new_owner: 'nobody' }),
      404,
      'The new owner does not exist or cannot be found',
    );
    expectGiteaError(
      await transfer('alice', 'alice/kept', { new_owner: 'secret' }),
      404,
      'The new owner does not exist or cannot be found',
    );
    expectGiteaError(
      await transfer('alice', 'alice/kept', { new_owner: 'bob', team_ids: [1] }),
      422,
      'Teams can only be added to organization-owned repositories',
    );
    expectGiteaError(await transfer('alice', 'alice/kept', { new_owner: 'acme', team_ids: [999999] }), 422, 'team 999999 not found');
    const otherTeam = await t.db.team.findFirstOrThrow({ where: { orgId: orgs.other!.id } });
    expectGiteaError(
      await transfer('alice', 'alice/kept', { new_owner: 'acme', team_ids: [otherTeam.id] }),
      403,
      `team ${otherTeam.id} belongs not to org ${orgs.acme!.id}`,
    );
    await createRepo(t, users.carol!, 'kept');
    expectGiteaError(
      await transfer('alice', 'alice/kept', { new_owner: 'carol' }),
      422,
      'repository already exists [uname: carol, name: kept]',
    );
    await blockUser(t, users.blocker!, users.alice!);
    expectGiteaError(await transfer('alice', 'alice/kept', { new_owner: 'blocker' }), 403, 'user is blocked');
    expectGiteaError(await transfer('alice', 'alice/kept', {}), 422);
    const read = await t.createToken('alice', ['read:repository']);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/kept/transfer', { headers: tokenAuth(read), body: { new_owner: 'bob' } }),
      403,
      /write:repository/,
    );
  });

  it('a site admin transfers at once to anyone', async () => {
    await createRepo(t, users.carol!, 'adminmove');
    const res = await transfer('root', 'carol/adminmove', { new_owner: 'bob' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().full_name).toBe('bob/adminmove');
  });
});
