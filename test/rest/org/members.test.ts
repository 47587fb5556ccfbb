import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs, logins } from '../../helpers/org.ts';

describe.each(PROVIDERS)('organization members (%s)', (provider) => {
  let t: TestApp;
  const u: Record<string, Models.User> = {};
  let acme: Models.User;
  const req = (method: string, path: string, headers: Record<string, string> = {}) => t.request(method, `/api/v1/${path}`, { headers });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const name of ['boss', 'pubm', 'privm', 'out', 'solo']) u[name] = await t.createUser(name);
    u.adm = await t.createUser('adm', { admin: true });
    acme = await createOrgAs(t, u.boss as Models.User, 'acme');
    await addMember(t, acme, u.pubm as Models.User, { team: 'devs', isPublic: true });
    await addMember(t, acme, u.privm as Models.User, { team: 'devs' });
    await addMember(t, acme, u.privm as Models.User, { team: 'ops' });
    const secret = await createOrgAs(t, u.boss as Models.User, 'secret', 'PRIVATE');
    await addMember(t, secret, u.pubm as Models.User, { isPublic: true });
    await createOrgAs(t, u.solo as Models.User, 'soloorg');
  });
  afterAll(() => t.close());

  describe('GET /orgs/{org}/members', () => {
    it('anonymous → 401', async () => {
      expectGiteaError(await req('GET', 'orgs/acme/members'), 401, 'token is required');
    });

    it.each([
      ['a member', 'privm', ['boss', 'pubm', 'privm']],
      ['a site admin', 'adm', ['boss', 'pubm', 'privm']],
      ['an outsider (public members only)', 'out', ['pubm']],
    ])('as %s', async (_label, viewer, want) => {
      const res = await req('GET', 'orgs/acme/members', basic(viewer));
      expect(res.statusCode).toBe(200);
      expect(logins(res.json())).toEqual(want);
      expect(res.headers['x-total-count']).toBe(String(want.length));
    });

    it('pages with X-Total-Count of the whole list', async () => {
      const res = await req('GET', 'orgs/acme/members?limit=1&page=2', basic('boss'));
      expect(logins(res.json())).toEqual(['pubm']);
      expect(res.headers['x-total-count']).toBe('3');
    });

    it('members of another organization are not members here; a private org is 404 to outsiders', async () => {
      expect(logins((await req('GET', 'orgs/soloorg/members', basic('boss'))).json())).toEqual([]);
      expectGiteaError(await req('GET', 'orgs/secret/members', basic('out')), 404);
      expect(logins((await req('GET', 'orgs/secret/members', basic('pubm'))).json())).toEqual(['boss', 'pubm']);
      expectGiteaError(await req('GET', 'orgs/nope/members', basic('boss')), 404);
    });
  });

  describe('GET /orgs/{org}/members/{username}', () => {
    it.each([
      ['member', 'pubm', 'privm', 204],
      ['member', 'pubm', 'out', 404],
      ['member', 'privm', 'privm', 204],
      ['site admin', 'adm', 'privm', 204],
      ['site admin', 'adm', 'out', 404],
      ['non-member asking about themselves', 'out', 'out', 404],
      ['member asking about an unknown user', 'pubm', 'ghost404', 404],
    ])('%s: %s asks about %s → %i', async (_label, viewer, who, status) => {
      const res = await req('GET', `orgs/acme/members/${who}`, basic(viewer));
      expect(res.statusCode).toBe(status);
      if (status === 404) expectGiteaError(res, 404);
      else expect(res.body).toBe('');
    });

    it('an outsider is redirected (303) to the public-membership check', async () => {
      for (const who of ['privm', 'pubm', 'solo']) {
        const res = await req('GET', `orgs/acme/members/${who}`, basic('out'));
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe(`/api/v1/orgs/acme/public_members/${who}`);
      }
      expect((await req('GET', 'orgs/acme/public_members/pubm')).statusCode).toBe(204);
      expectGiteaError(await req('GET', 'orgs/acme/public_members/privm'), 404);
    });

    it('anonymous → 401; an unknown user → 404 even for outsiders', async () => {
      expectGiteaError(await req('GET', 'orgs/acme/members/pubm'), 401);
      expectGiteaError(await req('GET', 'orgs/acme/members/ghost404', basic('out')), 404);
    });
  });

  describe('public members', () => {
    it('GET /orgs/{org}/public_members: anyone who can see the org, public members only', async () => {
      for (const headers of [{}, basic('out'), basic('boss')]) {
        const res = await req('GET', 'orgs/acme/public_members', headers);
        expect(res.statusCode).toBe(200);
        expect(logins(res.json())).toEqual(['pubm']);
        expect(res.headers['x-total-count']).toBe('1');
      }
      expectGiteaError(await req('GET', 'orgs/secret/public_members'), 404);
    });

    it('a member publicizes and conceals their own membership', async () => {
      expect((await req('PUT', 'orgs/acme/public_members/privm', basic('privm'))).statusCode).toBe(204);
      expect((await req('GET', 'orgs/acme/public_members/privm')).statusCode).toBe(204);
      expect(logins((await req('GET', 'orgs/acme/members', basic('out'))).json())).toEqual(['pubm', 'privm']);
      expect((await req('DELETE', 'orgs/acme/public_members/privm', basic('privm'))).statusCode).toBe(204);
      expectGiteaError(await req('GET', 'orgs/acme/public_members/privm'), 404);
      const row = await t.db.orgUser.findUniqueOrThrow({ where: { orgId_userId: { orgId: acme.id, userId: u.privm?.id ?? 0 } } });
      expect(row.isPublic).toBe(false);
    });

    it('nobody publicizes or conceals someone else', async () => {
      expectGiteaError(await req('PUT', 'orgs/acme/public_members/pubm', basic('privm')), 403, 'Cannot publicize another member');
      expectGiteaError(await req('DELETE', 'orgs/acme/public_members/pubm', basic('boss')), 403, 'Cannot conceal another member');
      expectGiteaError(await req('PUT', 'orgs/acme/public_members/privm', basic('adm')), 403, 'Cannot publicize another member');
      expect((await req('GET', 'orgs/acme/public_members/pubm')).statusCode).toBe(204);
    });

    it('outsiders get 403, anonymous 401', async () => {
      expectGiteaError(await req('PUT', 'orgs/acme/public_members/out', basic('out')), 403, 'Must be an organization member');
      expectGiteaError(await req('PUT', 'orgs/acme/public_members/pubm'), 401);
    });
  });

  describe('DELETE /orgs/{org}/members/{username}', () => {
    it('a non-owner member → 403; an outsider → 403', async () => {
      expectGiteaError(await req('DELETE', 'orgs/acme/members/privm', basic('pubm')), 403, 'Must be an organization owner');
      expectGiteaError(await req('DELETE', 'orgs/acme/members/privm', basic('out')), 403, 'Must be an organization owner');
      expectGiteaError(await req('DELETE', 'orgs/acme/members/privm'), 401);
    });

    it('the owner removes a member from the org and every team; counters follow', async () => {
      const teams = await t.db.team.findMany({ where: { orgId: acme.id }, orderBy: { id: 'asc' } });
      expect(teams.map((x) => [x.name, x.numMembers])).toEqual([
        ['Owners', 1],
        ['devs', 2],
        ['ops', 1],
      ]);
      expect((await t.db.user.findUniqueOrThrow({ where: { id: acme.id } })).numMembers).toBe(3);

      expect((await req('DELETE', 'orgs/acme/members/privm', basic('boss'))).statusCode).toBe(204);
      expect(await t.db.teamUser.count({ where: { orgId: acme.id, userId: u.privm?.id ?? 0 } })).toBe(0);
      const after = await t.db.team.findMany({ where: { orgId: acme.id }, orderBy: { id: 'asc' } });
      expect(after.map((x) => [x.name, x.numMembers])).toEqual([
        ['Owners', 1],
        ['devs', 1],
        ['ops', 0],
      ]);
      expect((await t.db.user.findUniqueOrThrow({ where: { id: acme.id } })).numMembers).toBe(2);
      expectGiteaError(await req('GET', 'orgs/acme/members/privm', basic('boss')), 404);
      expect(logins((await req('GET', 'orgs/acme/members', basic('boss'))).json())).toEqual(['boss', 'pubm']);
    });

    it('removing a non-member is a no-op 204; an unknown user 404', async () => {
      expect((await req('DELETE', 'orgs/acme/members/out', basic('boss'))).statusCode).toBe(204);
      expectGiteaError(await req('DELETE', 'orgs/acme/members/ghost404', basic('boss')), 404);
      expect((await t.db.user.findUniqueOrThrow({ where: { id: acme.id } })).numMembers).toBe(2);
    });

    it('the last owner cannot be removed (422); with a second owner they can', async () => {
      expectGiteaError(await req('DELETE', 'orgs/acme/members/boss', basic('boss')), 422, /last member of owner team/);
      expectGiteaError(await req('DELETE', 'orgs/acme/members/boss', basic('adm')), 422);
      expect((await req('GET', 'orgs/acme/members/boss', basic('pubm'))).statusCode).toBe(204);

      await addMember(t, acme, u.pubm as Models.User, { team: 'Owners' });
      expect((await req('DELETE', 'orgs/acme/members/boss', basic('pubm'))).statusCode).toBe(204);
      expect(logins((await req('GET', 'orgs/acme/members', basic('pubm'))).json())).toEqual(['pubm']);
      // Now pubm is the last owner, even for a site admin.
      expectGiteaError(await req('DELETE', 'orgs/acme/members/pubm', basic('adm')), 422);
    });
  });
});
