import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { gql, mutationError } from '../../helpers/graphql.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

/** Follows (Gitea's /user/following, /users/{u}/followers…, GraphQL followers/following/followUser) and the heatmap. */
describe.each(PROVIDERS)('follows and heatmap (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const call = (method: string, url: string, viewer: string) => t.request(method, `/api/v1${url}`, { headers: as(viewer) });
  const logins = async (url: string, viewer: string) => {
    const res = await call('GET', url, viewer);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { login: string }[]).map((u) => u.login);
  };
  const counts = async (login: string) => {
    const u = (await call('GET', `/users/${login}`, 'root')).json() as { followers_count: number; following_count: number };
    return [u.followers_count, u.following_count];
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol', 'dave']) users[n] = await t.createUser(n);
    users.hidden = await t.createUser('hidden', { visibility: 'PRIVATE' });
    users.root = await t.createUser('root', { admin: true });
  });
  afterAll(() => t.close());

  it('follows and unfollows (204), checks (204/404), lists with X-Total-Count, keeps the counters', async () => {
    for (const n of ['bob', 'carol']) expect((await call('PUT', `/user/following/${n}`, 'alice')).statusCode).toBe(204);
    expect((await call('PUT', '/user/following/carol', 'bob')).statusCode).toBe(204);
    // Again, and oneself: no-ops, still 204.
    expect((await call('PUT', '/user/following/bob', 'alice')).statusCode).toBe(204);
    expect((await call('PUT', '/user/following/alice', 'alice')).statusCode).toBe(204);

    expect(await logins('/user/following', 'alice')).toEqual(['carol', 'bob']);
    expect(await logins('/users/carol/followers', 'anon')).toEqual(['bob', 'alice']);
    const paged = await call('GET', '/users/carol/followers?limit=1&page=2', 'dave');
    expect(paged.json()).toMatchObject([{ login: 'alice' }]);
    expect(paged.headers['x-total-count']).toBe('2');
    expect(await logins('/user/followers', 'carol')).toEqual(['bob', 'alice']);
    expect(await logins('/users/alice/following', 'anon')).toEqual(['carol', 'bob']);
    expect(await counts('alice')).toEqual([0, 2]);
    expect(await counts('carol')).toEqual([2, 0]);

    expect((await call('GET', '/user/following/bob', 'alice')).statusCode).toBe(204);
    expectGiteaError(await call('GET', '/user/following/dave', 'alice'), 404);
    expect((await call('GET', '/users/alice/following/carol', 'anon')).statusCode).toBe(204);
    expectGiteaError(await call('GET', '/users/carol/following/alice', 'anon'), 404);
    expectGiteaError(await call('GET', '/users/alice/following/nobody', 'anon'), 404);

    expect((await call('DELETE', '/user/following/bob', 'alice')).statusCode).toBe(204);
    expect((await call('DELETE', '/user/following/bob', 'alice')).statusCode).toBe(204);
    expect(await logins('/user/following', 'alice')).toEqual(['carol']);
    expect(await counts('bob')).toEqual([0, 1]);

    expectGiteaError(await call('PUT', '/user/following/bob', 'anon'), 401);
    expectGiteaError(await call('GET', '/user/followers', 'anon'), 401);
    expectGiteaError(await call('PUT', '/user/following/nobody', 'alice'), 404);
  });

  it('hides private accounts: 404 for them, absent from lists, as the user read policy says', async () => {
    expect((await call('PUT', '/user/following/dave', 'hidden')).statusCode).toBe(204);
    expect(await logins('/users/dave/followers', 'alice')).toEqual([]);
    expect(await logins('/users/dave/followers', 'root')).toEqual(['hidden']);
    expect(await logins('/users/dave/followers', 'hidden')).toEqual(['hidden']);
    expectGiteaError(await call('GET', '/users/hidden/following', 'alice'), 404);
    expectGiteaError(await call('PUT', '/user/following/hidden', 'alice'), 404);
    // The counter counts every follower (Gitea's num_followers), the list only what the viewer may see.
    expect(await counts('dave')).toEqual([1, 0]);
  });

  it('a block either way refuses a follow (403 "user is blocked"), and blocking removes follows', async () => {
    expect((await call('PUT', '/user/following/dave', 'bob')).statusCode).toBe(204);
    expect((await call('PUT', '/user/blocks/bob', 'dave')).statusCode).toBe(204);
    expect(await logins('/users/dave/followers', 'root')).toEqual(['hidden']);
    expectGiteaError(await call('PUT', '/user/following/dave', 'bob'), 403, 'user is blocked');
    expectGiteaError(await call('PUT', '/user/following/bob', 'dave'), 403, 'user is blocked');
    expect(await counts('bob')).toEqual([0, 1]);
  });

  it('GraphQL: followers/following connections, viewer flags, followUser/unfollowUser', async () => {
    const query = `query($login: String!) { user(login: $login) {
      followers(first: 10) { totalCount nodes { login } edges { cursor node { login } } }
      following(first: 10) { totalCount nodes { login } }
      viewerIsFollowing isFollowingViewer viewerCanFollow } }`;
    type U = {
      user: {
        followers: { totalCount: number; nodes: { login: string }[]; edges: { cursor: string; node: { login: string } }[] };
        following: { totalCount: number; nodes: { login: string }[] };
        viewerIsFollowing: boolean;
        isFollowingViewer: boolean;
        viewerCanFollow: boolean;
      };
    };
    const carol = await gql<U>(t, query, { variables: { login: 'carol' }, headers: as('alice') });
    expect(carol.errors).toBeUndefined();
    expect(carol.data?.user).toMatchObject({
      followers: { totalCount: 2, nodes: [{ login: 'bob' }, { login: 'alice' }] },
      following: { totalCount: 0, nodes: [] },
      viewerIsFollowing: true,
      isFollowingViewer: false,
      viewerCanFollow: true,
    });
    expect(carol.data?.user.followers.edges[0]?.node.login).toBe('bob');
    const dave = await gql<U>(t, query, { variables: { login: 'dave' }, headers: as('bob') });
    expect(dave.data?.user).toMatchObject({ followers: { totalCount: 0 }, viewerCanFollow: false });

    const follow = `mutation($id: ID!) { followUser(input: { userId: $id, clientMutationId: "m1" }) { clientMutationId user { login } } }`;
    const res = await gql<{ followUser: { clientMutationId: string; user: { login: string } } }>(t, follow, {
      variables: { id: encodeGlobalID('User', users.alice!.id) },
      headers: as('carol'),
    });
    expect(res.data?.followUser).toEqual({ clientMutationId: 'm1', user: { login: 'alice' } });
    expect((await call('GET', '/users/carol/following/alice', 'anon')).statusCode).toBe(204);
    const back = await gql<U>(t, query, { variables: { login: 'carol' }, headers: as('alice') });
    expect(back.data?.user.isFollowingViewer).toBe(true);

    const blocked = await gql(t, follow, { variables: { id: encodeGlobalID('User', users.dave!.id) }, headers: as('bob') });
    expect(mutationError(blocked, 'followUser')).toMatchObject({ code: 'PERMISSION_DENIED', message: 'user is blocked' });
    const hidden = await gql(t, follow, { variables: { id: encodeGlobalID('User', users.hidden!.id) }, headers: as('bob') });
    expect(mutationError(hidden, 'followUser')).toMatchObject({ code: 'NOT_FOUND' });

    const unfollow = `mutation($id: ID!) { unfollowUser(input: { userId: $id }) { user { login } } }`;
    const un = await gql<{ unfollowUser: { user: { login: string } } }>(t, unfollow, {
      variables: { id: encodeGlobalID('User', users.alice!.id) },
      headers: as('carol'),
    });
    expect(un.data?.unfollowUser.user.login).toBe('alice');
    expectGiteaError(await call('GET', '/users/carol/following/alice', 'anon'), 404);
  });

  it('heatmap: 15-minute buckets of what the user did, empty when activity is kept private', async () => {
    const repo = await t.request('POST', '/api/v1/user/repos', { headers: as('carol'), body: { name: 'heat', auto_init: true } });
    expect(repo.statusCode).toBe(201);
    await t.app.deps.notifier.drain();
    const res = await call('GET', '/users/carol/heatmap', 'anon');
    expect(res.statusCode).toBe(200);
    const buckets = res.json() as { timestamp: number; contributions: number }[];
    expect(buckets.length).toBeGreaterThan(0);
    for (const b of buckets) expect(b.timestamp % 900).toBe(0);
    expect(buckets.reduce((n, b) => n + b.contributions, 0)).toBe(
      await t.db.action.count({ where: { userId: users.carol!.id, actUserId: users.carol!.id } }),
    );
    expect((await call('GET', '/users/alice/heatmap', 'anon')).json()).toEqual([]);
    expectGiteaError(await call('GET', '/users/hidden/heatmap', 'anon'), 404);

    await t.db.user.update({ where: { id: users.carol!.id }, data: { keepActivityPrivate: true } });
    expect((await call('GET', '/users/carol/heatmap', 'alice')).json()).toEqual([]);
    expect(((await call('GET', '/users/carol/heatmap', 'carol')).json() as unknown[]).length).toBe(buckets.length);
  });
});
