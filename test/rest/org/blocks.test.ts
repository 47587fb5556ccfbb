import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { createServiceContext } from '../../../src/services/context.ts';
import * as orgService from '../../../src/services/org/org.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepoRow, expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST organization blocks (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  let org: Models.User;

  const logins = async (orgName: string, viewer: string, query = '') => {
    const res = await t.request('GET', `/api/v1/orgs/${orgName}/blocks${query}`, { headers: as(viewer) });
    expect(res.statusCode).toBe(200);
    return (res.json() as { login: string }[]).map((u) => u.login);
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'member', 'outsider', 'user10', 'user11', 'user12', 'user13']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    org = await orgService.createOrg(createServiceContext(t.app.deps, users.owner!), { name: 'org3' });
    await t.db.orgUser.create({ data: { orgId: org.id, userId: users.member!.id } });
    await orgService.createOrg(createServiceContext(t.app.deps, users.owner!), { name: 'secret-org', visibility: 'PRIVATE' });
  });
  afterAll(() => t.close());

  describe('TestBlockUser/Organization', () => {
    it('list needs a token (401); the owner blocks user10 (204), lists it, checks it, unblocks it', async () => {
      expectGiteaError(await t.request('GET', '/api/v1/orgs/org3/blocks'), 401, 'token is required');
      expect((await t.request('PUT', '/api/v1/orgs/org3/blocks/user10?note=troll', { headers: as('owner') })).statusCode).toBe(204);
      const list = await t.request('GET', '/api/v1/orgs/org3/blocks', { headers: as('owner') });
      expect(list.json()).toHaveLength(1);
      expect(list.json()[0].login).toBe('user10');
      expect(list.headers['x-total-count']).toBe('1');
      expect((await t.db.block.findFirst({ where: { blockerId: org.id } }))?.note).toBe('troll');
      expect((await t.request('GET', '/api/v1/orgs/org3/blocks/user10', { headers: as('owner') })).statusCode).toBe(204);
      expectGiteaError(await t.request('GET', '/api/v1/orgs/org3/blocks/user11', { headers: as('owner') }), 404);
      expect((await t.request('DELETE', '/api/v1/orgs/org3/blocks/user10', { headers: as('owner') })).statusCode).toBe(204);
      expect(await logins('org3', 'owner')).toEqual([]);
    });

    it('pages with X-Total-Count and Link', async () => {
      for (const n of ['user11', 'user12', 'user13']) await t.request('PUT', `/api/v1/orgs/org3/blocks/${n}`, { headers: as('owner') });
      const res = await t.request('GET', '/api/v1/orgs/org3/blocks?limit=2&page=2', { headers: as('owner') });
      expect(res.json().map((u: { login: string }) => u.login)).toEqual(['user13']);
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.headers.link).toBe(
        linkHeader('orgs/org3/blocks', { limit: '2' }, [
          ['first', 1],
          ['prev', 1],
        ]),
      );
      for (const n of ['user11', 'user12', 'user13']) await t.request('DELETE', `/api/v1/orgs/org3/blocks/${n}`, { headers: as('owner') });
    });
  });

  describe('who may act for the organization', () => {
    const routes = [
      ['GET', ''],
      ['GET', '/user10'],
      ['PUT', '/user10'],
      ['DELETE', '/user10'],
    ] as const;

    it.each(routes)('%s %s: anonymous 401, member and outsider 403 (Must be an organization owner)', async (method, path) => {
      expectGiteaError(await t.request(method, `/api/v1/orgs/org3/blocks${path}`), 401, 'token is required');
      for (const viewer of ['member', 'outsider']) {
        expectGiteaError(
          await t.request(method, `/api/v1/orgs/org3/blocks${path}`, { headers: as(viewer) }),
          403,
          'Must be an organization owner',
        );
      }
    });

    it.each(routes)('%s %s: outsider of a private org or unknown org → 404', async (method, path) => {
      expectGiteaError(await t.request(method, `/api/v1/orgs/secret-org/blocks${path}`, { headers: as('outsider') }), 404);
      expectGiteaError(await t.request(method, `/api/v1/orgs/no-org/blocks${path}`, { headers: as('owner') }), 404);
    });

    it('site admins may block and unblock for any organization', async () => {
      expect((await t.request('PUT', '/api/v1/orgs/secret-org/blocks/user12', { headers: as('root') })).statusCode).toBe(204);
      expect(await logins('secret-org', 'root')).toEqual(['user12']);
      expect(await logins('secret-org', 'owner')).toEqual(['user12']);
      expect((await t.request('DELETE', '/api/v1/orgs/secret-org/blocks/user12', { headers: as('root') })).statusCode).toBe(204);
    });

    it('token scopes: the organization category applies (read:organization cannot block)', async () => {
      const read = tokenAuth(await t.createToken('owner', ['read:organization']));
      expect((await t.request('GET', '/api/v1/orgs/org3/blocks', { headers: read })).statusCode).toBe(200);
      expectGiteaError(
        await t.request('PUT', '/api/v1/orgs/org3/blocks/user10', { headers: read }),
        403,
        /required=\[write:organization\]/,
      );
      const userOnly = tokenAuth(await t.createToken('owner', ['write:user']));
      expectGiteaError(await t.request('GET', '/api/v1/orgs/org3/blocks', { headers: userOnly }), 403, /required=\[read:organization\]/);
    });
  });

  describe("Gitea's refusals (400)", () => {
    it.each([
      ['a member', 'member', 'cannot block the user'],
      ['an owner (a member too)', 'owner', 'cannot block the user'],
      ['the organization itself', 'org3', 'cannot block an organization'],
      ['another organization', 'secret-org', 'cannot block an organization'],
    ])('blocking %s', async (_what, target, message) => {
      expectGiteaError(await t.request('PUT', `/api/v1/orgs/org3/blocks/${target}`, { headers: as('owner') }), 400, message);
    });

    it('blocking twice, unblocking someone not blocked; unknown users 404', async () => {
      expect((await t.request('PUT', '/api/v1/orgs/org3/blocks/user11', { headers: as('owner') })).statusCode).toBe(204);
      expectGiteaError(await t.request('PUT', '/api/v1/orgs/org3/blocks/user11', { headers: as('owner') }), 400, 'cannot block the user');
      expect((await t.request('DELETE', '/api/v1/orgs/org3/blocks/user11', { headers: as('owner') })).statusCode).toBe(204);
      expectGiteaError(
        await t.request('DELETE', '/api/v1/orgs/org3/blocks/user11', { headers: as('owner') }),
        400,
        'cannot unblock the user',
      );
      expectGiteaError(
        await t.request('PUT', '/api/v1/orgs/org3/blocks/ghost', { headers: as('owner') }),
        404,
        'user redirect does not exist [name: ghost]',
      );
    });
  });

  describe('side effects', () => {
    it("removes the blockee's stars, watches, assignments, collaborations and transfers on the org's repositories", async () => {
      const target = await t.createUser('pest');
      const orgRepo = await createRepoRow(t, org, 'shared');
      const pestRepo = await createRepoRow(t, target, 'gift');
      const db = t.db;
      await db.star.create({ data: { userId: target.id, repoId: orgRepo.id } });
      await db.watch.create({ data: { userId: target.id, repoId: orgRepo.id } });
      await db.repository.update({ where: { id: orgRepo.id }, data: { numStars: 1, numWatches: 1 } });
      await db.collaboration.create({ data: { userId: target.id, repoId: orgRepo.id, mode: 'WRITE' } });
      const issue = await db.issue.create({ data: { repoId: orgRepo.id, index: 1, title: 't' } });
      await db.issueAssignee.create({ data: { issueId: issue.id, assigneeId: target.id } });
      await db.follow.create({ data: { userId: target.id, followId: org.id } });
      await db.repoTransfer.create({ data: { doerId: target.id, recipientId: org.id, repoId: pestRepo.id } });

      expect((await t.request('PUT', '/api/v1/orgs/org3/blocks/pest', { headers: as('owner') })).statusCode).toBe(204);
      expect(await db.star.count({ where: { userId: target.id } })).toBe(0);
      expect(await db.watch.count({ where: { userId: target.id } })).toBe(0);
      expect(await db.collaboration.count({ where: { userId: target.id } })).toBe(0);
      expect(await db.issueAssignee.count({ where: { assigneeId: target.id } })).toBe(0);
      expect(await db.follow.count({ where: { userId: target.id } })).toBe(0);
      expect(await db.repoTransfer.count({ where: { repoId: pestRepo.id } })).toBe(0);
      const repo = await db.repository.findUniqueOrThrow({ where: { id: orgRepo.id } });
      expect([repo.numStars, repo.numWatches]).toEqual([0, 0]);
      const perm = await createServiceContext(t.app.deps, target).loaders.repoPermission.load(orgRepo.id);
      expect(perm.blocked).toBe(true);
    });
  });
});
