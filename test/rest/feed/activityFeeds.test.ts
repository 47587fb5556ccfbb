import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, addTeamRepo, createRepo, createTeam, addTeamMember } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs } from '../../helpers/org.ts';

interface Activity {
  id: number;
  user_id: number;
  op_type: string;
  act_user_id: number;
  act_user: { login: string };
  repo_id: number;
  repo: { full_name: string; permissions: { admin: boolean; push: boolean; pull: boolean } };
  comment_id: number;
  comment: { id: number; body: string } | null;
  ref_name: string;
  is_private: boolean;
  content: string;
  created: string;
}

const KEYS = [
  'act_user',
  'act_user_id',
  'comment',
  'comment_id',
  'content',
  'created',
  'id',
  'is_private',
  'op_type',
  'ref_name',
  'repo',
  'repo_id',
  'user_id',
];

/** Every activity feed route: Gitea's Activity JSON, per-recipient rows, visibility of private activity, filters, pagination. */
describe.each(PROVIDERS)('activity feeds (%s)', (provider) => {
  let t: TestApp;
  let alice: Models.User;
  let bob: Models.User;
  let carol: Models.User;
  let org: Models.User;
  let team: { id: number };

  const get = async (url: string, user?: string) => {
    const res = await t.request('GET', url, user ? { headers: basic(user) } : {});
    return { status: res.statusCode, body: res.json() as Activity[], total: res.headers['x-total-count'], link: res.headers.link };
  };
  const ops = (feed: Activity[]) => feed.map((a) => `${a.op_type}:${a.repo.full_name}`);

  beforeAll(async () => {
    t = await startTestApp(provider);
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
    carol = await t.createUser('carol');
    await createRepo(t, alice, 'pub');
    await createRepo(t, alice, 'secret', { private: true });
    org = await createOrgAs(t, alice, 'acme');
    await createRepo(t, alice, 'orgpub', { org });
    await createRepo(t, alice, 'orgsecret', { org, private: true });
    await addMember(t, org, carol);
    team = await createTeam(t, alice, org, { name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues', 'repo.pulls'] });
    await addTeamMember(t, alice, team, bob);
    await addTeamRepo(t, alice, team, { ownerName: 'acme', name: 'orgsecret' });
    for (const [repo, title] of [
      ['alice/pub', 'public bug'],
      ['alice/secret', 'secret bug'],
      ['acme/orgsecret', 'org secret bug'],
    ] as const) {
      expect((await t.request('POST', `/api/v1/repos/${repo}/issues`, { headers: basic('alice'), body: { title } })).statusCode).toBe(201);
    }
    const comment = await t.request('POST', '/api/v1/repos/alice/pub/issues/1/comments', {
      headers: basic('bob'),
      body: { body: 'me too' },
    });
    expect(comment.statusCode).toBe(201);
    await t.app.deps.notifier.drain();
  });
  afterAll(async () => {
    await t.close();
  });

  it("GET /users/{username}/activities/feeds: Gitea's Activity JSON, newest first, X-Total-Count and no Link", async () => {
    const own = await get('/api/v1/users/alice/activities/feeds?limit=50', 'alice');
    expect(own.status).toBe(200);
    expect(Object.keys(own.body[0] ?? {}).sort()).toEqual(KEYS);
    expect(own.link).toBeUndefined();
    expect(Number(own.total)).toBe(own.body.length);
    expect(ops(own.body)).toEqual([
      'comment_issue:alice/pub',
      'create_issue:acme/orgsecret',
      'create_issue:alice/secret',
      'create_issue:alice/pub',
      'create_repo:acme/orgsecret',
      'create_repo:acme/orgpub',
      'create_repo:alice/secret',
      'create_repo:alice/pub',
    ]);
    const created = own.body.find((a) => a.op_type === 'create_issue' && a.repo.full_name === 'alice/pub');
    expect(created).toMatchObject({
      user_id: alice.id,
      act_user_id: alice.id,
      content: '1|public bug',
      comment_id: 0,
      comment: null,
      is_private: false,
    });
    expect(created?.act_user.login).toBe('alice');
    expect(created?.repo.permissions).toEqual({ admin: true, push: true, pull: true });
    // bob's comment reaches alice's feed because she watches her repository (auto-watch on create).
    const comment = own.body[0];
    expect(comment).toMatchObject({ user_id: alice.id, act_user_id: bob.id, content: '1|me too', is_private: false });
    expect(comment?.comment?.body).toBe('me too');
    expect(comment?.comment_id).toBe(comment?.comment?.id);
    expect(own.body.find((a) => a.repo.full_name === 'alice/secret')?.is_private).toBe(true);
  });

  it("private activity is hidden from others; only-performed-by keeps the account's own actions", async () => {
    for (const viewer of [undefined, 'bob']) {
      const seen = await get('/api/v1/users/alice/activities/feeds', viewer);
      expect(seen.status).toBe(200);
      expect(seen.body.every((a) => !a.is_private)).toBe(true);
      expect(ops(seen.body)).toEqual([
        'comment_issue:alice/pub',
        'create_issue:alice/pub',
        'create_repo:acme/orgpub',
        'create_repo:alice/pub',
      ]);
    }
    const performed = await get('/api/v1/users/alice/activities/feeds?only-performed-by=true', 'alice');
    expect(performed.body.every((a) => a.act_user_id === alice.id)).toBe(true);
    expect(performed.body).toHaveLength(7);
    // bob watches acme/orgsecret since his team was given it (Gitea's auto-watch), so its issue reaches his feed;
    // it is private, and only he sees it.
    const bobs = await get('/api/v1/users/bob/activities/feeds', 'bob');
    expect(ops(bobs.body)).toEqual(['comment_issue:alice/pub', 'create_issue:acme/orgsecret']);
    expect(bobs.body.find((a) => a.repo.full_name === 'acme/orgsecret')?.is_private).toBe(true);
    const bobsSeen = await get('/api/v1/users/bob/activities/feeds');
    expect(ops(bobsSeen.body)).toEqual(['comment_issue:alice/pub']);
  });

  it('a site admin sees private activity; a user keeping activity private hides it from others', async () => {
    await t.createUser('root', { admin: true });
    expect((await get('/api/v1/users/alice/activities/feeds', 'root')).body).toHaveLength(8);
    // Gitea's user setting (PATCH /user/settings is not served yet): set on the row.
    await t.db.user.update({ where: { id: bob.id }, data: { keepActivityPrivate: true } });
    try {
      expect(ops((await get('/api/v1/users/alice/activities/feeds', 'carol')).body)).not.toContain('comment_issue:alice/pub');
      expect((await get('/api/v1/users/alice/activities/feeds', 'bob')).body.map((a) => a.op_type)).toContain('comment_issue');
    } finally {
      await t.db.user.update({ where: { id: bob.id }, data: { keepActivityPrivate: false } });
    }
  });

  it('date filters one UTC day; an unparsable date is ignored; pagination', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await get(`/api/v1/users/alice/activities/feeds?date=${today}`, 'alice')).body).toHaveLength(8);
    expect((await get('/api/v1/users/alice/activities/feeds?date=2001-01-01', 'alice')).body).toHaveLength(0);
    expect((await get('/api/v1/users/alice/activities/feeds?date=yesterday', 'alice')).body).toHaveLength(8);
    const page2 = await get('/api/v1/users/alice/activities/feeds?limit=3&page=2', 'alice');
    expect(page2.body).toHaveLength(3);
    expect(page2.total).toBe('8');
    expect(ops(page2.body)).toEqual(['create_issue:alice/pub', 'create_repo:acme/orgsecret', 'create_repo:acme/orgpub']);
  });

  it('unknown users are 404; private users are 404 to others', async () => {
    expectGiteaError(await t.request('GET', '/api/v1/users/nobody/activities/feeds'), 404);
    const hidden = await t.createUser('hidden', { visibility: 'PRIVATE' });
    expect(hidden.visibility).toBe('PRIVATE');
    expectGiteaError(await t.request('GET', '/api/v1/users/hidden/activities/feeds', { headers: basic('bob') }), 404);
    expect((await get('/api/v1/users/hidden/activities/feeds', 'hidden')).status).toBe(200);
  });

  it("GET /orgs/{org}/activities/feeds: the organization's rows; private ones for members only", async () => {
    const member = await get('/api/v1/orgs/acme/activities/feeds', 'carol');
    expect(member.status).toBe(200);
    expect(member.body.every((a) => a.user_id === org.id)).toBe(true);
    // carol's Members team does not include the private repository: its rows stay hidden from her.
    expect(ops(member.body)).toEqual(['create_repo:acme/orgpub']);
    const owner = await get('/api/v1/orgs/acme/activities/feeds', 'alice');
    expect(ops(owner.body)).toEqual(['create_issue:acme/orgsecret', 'create_repo:acme/orgsecret', 'create_repo:acme/orgpub']);
    expect(owner.body.map((a) => a.is_private)).toEqual([true, true, false]);
    const outsider = await get('/api/v1/orgs/acme/activities/feeds');
    expect(ops(outsider.body)).toEqual(['create_repo:acme/orgpub']);
    expectGiteaError(await t.request('GET', '/api/v1/orgs/nope/activities/feeds'), 404);
  });

  it("GET /teams/{id}/activities/feeds: the organization's rows on the team's repositories", async () => {
    const feed = await get(`/api/v1/teams/${team.id}/activities/feeds`, 'bob');
    expect(feed.status).toBe(200);
    expect(feed.total).toBe(String(feed.body.length));
    expect(ops(feed.body)).toEqual(['create_issue:acme/orgsecret', 'create_repo:acme/orgsecret']);
    expectGiteaError(await t.request('GET', `/api/v1/teams/${team.id}/activities/feeds`), 401);
    expectGiteaError(await t.request('GET', '/api/v1/teams/999999/activities/feeds', { headers: basic('bob') }), 404);
  });

  it('GET /repos/{owner}/{repo}/activities/feeds: one row per event; private repositories 404 to outsiders', async () => {
    const feed = await get('/api/v1/repos/alice/pub/activities/feeds');
    expect(feed.status).toBe(200);
    expect(feed.body.map((a) => [a.op_type, a.user_id === a.act_user_id])).toEqual([
      ['comment_issue', true],
      ['create_issue', true],
      ['create_repo', true],
    ]);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/secret/activities/feeds', { headers: basic('bob') }), 404);
    await addCollaborator(t, { ownerName: 'alice', name: 'secret' }, bob, 'read');
    const collab = await get('/api/v1/repos/alice/secret/activities/feeds', 'bob');
    expect(collab.body.map((a) => [a.op_type, a.is_private])).toEqual([
      ['create_issue', true],
      ['create_repo', true],
    ]);
  });

  it('a public-only token sees no private activity, even in its own feed (Gitea TestAPIActivityFeedsPublicOnly)', async () => {
    const full = await t.createToken('alice', ['read:user']);
    const publicOnly = await t.createToken('alice', ['public-only', 'read:user']);
    const withFull = await t.request('GET', '/api/v1/users/alice/activities/feeds', { headers: tokenAuth(full) });
    expect((withFull.json() as Activity[]).some((a) => a.is_private)).toBe(true);
    const limited = await t.request('GET', '/api/v1/users/alice/activities/feeds', { headers: tokenAuth(publicOnly) });
    expect(limited.statusCode).toBe(200);
    const rows = limited.json() as Activity[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((a) => !a.is_private)).toBe(true);
    const noScope = await t.createToken('alice', ['read:repository']);
    expectGiteaError(await t.request('GET', '/api/v1/users/alice/activities/feeds', { headers: tokenAuth(noScope) }), 403);
  });

  it("rows are materialized for each watcher who can read the row's unit (Gitea NotifyWatchers), never twice for the actor", async () => {
    const dave = await t.createUser('dave');
    const pub = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', lowerName: 'pub' } });
    const secret = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', lowerName: 'secret' } });
    // dave watches both, but cannot read the private one (a stale watch: he was never given access).
    await t.db.watch.createMany({
      data: [
        { userId: dave.id, repoId: pub.id },
        { userId: dave.id, repoId: secret.id },
      ],
    });
    for (const repo of ['alice/pub', 'alice/secret']) {
      await t.request('POST', `/api/v1/repos/${repo}/issues`, { headers: basic('alice'), body: { title: 'watched' } });
    }
    await t.app.deps.notifier.drain();
    const feed = await get('/api/v1/users/dave/activities/feeds', 'dave');
    expect(feed.body.map((a) => [a.op_type, a.repo.full_name, a.user_id, a.act_user_id])).toEqual([
      ['create_issue', 'alice/pub', dave.id, alice.id],
    ]);
    const original = await t.db.action.count({ where: { repoId: pub.id, content: { endsWith: '|watched' }, userId: alice.id } });
    expect(original).toBe(1);
  });
});
