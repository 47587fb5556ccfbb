import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import type { DomainEvent } from '../../../src/notify/events.ts';
import { createServiceContext } from '../../../src/services/context.ts';
import * as orgService from '../../../src/services/org/org.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepoRow, expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST user blocks (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const events: DomainEvent[] = [];
  const logins = async (viewer: string, query = '') =>
    ((await t.request('GET', `/api/v1/user/blocks${query}`, { headers: as(viewer) })).json() as { login: string }[]).map((u) => u.login);

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina']) users[n] = await t.createUser(n);
    users.hidden = await t.createUser('hidden', { visibility: 'PRIVATE' });
    users.root = await t.createUser('root', { admin: true });
    await orgService.createOrg(createServiceContext(t.app.deps, users.alice!), { name: 'some-org' });
    t.app.deps.notifier.subscribe({ name: 'test', handle: (e) => void events.push(e) });
  });
  afterAll(() => t.close());

  describe('TestBlockUser', () => {
    it('blocks (204, note kept), checks (204/404), lists, unblocks', async () => {
      expect(await logins('alice')).toEqual([]);
      const put = await t.request('PUT', '/api/v1/user/blocks/bob?note=spam', { headers: as('alice') });
      expect(put.statusCode).toBe(204);
      expect(put.body).toBe('');
      const row = await t.db.block.findUnique({ where: { blockerId_blockeeId: { blockerId: users.alice!.id, blockeeId: users.bob!.id } } });
      expect(row?.note).toBe('spam');
      expect((await t.request('GET', '/api/v1/user/blocks/bob', { headers: as('alice') })).statusCode).toBe(204);
      expectGiteaError(await t.request('GET', '/api/v1/user/blocks/carol', { headers: as('alice') }), 404);
      const list = await t.request('GET', '/api/v1/user/blocks', { headers: as('alice') });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject([{ id: users.bob!.id, login: 'bob', email: 'bob@example.com' }]);
      expect(list.headers['x-total-count']).toBe('1');
      const del = await t.request('DELETE', '/api/v1/user/blocks/bob', { headers: as('alice') });
      expect(del.statusCode).toBe(204);
      expect(await logins('alice')).toEqual([]);
      expectGiteaError(await t.request('GET', '/api/v1/user/blocks/bob', { headers: as('alice') }), 404);
    });

    it('pages the list with X-Total-Count and Link, oldest block first', async () => {
      for (const n of ['carol', 'dave', 'erin'])
        expect((await t.request('PUT', `/api/v1/user/blocks/${n}`, { headers: as('gina') })).statusCode).toBe(204);
      const res = await t.request('GET', '/api/v1/user/blocks?limit=2&page=1', { headers: as('gina') });
      expect(res.json().map((u: { login: string }) => u.login)).toEqual(['carol', 'dave']);
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.headers.link).toBe(
        linkHeader('user/blocks', { limit: '2' }, [
          ['next', 2],
          ['last', 2],
        ]),
      );
      expect(await logins('gina', '?limit=2&page=2')).toEqual(['erin']);
    });

    it('publishes user.blocked / user.unblocked after commit', async () => {
      events.length = 0;
      await t.request('PUT', '/api/v1/user/blocks/frank', { headers: as('erin') });
      await t.request('DELETE', '/api/v1/user/blocks/frank', { headers: as('erin') });
      await t.app.deps.notifier.drain();
      expect(events).toEqual([
        { type: 'user.blocked', blockerId: users.erin!.id, blockeeId: users.frank!.id, actorId: users.erin!.id },
        { type: 'user.unblocked', blockerId: users.erin!.id, blockeeId: users.frank!.id, actorId: users.erin!.id },
      ]);
    });

    it('may block a private user it knows by name (Gitea does not check visibility here)', async () => {
      expect((await t.request('PUT', '/api/v1/user/blocks/hidden', { headers: as('frank') })).statusCode).toBe(204);
    });
  });

  describe("Gitea's refusals", () => {
    it.each([
      ['yourself', 'PUT', 'carol', 'carol', 400, 'cannot block the user'],
      ['an organization', 'PUT', 'carol', 'some-org', 400, 'cannot block an organization'],
      ['unblock an organization', 'DELETE', 'carol', 'some-org', 400, 'cannot block an organization'],
      ['unblock yourself', 'DELETE', 'carol', 'carol', 400, 'cannot unblock the user'],
      ['unblock a user not blocked', 'DELETE', 'carol', 'dave', 400, 'cannot unblock the user'],
      ['an unknown user', 'PUT', 'carol', 'nobody', 404, 'user redirect does not exist [name: nobody]'],
      ['check an unknown user', 'GET', 'carol', 'nobody', 404, 'user redirect does not exist [name: nobody]'],
      ['unblock an unknown user', 'DELETE', 'carol', 'nobody', 404, 'user redirect does not exist [name: nobody]'],
    ])('%s', async (_what, method, viewer, target, status, message) => {
      expectGiteaError(await t.request(method, `/api/v1/user/blocks/${target}`, { headers: as(viewer) }), status, message);
    });

    it('an already blocked user → 400 (and nothing changes)', async () => {
      expect((await t.request('PUT', '/api/v1/user/blocks/alice?note=first', { headers: as('dave') })).statusCode).toBe(204);
      expectGiteaError(
        await t.request('PUT', '/api/v1/user/blocks/alice?note=second', { headers: as('dave') }),
        400,
        'cannot block the user',
      );
      expect((await t.db.block.findMany({ where: { blockerId: users.dave!.id } })).map((b) => b.note)).toEqual(['first']);
    });

    it('anonymous → 401 token is required on every route', async () => {
      for (const [method, path] of [
        ['GET', ''],
        ['GET', '/bob'],
        ['PUT', '/bob'],
        ['DELETE', '/bob'],
      ] as const) {
        expectGiteaError(await t.request(method, `/api/v1/user/blocks${path}`), 401, 'token is required');
      }
    });

    it('token scopes: read:user may list, not block', async () => {
      const read = tokenAuth(await t.createToken('carol', ['read:user']));
      expect((await t.request('GET', '/api/v1/user/blocks', { headers: read })).statusCode).toBe(200);
      expectGiteaError(await t.request('PUT', '/api/v1/user/blocks/erin', { headers: read }), 403, /required=\[write:user\]/);
      const write = tokenAuth(await t.createToken('carol', ['write:user']));
      expect((await t.request('PUT', '/api/v1/user/blocks/erin', { headers: write })).statusCode).toBe(204);
    });

    it('a site admin may be blocked, and re-blocking stays a 400', async () => {
      expect((await t.request('PUT', '/api/v1/user/blocks/root', { headers: as('erin') })).statusCode).toBe(204);
      expectGiteaError(await t.request('PUT', '/api/v1/user/blocks/root', { headers: as('erin') }), 400, 'cannot block the user');
    });

    it('a NUL in the note is a 422, not a database error', async () => {
      expectGiteaError(await t.request('PUT', '/api/v1/user/blocks/frank?note=a%00b', { headers: as('gina') }), 422, '[Note]: Invalid');
    });
  });

  describe('side effects (one transaction)', () => {
    let blocker: Models.User;
    let blockee: Models.User;
    let bystander: Models.User;
    let mine: Models.Repository;
    let theirs: Models.Repository;
    let third: Models.Repository;

    beforeAll(async () => {
      blocker = await t.createUser('blocker');
      blockee = await t.createUser('blockee');
      bystander = await t.createUser('bystander');
      mine = await createRepoRow(t, blocker, 'mine');
      theirs = await createRepoRow(t, blockee, 'theirs');
      third = await createRepoRow(t, bystander, 'third');
      const db = t.db;
      await db.follow.createMany({
        data: [
          { userId: blocker.id, followId: blockee.id },
          { userId: blockee.id, followId: blocker.id },
          { userId: blockee.id, followId: bystander.id },
        ],
      });
      await db.user.update({ where: { id: blocker.id }, data: { numFollowers: 1, numFollowing: 1, numStars: 1 } });
      await db.user.update({ where: { id: blockee.id }, data: { numFollowers: 1, numFollowing: 2, numStars: 2 } });
      await db.star.createMany({
        data: [
          { userId: blockee.id, repoId: mine.id },
          { userId: blocker.id, repoId: theirs.id },
          { userId: blockee.id, repoId: third.id },
        ],
      });
      await db.repository.update({ where: { id: mine.id }, data: { numStars: 1, numWatches: 1 } });
      await db.repository.update({ where: { id: theirs.id }, data: { numStars: 1, numWatches: 1 } });
      await db.watch.createMany({
        data: [
          { userId: blockee.id, repoId: mine.id },
          { userId: blocker.id, repoId: theirs.id },
          { userId: blockee.id, repoId: third.id },
        ],
      });
      await db.collaboration.createMany({
        data: [
          { userId: blockee.id, repoId: mine.id },
          { userId: blocker.id, repoId: theirs.id },
          { userId: blockee.id, repoId: third.id },
        ],
      });
      const issueMine = await db.issue.create({ data: { repoId: mine.id, index: 1, title: 'on mine' } });
      const issueThird = await db.issue.create({ data: { repoId: third.id, index: 1, title: 'on third' } });
      await db.issueAssignee.createMany({
        data: [
          { issueId: issueMine.id, assigneeId: blockee.id },
          { issueId: issueMine.id, assigneeId: blocker.id },
          { issueId: issueThird.id, assigneeId: blockee.id },
        ],
      });
      await db.repository.update({ where: { id: theirs.id }, data: { status: 'PENDING_TRANSFER' } });
      await db.repoTransfer.create({ data: { doerId: blockee.id, recipientId: blocker.id, repoId: theirs.id } });
    });

    it('removes follows, stars, watches, assignments, collaborations and transfers between them, both ways, and nothing else', async () => {
      const before = await t.request('GET', '/api/v1/user', { headers: as('blockee') });
      expect(before.json().following_count).toBe(2);
      expect((await t.request('PUT', '/api/v1/user/blocks/blockee', { headers: as('blocker') })).statusCode).toBe(204);
      const db = t.db;
      expect(
        await db.follow.findMany({
          select: { userId: true, followId: true },
          where: { OR: [{ userId: { in: [blocker.id, blockee.id] } }, { followId: { in: [blocker.id, blockee.id] } }] },
        }),
      ).toEqual([{ userId: blockee.id, followId: bystander.id }]);
      expect(await db.star.findMany({ where: { userId: { in: [blocker.id, blockee.id] } }, select: { repoId: true } })).toEqual([
        { repoId: third.id },
      ]);
      expect(await db.watch.findMany({ where: { userId: { in: [blocker.id, blockee.id] } }, select: { repoId: true } })).toEqual([
        { repoId: third.id },
      ]);
      expect(await db.collaboration.findMany({ where: { userId: { in: [blocker.id, blockee.id] } }, select: { repoId: true } })).toEqual([
        { repoId: third.id },
      ]);
      expect(
        await db.issueAssignee.findMany({ select: { assigneeId: true, issue: { select: { repoId: true } } }, orderBy: { id: 'asc' } }),
      ).toEqual([
        { assigneeId: blocker.id, issue: { repoId: mine.id } },
        { assigneeId: blockee.id, issue: { repoId: third.id } },
      ]);
      expect(await db.repoTransfer.count({ where: { repoId: theirs.id } })).toBe(0);
      const users = await db.user.findMany({ where: { id: { in: [blocker.id, blockee.id] } }, orderBy: { id: 'asc' } });
      expect(users.map((u) => [u.numFollowers, u.numFollowing, u.numStars])).toEqual([
        [0, 0, 0],
        [0, 1, 1],
      ]);
      const repos = await db.repository.findMany({ where: { id: { in: [mine.id, theirs.id] } }, orderBy: { id: 'asc' } });
      expect(repos.map((r) => [r.numStars, r.numWatches, r.status])).toEqual([
        [0, 0, 'READY'],
        [0, 0, 'READY'],
      ]);
    });

    it('the blocked user gets a blocked permission on the blocker’s repositories', async () => {
      const cx = createServiceContext(t.app.deps, blockee);
      expect((await cx.loaders.repoPermission.load(mine.id)).blocked).toBe(true);
      expect((await cx.loaders.repoPermission.load(third.id)).blocked).toBe(false);
    });
  });
});
