import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { isGiteaError, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { restApi } from './restApi.ts';
import { PullFixture } from '../../helpers/pull.ts';

/**
 * Branch protection with the real git client (issue 20's "done when"): pushes refused for users the rule does
 * not whitelist and for force pushes, allowed for whitelisted ones; a pull request with a required check and two
 * required approvals cannot be merged until a status is posted and two official approvals exist, and merges by
 * itself (scheduled with merge_when_checks_succeed) once they do.
 */
describe.each(PROVIDERS)('branch protection (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;

  const api = restApi(() => t);
  const pushAs = async (user: string, args: string[]) => {
    const dir = await f.workTree('alice', 'demo', user);
    return f.git.run(['push', ...args], { cwd: dir });
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    for (const u of ['bob', 'carol', 'dave']) await t.createUser(u);
    repo = await f.createRepo('alice', 'demo');
    for (const u of ['bob', 'carol', 'dave']) await addCollaborator(t, repo, { name: u }, 'write');
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('creates, reads, edits and lists rules as Gitea does (repository admins only)', async () => {
    const created = await api('POST', '/repos/alice/demo/branch_protections', 'alice', {
      rule_name: 'main',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: ['alice'],
      enable_status_check: true,
      status_check_contexts: ['ci/*'],
      required_approvals: 2,
      enable_approvals_whitelist: true,
      approvals_whitelist_username: ['carol', 'dave'],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      rule_name: 'main',
      branch_name: 'main',
      priority: 1,
      enable_push: true,
      push_whitelist_usernames: ['alice'],
      status_check_contexts: ['ci/*'],
      required_approvals: 2,
      approvals_whitelist_username: ['carol', 'dave'],
      enable_force_push: false,
    });
    const again = await api('POST', '/repos/alice/demo/branch_protections', 'alice', { rule_name: 'main' });
    expect(again.status).toBe(403);
    expect(again.json.message).toBe('Branch protection already exist');
    expect(isGiteaError(again.json)).toBe(true);
    const unknownUser = await api('POST', '/repos/alice/demo/branch_protections', 'alice', {
      rule_name: 'release/*',
      push_whitelist_usernames: ['nobody'],
    });
    expect(unknownUser.status).toBe(422);
    expect((await api('POST', '/repos/alice/demo/branch_protections', 'bob', { rule_name: 'x' })).status).toBe(403);
    expect((await api('GET', '/repos/alice/demo/branch_protections', 'bob')).status).toBe(403);

    const glob = await api('POST', '/repos/alice/demo/branch_protections', 'alice', { rule_name: 'release/*' });
    expect(glob.json).toMatchObject({ rule_name: 'release/*', branch_name: '', priority: 2 });
    const edited = await api('PATCH', '/repos/alice/demo/branch_protections/release%2F*', 'alice', { required_approvals: 1 });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ rule_name: 'release/*', required_approvals: 1, enable_push: false });
    const list = await api('GET', '/repos/alice/demo/branch_protections', 'alice');
    expect((list.json as unknown as { rule_name: string }[]).map((r) => r.rule_name)).toEqual(['main', 'release/*']);
    expect((await api('DELETE', '/repos/alice/demo/branch_protections/release%2F*', 'alice')).status).toBe(204);
    expect((await api('GET', '/repos/alice/demo/branch_protections/release%2F*', 'alice')).status).toBe(404);
  });

  it('the Branch JSON reports the rule and what the viewer may do', async () => {
    const asBob = await api('GET', '/repos/alice/demo/branches/main', 'bob');
    expect(asBob.json).toMatchObject({
      protected: true,
      required_approvals: 2,
      enable_status_check: true,
      status_check_contexts: ['ci/*'],
      effective_branch_protection_name: 'main',
      user_can_push: false,
      user_can_merge: true,
    });
    expect((await api('GET', '/repos/alice/demo/branches/main', 'alice')).json).toMatchObject({ user_can_push: true });
  });

  it('git push: refused for users off the whitelist and for force pushes, allowed for whitelisted users', async () => {
    const bobDir = await f.workTree('alice', 'demo', 'bob');
    await f.git.commit(bobDir, 'bob.txt', 'bob\n', 'bob on main');
    const refused = await pushAs('bob', ['origin', 'HEAD:refs/heads/main']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Not allowed to push to protected branch main');
    expect(refused.stderr).toContain('pre-receive hook declined');

    const aliceDir = await f.workTree('alice', 'demo', 'alice');
    const pushed = await f.git.commit(aliceDir, 'alice.txt', 'alice\n', 'alice on main');
    const allowed = await pushAs('alice', ['origin', 'HEAD:refs/heads/main']);
    expect(allowed.code, allowed.stderr).toBe(0);
    await t.app.deps.notifier.drain();
    expect((await api('GET', '/repos/alice/demo/branches/main', 'alice')).json).toMatchObject({ commit: { id: pushed } });

    await f.git.ok(['reset', '-q', '--hard', 'HEAD~1'], { cwd: aliceDir });
    await f.git.commit(aliceDir, 'other.txt', 'rewritten\n', 'rewritten history');
    const forced = await pushAs('alice', ['-f', 'origin', 'HEAD:refs/heads/main']);
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toContain('branch main is protected from force push');

    const deleted = await pushAs('alice', ['origin', '--delete', 'main']);
    expect(deleted.code).not.toBe(0);
    expect(deleted.stderr).toContain('branch main is protected from deletion');

    // Force pushes allowed by the rule (for whitelisted pushers) go through.
    expect((await api('PATCH', '/repos/alice/demo/branch_protections/main', 'alice', { enable_force_push: true })).status).toBe(200);
    const forcedOk = await pushAs('alice', ['-f', 'origin', 'HEAD:refs/heads/main']);
    expect(forcedOk.code, forcedOk.stderr).toBe(0);
    await t.app.deps.notifier.drain();
  });

  it('API writes: file changes and branch deletion honour the rule', async () => {
    const content = Buffer.from('x\n').toString('base64');
    const bobWrite = await api('POST', '/repos/alice/demo/contents/api.txt', 'bob', { content, branch: 'main' });
    expect(bobWrite.status).toBe(403);
    expect(bobWrite.json.message).toBe('user should have a permission to write to this branch');
    expect((await api('POST', '/repos/alice/demo/contents/api.txt', 'alice', { content, branch: 'main' })).status).toBe(201);
    await api('POST', '/repos/alice/demo/branches', 'alice', { new_branch_name: 'keep', old_branch_name: 'main' });
    await api('POST', '/repos/alice/demo/branch_protections', 'alice', { rule_name: 'kee?' });
    const del = await api('DELETE', '/repos/alice/demo/branches/keep', 'alice');
    expect(del.status).toBe(403);
    expect(del.json.message).toBe('branch protected');
  });

  it('a pull request needs the required check and two official approvals, and merges itself once scheduled', async () => {
    const head = await f.push('alice', 'demo', 'bob', 'feature', { 'feature.txt': 'feature\n' });
    const n = (await f.open('alice', 'demo', 'bob', { head: 'feature', base: 'main' })).json.number as number;
    const merge = (user: string, body: Record<string, unknown> = {}) =>
      api('POST', `/repos/alice/demo/pulls/${n}/merge`, user, { Do: 'merge', ...body });
    const merged = async () => (await api('GET', `/repos/alice/demo/pulls/${n}`, 'alice')).json.merged;

    const noCheck = await merge('alice');
    expect(noCheck.status).toBe(405);
    expect(noCheck.json.message).toBe('Not all required status checks successful');

    // A status the rule does not require changes nothing; a failing required one neither.
    expect((await api('POST', `/repos/alice/demo/statuses/${head}`, 'bob', { state: 'success', context: 'lint' })).status).toBe(201);
    expect((await merge('alice')).json.message).toBe('Not all required status checks successful');

    // Scheduled: 201, no merge yet, a timeline comment.
    expect((await merge('alice', { merge_when_checks_succeed: true })).status).toBe(201);
    expect((await merge('alice', { merge_when_checks_succeed: true })).status).toBe(409);
    await t.app.jobs.drain();
    expect(await merged()).toBe(false);
    const pr = await t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index: n } });
    expect(await t.db.comment.count({ where: { issueId: pr.issueId, type: 'PR_SCHEDULED_TO_AUTO_MERGE' } })).toBe(1);

    const failing = await api('POST', `/repos/alice/demo/statuses/${head}`, 'bob', { state: 'failure', context: 'ci/build' });
    expect(failing.status).toBe(201);
    expect(failing.json).toMatchObject({ id: 2, status: 'failure', context: 'ci/build', creator: { login: 'bob' } });
    await t.app.jobs.drain();
    expect(await merged()).toBe(false);

    const combined = await api('GET', `/repos/alice/demo/commits/${head}/status`, 'alice');
    expect(combined.json).toMatchObject({ state: 'failure', sha: head, total_count: 2 });

    // Alice may write code but is not on the approvals whitelist: her approval is not official.
    const review = (user: string) => api('POST', `/repos/alice/demo/pulls/${n}/reviews`, user, { event: 'APPROVED', body: '' });
    expect((await review('alice')).json).toMatchObject({ state: 'APPROVED', official: false });
    expect((await review('carol')).json).toMatchObject({ state: 'APPROVED', official: true });
    await t.app.jobs.drain();
    expect(await merged()).toBe(false);

    const success = await api('POST', `/repos/alice/demo/statuses/${head}`, 'bob', { state: 'success', context: 'ci/build' });
    expect(success.status).toBe(201);
    await t.app.jobs.drain();
    expect(await merged()).toBe(false);
    const oneApproval = await merge('alice');
    expect(oneApproval.status).toBe(405);
    expect(oneApproval.json.message).toBe('Does not have enough approvals');

    expect((await review('dave')).json).toMatchObject({ official: true });
    await t.app.jobs.drain();
    await t.app.deps.notifier.drain();
    expect(await merged()).toBe(true);
    expect(await t.db.pullAutoMerge.count()).toBe(0);
    const feed = await t.db.action.findMany({
      where: { repoId: repo.id, opType: { in: ['AUTO_MERGE_PULL_REQUEST', 'MERGE_PULL_REQUEST'] } },
    });
    expect(feed.map((a) => a.opType)).toEqual(['AUTO_MERGE_PULL_REQUEST']);
  });

  it('cancelling a scheduled merge; admins may force_merge past failed checks', async () => {
    const head = await f.push('alice', 'demo', 'bob', 'second', { 'second.txt': 'second\n' });
    const n = (await f.open('alice', 'demo', 'bob', { head: 'second', base: 'main' })).json.number as number;
    expect((await api('POST', `/repos/alice/demo/pulls/${n}/merge`, 'bob', { Do: 'merge', merge_when_checks_succeed: true })).status).toBe(
      201,
    );
    const other = await api('DELETE', `/repos/alice/demo/pulls/${n}/merge`, 'carol');
    expect(other.status).toBe(403);
    expect((await api('DELETE', `/repos/alice/demo/pulls/${n}/merge`, 'bob')).status).toBe(204);
    expect((await api('DELETE', `/repos/alice/demo/pulls/${n}/merge`, 'bob')).status).toBe(404);
    expect(head).toMatch(/^[0-9a-f]{40}$/);

    expect((await api('POST', `/repos/alice/demo/pulls/${n}/merge`, 'bob', { Do: 'merge', force_merge: true })).status).toBe(405);
    expect((await api('POST', `/repos/alice/demo/pulls/${n}/merge`, 'alice', { Do: 'merge', force_merge: true })).status).toBe(200);
    await api('PATCH', '/repos/alice/demo/branch_protections/main', 'alice', { block_admin_merge_override: true });
    const third = await f.push('alice', 'demo', 'bob', 'third', { 'third.txt': 'third\n' });
    expect(third).toMatch(/^[0-9a-f]{40}$/);
    const m = (await f.open('alice', 'demo', 'bob', { head: 'third', base: 'main' })).json.number as number;
    const blocked = await api('POST', `/repos/alice/demo/pulls/${m}/merge`, 'alice', { Do: 'merge', force_merge: true });
    expect(blocked.status).toBe(405);
    expect(blocked.json.message).toBe('Not all required status checks successful');
  });

  it('dismiss_stale_approvals: a push that changes the diff dismisses approvals', async () => {
    await api('PATCH', '/repos/alice/demo/branch_protections/main', 'alice', { dismiss_stale_approvals: true });
    await f.push('alice', 'demo', 'bob', 'fourth', { 'fourth.txt': 'fourth\n' });
    const n = (await f.open('alice', 'demo', 'bob', { head: 'fourth', base: 'main' })).json.number as number;
    const approved = await api('POST', `/repos/alice/demo/pulls/${n}/reviews`, 'carol', { event: 'APPROVED', body: '' });
    expect(approved.json).toMatchObject({ official: true, dismissed: false });
    await f.push('alice', 'demo', 'bob', 'fourth', { 'more.txt': 'more\n' });
    const review = await t.db.review.findUniqueOrThrow({ where: { id: approved.json.id as number } });
    expect(review).toMatchObject({ stale: true, dismissed: true });
  });
});
