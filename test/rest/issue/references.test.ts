import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { PullFixture } from '../../helpers/pull.ts';

interface TimelineEntry {
  type: string;
  body: string;
  ref_action: string;
  ref_commit_sha: string;
  ref_issue: { number: number; repository: { full_name: string } } | null;
  ref_comment: { id: number; body: string } | null;
  user: { login: string };
}

/**
 * References and closing keywords (Gitea comment_xref.go, services/issue/commit.go): `#N`, `!N`, `owner/repo#N` in
 * bodies, comments and pushed commits make issue_ref / comment_ref / pull_ref / commit_ref timeline entries, shown
 * only to those who can read the source; "Closes #N" closes on merge, and on a push to the default branch.
 */
describe.each(PROVIDERS)('issue references and closing keywords (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  const settle = async () => {
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
    await t.app.deps.notifier.drain();
  };
  const newIssue = async (repo: string, user: string, title: string, body = '') => {
    const res = await t.request('POST', `/api/v1/repos/${repo}/issues`, { headers: basic(user), body: { title, body } });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { number: number }).number;
  };
  const timeline = async (repo: string, index: number, user = 'alice') => {
    const res = await t.request('GET', `/api/v1/repos/${repo}/issues/${index}/timeline`, { headers: basic(user) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TimelineEntry[];
  };
  const state = async (repo: string, index: number) =>
    ((await t.request('GET', `/api/v1/repos/${repo}/issues/${index}`, { headers: basic('alice') })).json() as { state: string }).state;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    f = await PullFixture.start(t);
    await f.createRepo('alice', 'app');
    await f.createRepo('alice', 'lib');
    await f.createRepo('bob', 'hidden', { private: true });
  });
  afterAll(async () => {
    f.dispose();
    await t.close();
  });

  it('an issue body referencing #N and owner/repo#N adds issue_ref entries; the source itself is skipped', async () => {
    const one = await newIssue('alice/app', 'alice', 'first');
    const libIssue = await newIssue('alice/lib', 'alice', 'lib bug');
    const two = await newIssue('alice/app', 'alice', 'second', `see #${one}, alice/lib#${libIssue} and #99 and #${one + 1}`);
    await settle();
    const refs = (await timeline('alice/app', one)).filter((e) => e.type === 'issue_ref');
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({
      ref_action: 'none',
      ref_issue: { number: two, repository: { full_name: 'alice/app' } },
      ref_comment: null,
    });
    const cross = (await timeline('alice/lib', libIssue)).filter((e) => e.type === 'issue_ref');
    expect(cross.map((e) => e.ref_issue?.repository.full_name)).toEqual(['alice/app']);
    expect((await timeline('alice/app', two)).filter((e) => e.type.endsWith('_ref'))).toEqual([]);
  });

  it('a comment adds comment_ref with ref_comment; references from a private source are hidden from outsiders', async () => {
    const target = await newIssue('alice/app', 'alice', 'target');
    const other = await newIssue('alice/app', 'alice', 'other');
    const c = await t.request('POST', `/api/v1/repos/alice/app/issues/${other}/comments`, {
      headers: basic('bob'),
      body: { body: `Related: #${target}` },
    });
    expect(c.statusCode).toBe(201);
    const hiddenIssue = await newIssue('bob/hidden', 'bob', 'secret work', `touches alice/app#${target}`);
    await settle();
    // Each reference is written by its source's job; jobs run side by side, so the two may come in either order.
    const entries = (await timeline('alice/app', target, 'bob')).filter((e) => e.type.endsWith('_ref'));
    expect(entries.map((e) => [e.type, e.ref_issue?.number, e.ref_issue?.repository.full_name]).sort()).toEqual([
      ['comment_ref', other, 'alice/app'],
      ['issue_ref', hiddenIssue, 'bob/hidden'],
    ]);
    const fromComment = entries.find((e) => e.type === 'comment_ref');
    expect(fromComment?.ref_comment?.body).toBe(`Related: #${target}`);
    expect(fromComment?.user.login).toBe('bob');
    const forAlice = (await timeline('alice/app', target, 'alice')).filter((e) => e.type.endsWith('_ref'));
    expect(forAlice.map((e) => e.type)).toEqual(['comment_ref']);
  });

  it('editing the text neuters references it no longer makes', async () => {
    const target = await newIssue('alice/app', 'alice', 'edit target');
    const src = await newIssue('alice/app', 'alice', 'edit source', `see #${target}`);
    await settle();
    await t.request('PATCH', `/api/v1/repos/alice/app/issues/${src}`, { headers: basic('alice'), body: { body: 'nothing now' } });
    await settle();
    const refs = (await timeline('alice/app', target)).filter((e) => e.type === 'issue_ref');
    expect(refs.map((e) => e.ref_action)).toEqual(['neutered']);
  });

  it('a pull request saying "Closes #N" closes the issue when merged, with the pull_ref and the merge commit', async () => {
    const issue = await newIssue('alice/app', 'alice', 'It broke');
    const libIssue = await newIssue('alice/lib', 'alice', 'Lib broke');
    const pr = await f.pushAndOpen(
      'alice',
      'app',
      'alice',
      'fix',
      { 'fix.txt': 'fixed\n' },
      { body: `Closes #${issue}\nFixes alice/lib#${libIssue}` },
    );
    await settle();
    const before = (await timeline('alice/app', issue)).filter((e) => e.type === 'pull_ref');
    expect(before.map((e) => [e.ref_action, e.ref_issue?.number])).toEqual([['closes', pr]]);
    expect(await state('alice/app', issue)).toBe('open');

    const merged = await t.request('POST', `/api/v1/repos/alice/app/pulls/${pr}/merge`, { headers: basic('alice'), body: { Do: 'merge' } });
    expect(merged.statusCode, merged.body).toBe(200);
    await settle();
    expect(await state('alice/app', issue)).toBe('closed');
    expect(await state('alice/lib', libIssue)).toBe('closed');
    const pull = (await t.request('GET', `/api/v1/repos/alice/app/pulls/${pr}`, { headers: basic('alice') })).json() as {
      merge_commit_sha: string;
    };
    const close = (await timeline('alice/app', issue)).find((e) => e.type === 'close');
    expect(close).toMatchObject({ ref_commit_sha: pull.merge_commit_sha, user: { login: 'alice' } });
  });

  it("a pull request's keyword acts only when its poster could change the issue, except in the pull request's own repository", async () => {
    const libIssue = await newIssue('alice/lib', 'alice', 'Not yours');
    const appIssue = await newIssue('alice/app', 'alice', 'Same repository');
    await f.fork('alice', 'app', 'bob');
    await f.push('bob', 'app', 'bob', 'bobfix', { 'bob.txt': 'b\n' });
    const { json } = await f.open('alice', 'app', 'bob', {
      head: 'bob:bobfix',
      base: 'main',
      body: `Closes alice/lib#${libIssue}, closes #${appIssue}`,
    });
    const pr = json.number as number;
    await settle();
    const lib = (await timeline('alice/lib', libIssue)).filter((e) => e.type.endsWith('_ref'));
    expect(lib.map((e) => [e.type, e.ref_action, e.ref_issue?.number])).toEqual([['pull_ref', 'none', pr]]);
    const app = (await timeline('alice/app', appIssue)).filter((e) => e.type.endsWith('_ref'));
    expect(app.map((e) => [e.type, e.ref_action])).toEqual([['pull_ref', 'closes']]);
    const merged = await t.request('POST', `/api/v1/repos/alice/app/pulls/${pr}/merge`, { headers: basic('alice'), body: { Do: 'merge' } });
    expect(merged.statusCode, merged.body).toBe(200);
    await settle();
    expect(await state('alice/lib', libIssue)).toBe('open');
    expect(await state('alice/app', appIssue)).toBe('closed');
  });

  it('pushed commits: commit_ref on the referenced issues; "Fixes #N" closes on the default branch only; "Reopens" reopens', async () => {
    const issue = await newIssue('alice/app', 'alice', 'Pushed fix');
    await f.push('alice', 'app', 'alice', 'side', { 'side.txt': 'x\n' });
    const dir = await f.workTree('alice', 'app', 'alice');
    const side = await f.git.commit(dir, 'side2.txt', 'y\n', `Fixes #${issue} on a side branch`);
    await f.git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/side'], { cwd: dir });
    await settle();
    let entries = (await timeline('alice/app', issue)).filter((e) => e.type === 'commit_ref');
    expect(entries.map((e) => e.ref_commit_sha)).toEqual([side]);
    expect(entries[0]?.body).toBe(`<a href="/alice/app/commit/${side}">Fixes #${issue} on a side branch</a>`);
    expect(await state('alice/app', issue)).toBe('open');

    await f.git.ok(['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: dir });
    const fix = await f.git.commit(dir, 'main.txt', 'z\n', `Fixes #${issue}`);
    await f.git.ok(['push', '-q', 'origin', 'main'], { cwd: dir });
    await settle();
    expect(await state('alice/app', issue)).toBe('closed');
    const close = (await timeline('alice/app', issue)).find((e) => e.type === 'close');
    expect(close?.ref_commit_sha).toBe(fix);

    const again = await f.git.commit(dir, 'main2.txt', 'w\n', `Reopens #${issue}: not fixed`);
    await f.git.ok(['push', '-q', 'origin', 'main'], { cwd: dir });
    await settle();
    expect(await state('alice/app', issue)).toBe('open');
    entries = (await timeline('alice/app', issue)).filter((e) => e.type === 'commit_ref');
    expect(entries.map((e) => e.ref_commit_sha)).toEqual([side, fix, again]);
  });

  it('code comments of a submitted review add comment_ref entries', async () => {
    const target = await newIssue('alice/app', 'alice', 'Reviewed elsewhere');
    const pr = await f.pushAndOpen('alice', 'app', 'alice', 'reviewed', { 'r.txt': 'one\ntwo\n' });
    const review = await t.request('POST', `/api/v1/repos/alice/app/pulls/${pr}/reviews`, {
      headers: basic('bob'),
      body: { event: 'COMMENT', body: 'thoughts', comments: [{ path: 'r.txt', body: `like #${target}`, new_position: 1 }] },
    });
    expect(review.statusCode, review.body).toBe(200);
    await settle();
    const refs = (await timeline('alice/app', target)).filter((e) => e.type === 'comment_ref');
    expect(refs.map((e) => [e.ref_issue?.number, e.ref_comment?.body, e.user.login])).toEqual([[pr, `like #${target}`, 'bob']]);
  });
});
