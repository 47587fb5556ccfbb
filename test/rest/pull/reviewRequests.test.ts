import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { createPullRequest } from '../../../src/services/pull/create.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { contextFor } from '../../helpers/org.ts';
import { PullFixture } from '../../helpers/pull.ts';

describe.each(PROVIDERS)('pull request review requests (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;
  const path = (n = 1, r = 'alice/demo') => `/api/v1/repos/${r}/pulls/${n}/requested_reviewers`;
  const add = (user: string | null, body: Record<string, unknown>, n = 1, r = 'alice/demo') =>
    t.request('POST', path(n, r), { ...(user ? { headers: basic(user) } : {}), body });
  const remove = (user: string | null, body: Record<string, unknown>, n = 1, r = 'alice/demo') =>
    t.request('DELETE', path(n, r), { ...(user ? { headers: basic(user) } : {}), body });
  const id = async (name: string) => (await t.db.user.findUniqueOrThrow({ where: { lowerName: name } })).id;
  const logins = (body: unknown) =>
    (body as Array<{ user: { login: string } | null; team: { name: string } | null }>).map((r) => r.user?.login ?? `team:${r.team?.name}`);

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const name of ['alice', 'paul', 'wendy', 'rita', 'oscar', 'dave', 'mallory']) await t.createUser(name);
    await t.createUser('root', { admin: true });
    repo = await f.createRepo('alice', 'demo');
    for (const [user, permission] of [
      ['paul', 'write'],
      ['wendy', 'write'],
      ['rita', 'read'],
    ] as const) {
      const res = await t.request('PUT', `/api/v1/repos/alice/demo/collaborators/${user}`, {
        headers: basic('alice'),
        body: { permission },
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    expect(await f.pushAndOpen('alice', 'demo', 'paul', 'feature', { 'a.txt': 'a\n' })).toBe(1);
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it("Gitea's TestAPIPullReviewRequest on a user's repository: by e-mail and name, 201 with the new requests only", async () => {
    const res = await add('paul', { reviewers: ['wendy@example.com', 'rita'] });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(logins(created)).toEqual(['wendy', 'rita']);
    expect(Object.keys(created[0])).toEqual([
      'id',
      'user',
      'team',
      'state',
      'body',
      'commit_id',
      'stale',
      'official',
      'dismissed',
      'comments_count',
      'submitted_at',
      'updated_at',
      'html_url',
      'pull_request_url',
    ]);
    // Official follows the reviewer: wendy writes code, rita only reads.
    expect(created).toMatchObject([
      { state: 'REQUEST_REVIEW', official: true, team: null, body: '', commit_id: '', html_url: '' },
      { state: 'REQUEST_REVIEW', official: false },
    ]);
    // Already requested: skipped and not returned.
    const again = await add('paul', { reviewers: ['rita', 'wendy'] });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual([]);

    const pr = (await t.request('GET', '/api/v1/repos/alice/demo/pulls/1', { headers: basic('oscar') })).json();
    expect(pr.requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['wendy', 'rita']);
    expect(pr.requested_reviewers_teams).toEqual([]);
    const list = (await t.request('GET', '/api/v1/repos/alice/demo/pulls/1/reviews')).json();
    expect(list.filter((r: { state: string }) => r.state === 'REQUEST_REVIEW')).toHaveLength(2);

    const issue = await t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, index: 1 } });
    const comments = await t.db.comment.findMany({ where: { issueId: issue.id, type: 'REVIEW_REQUEST' }, orderBy: { id: 'asc' } });
    expect(comments.map((c) => [c.posterId, c.assigneeId, c.removedAssignee, c.reviewId])).toEqual([
      [await id('paul'), await id('wendy'), false, created[0].id],
      [await id('paul'), await id('rita'), false, created[1].id],
    ]);
  });

  it('errors in Gitea order: unknown users 404 before anything changes; poster, organizations 422', async () => {
    const paul = await id('paul');
    expectGiteaError(await add('paul', { reviewers: ['oscar', 'testOther'] }), 404, "user doesn't exist: testOther");
    expectGiteaError(await add('paul', { reviewers: ['nobody@example.com'] }), 404, "user doesn't exist: nobody@example.com");
    expect(await t.db.review.count({ where: { reviewerId: await id('oscar') } })).toBe(0);
    expectGiteaError(
      await add('paul', { reviewers: ['paul'] }),
      422,
      `poster of pr can't be reviewer [user_id: ${paul}, repo_id: ${repo.id}]`,
    );
    const org = await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'someorg' } });
    expect(org.statusCode, org.body).toBe(201);
    expectGiteaError(
      await add('paul', { reviewers: ['someorg'] }),
      422,
      `Organization can't be added as reviewer [user_id: ${paul}, repo_id: ${repo.id}]`,
    );
    // Processing stops at the first refusal; the ones before it stay.
    expectGiteaError(await add('paul', { reviewers: ['oscar', 'paul'] }), 422);
    expect(await t.db.review.count({ where: { reviewerId: await id('oscar'), type: 'REQUEST' } })).toBe(1);
    expectGiteaError(await add('paul', { reviewers: ['oscar'] }, 99), 404);
  });

  it('who may change requests: poster, owner, collaborators; the requested reviewer may withdraw their own; others 422', async () => {
    const oscar = await id('oscar');
    expectGiteaError(
      await add('oscar', { reviewers: ['dave'] }),
      422,
      `Doer can't choose reviewer [user_id: ${oscar}, repo_id: ${repo.id}]`,
    );
    expectGiteaError(
      await remove('oscar', { reviewers: ['wendy'] }),
      422,
      `Doer can't remove reviewer [user_id: ${oscar}, repo_id: ${repo.id}]`,
    );
    const own = await remove('oscar', { reviewers: ['oscar'] });
    expect(own.statusCode, own.body).toBe(204);
    expect(await t.db.review.count({ where: { reviewerId: oscar, type: 'REQUEST' } })).toBe(0);
    const removed = await t.db.comment.findFirstOrThrow({ where: { type: 'REVIEW_REQUEST', assigneeId: oscar, removedAssignee: true } });
    expect(removed.posterId).toBe(oscar);

    // A collaborator with read access, the owner and a site admin who is neither… only the first two.
    expect((await add('rita', { reviewers: ['dave'] })).statusCode).toBe(201);
    expect((await remove('alice', { reviewers: ['dave'] })).statusCode).toBe(204);
    expectGiteaError(await add('root', { reviewers: ['dave'] }), 422);
    expectGiteaError(await add(null, { reviewers: ['dave'] }), 401);
    expectGiteaError(await remove(null, { reviewers: ['dave'] }), 401);
    // Removing someone who was not requested changes nothing.
    expect((await remove('paul', { reviewers: ['dave'] })).statusCode).toBe(204);

    const empty = await add('paul', {});
    expect(empty.statusCode).toBe(201);
    expect(empty.json()).toEqual([]);
    expect((await remove('paul', {})).statusCode).toBe(204);
    // team_reviewers are ignored on a user's repository.
    const teams = await add('paul', { team_reviewers: ['whatever'] });
    expect(teams.statusCode).toBe(201);
    expect(teams.json()).toEqual([]);
  });

  it('a submitted review replaces the request; re-requests on a closed pull request are 403; earlier reviews lose official', async () => {
    const approve = await t.request('POST', '/api/v1/repos/alice/demo/pulls/1/reviews', {
      headers: basic('wendy'),
      body: { event: 'APPROVED' },
    });
    expect(approve.json()).toMatchObject({ official: true });
    expect(await t.db.review.count({ where: { reviewerId: await id('wendy'), type: 'REQUEST' } })).toBe(0);
    const again = await add('paul', { reviewers: ['wendy'] });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()[0]).toMatchObject({ state: 'REQUEST_REVIEW', official: true });
    expect((await t.request('GET', `/api/v1/repos/alice/demo/pulls/1/reviews/${approve.json().id}`)).json().official).toBe(false);
    // Withdrawing it makes the approval count again.
    expect((await remove('paul', { reviewers: ['wendy'] })).statusCode).toBe(204);
    expect((await t.request('GET', `/api/v1/repos/alice/demo/pulls/1/reviews/${approve.json().id}`)).json().official).toBe(true);

    const n = await f.pushAndOpen('alice', 'demo', 'paul', 'closing', { 'c.txt': 'c\n' });
    await t.request('POST', `/api/v1/repos/alice/demo/pulls/${n}/reviews`, {
      headers: basic('rita'),
      body: { event: 'REQUEST_CHANGES', body: 'no' },
    });
    await t.request('PATCH', `/api/v1/repos/alice/demo/issues/${n}`, { headers: basic('alice'), body: { state: 'closed' } });
    expectGiteaError(await add('paul', { reviewers: ['rita'] }, n), 403, 'cannot request a re-review on a closed or merged PR');
    // Someone who never reviewed may still be asked.
    expect((await add('paul', { reviewers: ['wendy'] }, n)).statusCode).toBe(201);
  });

  it('private repositories: outsiders 404, reviewers must be able to read; archived: nobody may change requests', async () => {
    await f.createRepo('alice', 'secret', { private: true });
    await t.request('PUT', '/api/v1/repos/alice/secret/collaborators/paul', { headers: basic('alice'), body: { permission: 'write' } });
    const n = await f.pushAndOpen('alice', 'secret', 'paul', 'topic', { 's.txt': 's\n' });
    expectGiteaError(await add('oscar', { reviewers: ['alice'] }, n, 'alice/secret'), 404);
    expectGiteaError(await add(null, { reviewers: ['alice'] }, n, 'alice/secret'), 404);
    const secret = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', lowerName: 'secret' } });
    expectGiteaError(
      await add('paul', { reviewers: ['oscar'] }, n, 'alice/secret'),
      422,
      `Reviewer can't read [user_id: ${await id('paul')}, repo_id: ${secret.id}]`,
    );
    expect((await add('paul', { reviewers: ['alice'] }, n, 'alice/secret')).statusCode).toBe(201);

    await editRepo(t, secret, { archived: true });
    expectGiteaError(await add('alice', { reviewers: ['paul'] }, n, 'alice/secret'), 422);
    expectGiteaError(
      await add('paul', { reviewers: ['root'] }, n, 'alice/secret'),
      422,
      `Doer can't choose reviewer [user_id: ${await id('paul')}, repo_id: ${secret.id}]`,
    );
    expectGiteaError(
      await remove('paul', { reviewers: ['alice'] }, n, 'alice/secret'),
      422,
      `Doer can't remove reviewer [user_id: ${await id('paul')}, repo_id: ${secret.id}]`,
    );
  });

  it("Gitea's team parts: organization teams with access; members of teams reading pull requests may change requests", async () => {
    const org = await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'acme' } });
    expect(org.statusCode, org.body).toBe(201);
    const created = await t.request('POST', '/api/v1/orgs/acme/repos', {
      headers: basic('alice'),
      body: { name: 'proj', private: true, auto_init: true, default_branch: 'main' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const proj = await t.db.repository.findUniqueOrThrow({ where: { id: created.json().id } });
    const team = async (name: string, repos: boolean, members: string[]) => {
      const res = await t.request('POST', '/api/v1/orgs/acme/teams', {
        headers: basic('alice'),
        body: { name, permission: 'read', units_map: { 'repo.code': 'read', 'repo.pulls': 'read' }, includes_all_repositories: false },
      });
      expect(res.statusCode, res.body).toBe(201);
      const teamId = res.json().id as number;
      if (repos)
        expect((await t.request('PUT', `/api/v1/teams/${teamId}/repos/acme/proj`, { headers: basic('alice') })).statusCode).toBe(204);
      for (const m of members)
        expect((await t.request('PUT', `/api/v1/teams/${teamId}/members/${m}`, { headers: basic('alice') })).statusCode).toBe(204);
      return teamId;
    };
    await team('devs', true, ['dave', 'paul']);
    await team('others', false, ['mallory']);
    await f.push('acme', 'proj', 'alice', 'topic', { 't.txt': 't\n' });
    const n = (await f.open('acme', 'proj', 'paul', { head: 'topic', base: 'main' })).json.number as number;

    // dave is neither the poster nor a collaborator, but his team reads pull requests of the repository.
    const byMember = await add('dave', { reviewers: ['alice'] }, n, 'acme/proj');
    expect(byMember.statusCode, byMember.body).toBe(201);
    expect((await remove('dave', { reviewers: ['alice'] }, n, 'acme/proj')).statusCode).toBe(204);
    expectGiteaError(await add('mallory', { reviewers: ['alice'] }, n, 'acme/proj'), 404);

    const teams = await add('paul', { team_reviewers: ['devs', 'Owners'] }, n, 'acme/proj');
    expect(teams.statusCode, teams.body).toBe(201);
    expect(logins(teams.json())).toEqual(['team:devs', 'team:Owners']);
    expect(teams.json()[0]).toMatchObject({ user: null, state: 'REQUEST_REVIEW', team: { name: 'devs', organization: null } });
    expectGiteaError(
      await add('paul', { team_reviewers: ['others'] }, n, 'acme/proj'),
      422,
      `Reviewing team can't read repo [user_id: ${await id('paul')}, repo_id: ${proj.id}]`,
    );
    expectGiteaError(await add('paul', { team_reviewers: ['not_exist_team'] }, n, 'acme/proj'), 404, "team doesn't exist: not_exist_team");
    const again = await add('paul', { team_reviewers: ['devs'] }, n, 'acme/proj');
    expect(again.json()).toEqual([]);

    const pr = (await t.request('GET', `/api/v1/repos/acme/proj/pulls/${n}`, { headers: basic('paul') })).json();
    expect(pr.requested_reviewers_teams.map((x: { name: string }) => x.name)).toEqual(['devs', 'Owners']);
    const listed = (await t.request('GET', `/api/v1/repos/acme/proj/pulls/${n}/reviews`, { headers: basic('paul') })).json();
    expect(listed.map((r: { team: { name: string } | null }) => r.team?.name)).toEqual(['devs', 'Owners']);

    // An approval by a member withdraws the request of the member's team.
    expect(
      (await t.request('POST', `/api/v1/repos/acme/proj/pulls/${n}/reviews`, { headers: basic('dave'), body: { event: 'APPROVED' } }))
        .statusCode,
    ).toBe(200);
    const left = (await t.request('GET', `/api/v1/repos/acme/proj/pulls/${n}`, { headers: basic('paul') })).json();
    expect(left.requested_reviewers_teams.map((x: { name: string }) => x.name)).toEqual(['Owners']);

    expect((await remove('paul', { team_reviewers: ['Owners'] }, n, 'acme/proj')).statusCode).toBe(204);
    const comment = await t.db.comment.findFirstOrThrow({
      where: { type: 'REVIEW_REQUEST', removedAssignee: true, assigneeTeamId: { not: null } },
    });
    expect(comment.posterId).toBe(await id('paul'));
  });

  it('createPullRequest requests the reviewers it is given', async () => {
    await f.push('alice', 'demo', 'paul', 'with-reviewers', { 'r.txt': 'r\n' });
    const paul = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'paul' } });
    const view = await createPullRequest(
      contextFor(t, paul),
      { owner: 'alice', repo: 'demo' },
      { head: 'with-reviewers', base: 'main', title: 'reviewed', reviewers: ['wendy', 'rita@example.com'] },
    );
    expect(view.requestedReviewers.map((u) => u.name)).toEqual(['wendy', 'rita']);
    const pr = (await t.request('GET', `/api/v1/repos/alice/demo/pulls/${view.pull.index}`)).json();
    expect(pr.requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['wendy', 'rita']);
  });

  it('events: pull.reviewRequested / pull.reviewRequestRemoved are published after the commit', async () => {
    const mallory = await id('mallory');
    const seen: string[] = [];
    t.app.deps.notifier.subscribe({
      name: 'test',
      handle: async (e) => {
        if ((e.type === 'pull.reviewRequested' || e.type === 'pull.reviewRequestRemoved') && e.reviewerId === mallory) seen.push(e.type);
      },
    });
    await add('paul', { reviewers: ['mallory'] });
    await remove('paul', { reviewers: ['mallory'] });
    await t.app.deps.notifier.drain();
    expect(seen).toEqual(['pull.reviewRequested', 'pull.reviewRequestRemoved']);
  });
});
